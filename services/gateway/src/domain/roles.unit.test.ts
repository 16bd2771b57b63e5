import type { AuthContext } from '@pcas/http-kit';
import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS,
  API_KEY_PERMISSIONS,
  DEFAULT_ROLE_PERMISSIONS,
  isAllowed,
  PERMISSIONS,
  ROLES,
  readKeyPermissions,
} from './roles.ts';

const session = (role: string, permissions = DEFAULT_ROLE_PERMISSIONS[role]): AuthContext => ({
  kind: 'session',
  sessionId: 'x'.repeat(32),
  userId: 7,
  apiKeyId: null,
  role,
  permissions: new Set(permissions),
});

const apiKey: AuthContext = {
  kind: 'api_key',
  sessionId: null,
  userId: 9,
  apiKeyId: 3,
  role: 'inactive_user',
  permissions: new Set(API_KEY_PERMISSIONS),
};

describe('roles and permissions', () => {
  it('has the six roles with the original ids and readable names', () => {
    expect(ROLES.map((r) => [r.id, r.name, r.readable_name])).toEqual([
      [1, 'admin', 'Administrator'],
      [2, 'second_admin', 'Second administrator'],
      [3, 'first_user', 'First user'],
      [4, 'user', 'User'],
      [5, 'inactive_user', 'Inactive user'],
      [6, 'consignee', 'Consignee'],
    ]);
  });

  it('has 36 distinct permissions with readable names, ids 1..36', () => {
    expect(PERMISSIONS).toHaveLength(36);
    expect(new Set(PERMISSIONS.map((p) => p.name)).size).toBe(36);
    expect(PERMISSIONS.map((p) => p.id)).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
    for (const p of PERMISSIONS) expect(p.readable_name).not.toBe('');
    expect(PERMISSIONS.find((p) => p.name === 'manage_sea_chart_vessel')?.readable_name).toBe(
      'Manage predefined port actors on map',
    );
  });

  it('pins the default matrix counts 36/30/10/3/0/3', () => {
    const counts = Object.fromEntries(Object.entries(DEFAULT_ROLE_PERMISSIONS).map(([r, p]) => [r, p.length]));
    expect(counts).toEqual({ admin: 36, second_admin: 30, first_user: 10, user: 3, inactive_user: 0, consignee: 3 });
  });

  it('matrix rows name only real permissions, without duplicates', () => {
    const names = new Set(PERMISSIONS.map((p) => p.name));
    for (const list of Object.values(DEFAULT_ROLE_PERMISSIONS)) {
      expect(new Set(list).size).toBe(list.length);
      for (const name of list) expect(names.has(name)).toBe(true);
    }
  });

  it('second_admin lacks exactly the admin-only permissions', () => {
    const all = PERMISSIONS.map((p) => p.name);
    const missing = all.filter((p) => !DEFAULT_ROLE_PERMISSIONS.second_admin.includes(p));
    expect(missing.sort()).toEqual(
      [
        'manage_all_user',
        'manage_berth',
        'manage_permission',
        'manage_port',
        'manage_translation',
        'manage_user_admin',
      ].sort(),
    );
  });

  it('spot-checks the matrix rows of user, consignee and first_user', () => {
    expect([...DEFAULT_ROLE_PERMISSIONS.user].sort()).toEqual(['basic_user_action', 'login', 'view_vis_information']);
    expect([...DEFAULT_ROLE_PERMISSIONS.consignee].sort()).toEqual([
      'login',
      'manage_own_queue_nomination',
      'view_own_queue_nomination',
    ]);
    expect(DEFAULT_ROLE_PERMISSIONS.first_user).toContain('add_manual_timestamp');
    expect(DEFAULT_ROLE_PERMISSIONS.first_user).not.toContain('manage_port_call');
  });

  it('API-key-only permissions are not rows of the permission table', () => {
    for (const name of API_KEY_PERMISSIONS) expect(PERMISSIONS.some((p) => p.name === name)).toBe(false);
  });
});

