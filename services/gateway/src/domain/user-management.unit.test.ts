import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS } from './roles.ts';
import {
  assertUserFields,
  CODE_LETTERS,
  CODE_PATTERN,
  decideChangeCode,
  decideChangePasswordRights,
  decideChangePasswordTarget,
  decideCode,
  decideCodeCreator,
  decideCodelessActivator,
  decideCodelessEnabled,
  decideCreateCode,
  decideCreateUser,
  decideDeleteUser,
  decideSuspendOrLock,
  decideUpdateUser,
  generateRegistrationCode,
  isWithinReach,
  type Manager,
  managementLevel,
  rowId,
} from './user-management.ts';

const perms = (role: string) => new Set(DEFAULT_ROLE_PERMISSIONS[role]);
const admin: Manager = { id: 1, permissions: perms('admin') };
const secondAdmin: Manager = { id: 2, permissions: perms('second_admin') };
const firstUser: Manager = { id: 3, permissions: perms('first_user') };

const target = (role: string, created_by: number | null, id = 10) => ({ id, role, created_by });

/** Runs fn and returns the ApiError's status and message, or 'ok'. */
function outcome(fn: () => void): string {
  try {
    fn();
    return 'ok';
  } catch (error) {
    const e = error as { status: number; message: string };
    return `${e.status} ${e.message}`;
  }
}

describe('management level and reach', () => {
  it('admin manages all, second_admin its own, others none', () => {
    expect(managementLevel(admin.permissions)).toBe('all');
    expect(managementLevel(secondAdmin.permissions)).toBe('own');
    expect(managementLevel(firstUser.permissions)).toBe('none');
  });

  it('level own reaches only what the manager created', () => {
    expect(isWithinReach(admin, target('user', 99))).toBe(true);
    expect(isWithinReach(admin, target('user', null))).toBe(true);
    expect(isWithinReach(secondAdmin, target('user', 2))).toBe(true);
    expect(isWithinReach(secondAdmin, target('user', 1))).toBe(false);
    expect(isWithinReach(secondAdmin, target('user', null))).toBe(false);
    expect(isWithinReach(firstUser, target('user', 3))).toBe(false);
  });
});

describe('users', () => {
  it('creating needs manage_user_<role> of a known role', () => {
    expect(outcome(() => decideCreateUser(admin, 'admin'))).toBe('ok');
    expect(outcome(() => decideCreateUser(secondAdmin, 'user'))).toBe('ok');
    expect(outcome(() => decideCreateUser(secondAdmin, 'admin'))).toBe('403 No permission to add user with given role');
    expect(outcome(() => decideCreateUser(admin, 'root'))).toBe('400 Invalid role: root');
  });

  it('updating needs reach and both roles; the last admin keeps the role', () => {
    expect(outcome(() => decideUpdateUser(admin, target('user', 5), 'first_user', 1))).toBe('ok');
    expect(outcome(() => decideUpdateUser(secondAdmin, target('user', 2), 'first_user', 1))).toBe('ok');
    expect(outcome(() => decideUpdateUser(secondAdmin, target('user', 1), 'user', 1))).toBe(
      '403 No permission to update given user',
    );
    expect(outcome(() => decideUpdateUser(secondAdmin, target('user', 2), 'admin', 1))).toBe(
      '403 No permission to update given user',
    );
    expect(outcome(() => decideUpdateUser(secondAdmin, target('admin', 2), 'user', 2))).toBe(
      '403 No permission to update given user',
    );
    expect(outcome(() => decideUpdateUser(admin, target('admin', null), 'user', 1))).toBe(
      '400 Last admin role cannot be changed from API',
    );
    expect(outcome(() => decideUpdateUser(admin, target('admin', null), 'user', 2))).toBe('ok');
    expect(outcome(() => decideUpdateUser(admin, target('admin', null), 'admin', 1))).toBe('ok');
  });

  it('deleting: never yourself, needs rights, never the last admin', () => {
    expect(outcome(() => decideDeleteUser(admin, target('admin', null, 1), 2))).toBe("400 You can't delete yourself");
    expect(outcome(() => decideDeleteUser(secondAdmin, target('user', 1), 2))).toBe(
      '403 No permission to delete given user',
    );
    expect(outcome(() => decideDeleteUser(secondAdmin, target('user', 2), 2))).toBe('ok');
    // A manager holding manage_user_admin without being an admin could otherwise remove the last one.
    const delegate: Manager = {
      id: 7,
      permissions: new Set([...perms('second_admin'), 'manage_user_admin', 'manage_all_user']),
    };
    expect(outcome(() => decideDeleteUser(delegate, target('admin', null), 1))).toBe(
      '400 Last admin cannot be deleted from API',
    );
    expect(outcome(() => decideDeleteUser(delegate, target('admin', null), 2))).toBe('ok');
  });

  it('suspend and lock need the same rights, with their own messages', () => {
    expect(outcome(() => decideSuspendOrLock(secondAdmin, target('user', 2), 'suspend'))).toBe('ok');
    expect(outcome(() => decideSuspendOrLock(secondAdmin, target('user', 1), 'suspend'))).toBe(
      '403 No permission to set suspend state of given user',
    );
    expect(outcome(() => decideSuspendOrLock(secondAdmin, target('admin', 2), 'lock'))).toBe(
      '403 No permission to set lock state of given user',
    );
  });

  it('change-password: no admin changes another admin; then the usual rights', () => {
    expect(outcome(() => decideChangePasswordTarget(admin, target('admin', null, 1)))).toBe('ok');
    expect(outcome(() => decideChangePasswordTarget(admin, target('admin', null, 9)))).toBe(
      "400 Admin can't change other admin password",
    );
    expect(outcome(() => decideChangePasswordRights(secondAdmin, target('user', 1)))).toBe(
      '403 No permission to change password of given user',
    );
    expect(outcome(() => decideChangePasswordRights(admin, target('user', 1)))).toBe('ok');
  });

  it('fields may not be empty, nor take the reserved suffixes', () => {
    const ok = { first_name: 'A', last_name: 'B', email: 'a@b.fi' };
    expect(outcome(() => assertUserFields(ok))).toBe('ok');
    expect(outcome(() => assertUserFields({ ...ok, first_name: ' ' }))).toBe("400 First name can't be empty");
    expect(outcome(() => assertUserFields({ ...ok, last_name: '' }))).toBe("400 Last name can't be empty");
    expect(outcome(() => assertUserFields({ ...ok, email: '' }))).toBe("400 Email can't be empty");
    expect(outcome(() => assertUserFields({ ...ok, email: '12@DELETED' }))).toBe('400 Invalid email: 12@DELETED');
    expect(outcome(() => assertUserFields({ ...ok, email: '1-a@api.key' }))).toBe('400 Invalid email: 1-a@api.key');
    expect(outcome(() => assertUserFields({ ...ok, email: 'usertest1_1' }))).toBe('ok');
  });

  it('maps ids beyond int4 to no row', () => {
    expect(rowId(5)).toBe(5);
    expect(rowId(2_147_483_647)).toBe(2_147_483_647);
    expect(rowId(2_147_483_648)).toBe(0);
    expect(rowId(0)).toBe(0);
  });
});

