import { isApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { checkRolePermissionChange, rolePermissionEvent } from './role-permissions.ts';
import { DEFAULT_ROLE_PERMISSIONS } from './roles.ts';

const ADMIN = new Set(DEFAULT_ROLE_PERMISSIONS.admin);
const SECOND_ADMIN = new Set(DEFAULT_ROLE_PERMISSIONS.second_admin);

function outcome(role: string, permission: string, actorPermissions: ReadonlySet<string>): string {
  try {
    checkRolePermissionChange({ role, permission, actorPermissions });
    return 'ok';
  } catch (error) {
    if (!isApiError(error)) throw error;
    return `${error.status}:${error.message}`;
  }
}

describe('role-permission changes', () => {
  it('never changes the admin role, whoever asks', () => {
    expect(outcome('admin', 'login', ADMIN)).toBe('400:Admin permissions cannot be changed with API');
    // Checked before the names, as the original does.
    expect(outcome('admin', 'no_such_permission', ADMIN)).toBe('400:Admin permissions cannot be changed with API');
  });

  it('names an unknown role or permission', () => {
    expect(outcome('captain', 'login', ADMIN)).toBe('400:Invalid role: captain');
    expect(outcome('user', 'fly', ADMIN)).toBe('400:Invalid permission: fly');
    // Route-only pseudo permissions are not rows of the permission table.
    expect(outcome('user', 'timestamp', ADMIN)).toBe('400:Invalid permission: timestamp');
    expect(outcome('user', 'public', ADMIN)).toBe('400:Invalid permission: public');
  });

  it('needs manage_user_<role> of the acting user', () => {
    expect(outcome('user', 'manage_setting', ADMIN)).toBe('ok');
    expect(outcome('consignee', 'basic_user_action', ADMIN)).toBe('ok');
    expect(outcome('second_admin', 'manage_port', SECOND_ADMIN)).toBe('ok');
    const onlyPermission = new Set(['manage_permission']);
    expect(outcome('user', 'login', onlyPermission)).toBe('403:No permission to modify permissions of given role');
    const managesUsers = new Set(['manage_permission', 'manage_user_user']);
    expect(outcome('user', 'login', managesUsers)).toBe('ok');
    expect(outcome('first_user', 'login', managesUsers)).toBe('403:No permission to modify permissions of given role');
  });

  it('records a change only when the role is not already as asked', () => {
    const held = new Set(['login', 'basic_user_action']);
    expect(rolePermissionEvent('grant', held, 'manage_setting')).toBe('RolePermissionGranted');
    expect(rolePermissionEvent('grant', held, 'login')).toBeNull();
    expect(rolePermissionEvent('revoke', held, 'login')).toBe('RolePermissionRevoked');
    expect(rolePermissionEvent('revoke', held, 'manage_setting')).toBeNull();
  });
});