describe('isAllowed', () => {
  it('lets everyone call public routes', () => {
    expect(isAllowed(ANONYMOUS, 'public')).toBe(true);
    expect(isAllowed(apiKey, 'public')).toBe(true);
  });

  it('refuses anonymous callers anything else', () => {
    expect(isAllowed(ANONYMOUS, 'basic_user_action')).toBe(false);
    expect(isAllowed(ANONYMOUS, 'login')).toBe(false);
    expect(isAllowed(ANONYMOUS, 'timestamp')).toBe(false);
  });

  it('grants the API-key-only permissions to API keys and to nobody else, not even admins', () => {
    for (const name of API_KEY_PERMISSIONS) {
      expect(isAllowed(apiKey, name)).toBe(true);
      expect(isAllowed(session('admin'), name)).toBe(false);
      // Even a role that somehow holds the name does not pass.
      expect(isAllowed(session('admin', [name]), name)).toBe(false);
    }
  });

  it('grants a key only the API-key permissions it was given', () => {
    const gate = { ...apiKey, permissions: new Set(['timestamp']) };
    expect(isAllowed(gate, 'timestamp')).toBe(true);
    for (const name of API_KEY_PERMISSIONS.filter((p) => p !== 'timestamp')) expect(isAllowed(gate, name)).toBe(false);
  });

  it('reads an administrator’s choice of API-key permissions', () => {
    expect(readKeyPermissions(undefined)).toBeNull();
    expect(readKeyPermissions(null)).toBeNull();
    expect(readKeyPermissions(['export_api', 'timestamp', 'timestamp'])).toEqual(['timestamp', 'export_api']);
    expect(() => readKeyPermissions([])).toThrow(/Invalid permissions: one or more of timestamp, /);
    expect(() => readKeyPermissions(['manage_user'])).toThrow('Invalid permission: manage_user');
    expect(() => readKeyPermissions('timestamp')).toThrow(/Invalid permissions/);
  });

  it('gives an API key only its bound role permissions otherwise', () => {
    expect(isAllowed(apiKey, 'basic_user_action')).toBe(false);
    expect(isAllowed(apiKey, 'manage_api_key')).toBe(false);
    expect(
      isAllowed(
        { ...apiKey, permissions: new Set([...API_KEY_PERMISSIONS, 'basic_user_action']) },
        'basic_user_action',
      ),
    ).toBe(true);
  });

  it('checks the role permission for sessions', () => {
    expect(isAllowed(session('admin'), 'manage_api_key')).toBe(true);
    expect(isAllowed(session('user'), 'manage_api_key')).toBe(false);
    expect(isAllowed(session('user'), 'basic_user_action')).toBe(true);
    expect(isAllowed(session('inactive_user'), 'login')).toBe(false);
  });

  it('opens manage_user to any holder of a manage_user_<role>', () => {
    expect(isAllowed(session('admin'), 'manage_user')).toBe(true);
    expect(isAllowed(session('second_admin'), 'manage_user')).toBe(true);
    expect(isAllowed(session('x', ['login', 'manage_user_consignee']), 'manage_user')).toBe(true);
    expect(isAllowed(session('user'), 'manage_user')).toBe(false);
    // manage_own_user / manage_all_user are levels, not roles: alone they do not open the route.
    expect(isAllowed(session('x', ['manage_own_user', 'manage_all_user']), 'manage_user')).toBe(false);
  });

  it("maps the spec's modify_sea_chart_vessels to manage_sea_chart_vessel", () => {
    expect(isAllowed(session('second_admin'), 'modify_sea_chart_vessels')).toBe(true);
    expect(isAllowed(session('first_user'), 'modify_sea_chart_vessels')).toBe(false);
  });

  it('grants login by the body e-mail of an active user whose role may log in', () => {
    expect(isAllowed(ANONYMOUS, 'login', { status: 'active', permissions: ['login'] })).toBe(true);
    expect(isAllowed(ANONYMOUS, 'login', { status: 'active', permissions: new Set(['login']) })).toBe(true);
    expect(isAllowed(ANONYMOUS, 'login', { status: 'active', permissions: [] })).toBe(false);
    expect(isAllowed(ANONYMOUS, 'login', { status: 'api_user', permissions: ['login'] })).toBe(false);
    expect(isAllowed(ANONYMOUS, 'login', null)).toBe(false);
    // The candidate only matters for `login`.
    expect(isAllowed(ANONYMOUS, 'basic_user_action', { status: 'active', permissions: ['basic_user_action'] })).toBe(
      false,
    );
  });

  it('grants login to a session whose role has it (logout, session)', () => {
    expect(isAllowed(session('consignee'), 'login')).toBe(true);
    expect(isAllowed(session('inactive_user'), 'login')).toBe(false);
  });
});