describe('registration codes', () => {
  it('has the format AAAAAA-NNNNNN without I and O', () => {
    expect(CODE_LETTERS).toHaveLength(24);
    expect(CODE_LETTERS).not.toMatch(/[IO]/);
    const low = generateRegistrationCode(() => 0);
    const high = generateRegistrationCode((n) => n - 1);
    expect(low).toBe('AAAAAA-100000');
    expect(high).toBe('ZZZZZZ-999999');
    for (let i = 0; i < 200; i++) {
      const code = generateRegistrationCode((n) => Math.floor(Math.random() * n));
      expect(code).toMatch(CODE_PATTERN);
    }
    expect('ABCDEI-123456').not.toMatch(CODE_PATTERN);
    expect('ABCDEF-012345').not.toMatch(CODE_PATTERN);
  });

  it('creating needs manage_user_<role>', () => {
    expect(outcome(() => decideCreateCode(secondAdmin, 'first_user'))).toBe('ok');
    expect(outcome(() => decideCreateCode(secondAdmin, 'admin'))).toBe(
      '403 No permission to create code with given role',
    );
    expect(outcome(() => decideCreateCode(admin, 'nobody'))).toBe('400 Invalid role: nobody');
  });

  it('changing: level own only its codes; both roles need rights', () => {
    const own = { id: 1, role: 'user', created_by: 2 };
    const other = { id: 2, role: 'user', created_by: 1 };
    expect(outcome(() => decideChangeCode(secondAdmin, own, 'first_user'))).toBe('ok');
    expect(outcome(() => decideChangeCode(secondAdmin, other))).toBe(
      '400 No permission to update given registration code',
    );
    expect(outcome(() => decideChangeCode(firstUser, { ...own, created_by: 3 }))).toBe(
      '400 No permission to update given registration code',
    );
    expect(outcome(() => decideChangeCode(secondAdmin, own, 'admin'))).toBe(
      '403 No permission to create code with given role',
    );
    expect(outcome(() => decideChangeCode(admin, other, 'admin'))).toBe('ok');
  });
});

describe('sign-up', () => {
  const code = { id: 4, role: 'first_user', enabled: true, created_by: 2 };
  const sponsor = (role: string, status = 'active') => ({ id: 2, status, permissions: perms(role) });

  it('needs an enabled code whose creator may still create its role', () => {
    expect(outcome(() => decideCode(null))).toBe('400 Invalid code');
    expect(outcome(() => decideCode({ ...code, enabled: false }))).toBe('400 Invalid code');
    expect(decideCode(code)).toBe(code);
    expect(outcome(() => decideCodeCreator(code, sponsor('second_admin')))).toBe('ok');
    expect(outcome(() => decideCodeCreator(code, null))).toBe('403 Code creator does not exist');
    expect(outcome(() => decideCodeCreator(code, sponsor('second_admin', 'deleted')))).toBe(
      '403 Code creator does not exist',
    );
    expect(outcome(() => decideCodeCreator(code, sponsor('first_user')))).toBe(
      '403 Code creator has no permission to create code with given role',
    );
  });

  it('codeless: the setting must be enabled and its activator may create users', () => {
    expect(outcome(() => decideCodelessEnabled('enabled'))).toBe('ok');
    expect(outcome(() => decideCodelessEnabled('disabled'))).toBe('400 Codeless registration not permitted');
    expect(outcome(() => decideCodelessEnabled(undefined))).toBe('400 Codeless registration not permitted');
    expect(outcome(() => decideCodelessActivator(sponsor('second_admin')))).toBe('ok');
    for (const activator of [null, sponsor('first_user'), sponsor('admin', 'deleted')]) {
      expect(outcome(() => decideCodelessActivator(activator))).toBe(
        '403 Codeless registration activator has no permission to allow user creation',
      );
    }
  });
});
