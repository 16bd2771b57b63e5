// Roles, permissions and role-permission changes over HTTP, on real PostgreSQL (and Redis sessions).

import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS, PERMISSIONS, ROLES } from '../../domain/roles.ts';
import { changeSnapshot, startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

let gw: TestGateway;
let admin: ApiClient;
let secondAdmin: ApiClient;
let user: ApiClient;
let userId: number;

const eventsOf = async (stream: string) => gw.store.readStream(stream);

beforeAll(async () => {
  gw = await startTestGateway('gw_roles');
  admin = await gw.as(gw.adminId);
  secondAdmin = await gw.as(await gw.createUser('second_admin'));
  userId = await gw.createUser('user');
  user = await gw.as(userId);
});

afterAll(async () => {
  await gw?.stop();
});

describe('reading roles and permissions', () => {
  it('GET /roles lists the six fixed roles', async () => {
    const res = await user.get('/roles');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ROLES.map((r) => ({ id: r.id, name: r.name, readable_name: r.readable_name })));
  });

  it('GET /permissions lists the 36 permissions in the original order', async () => {
    const res = await user.get('/permissions');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(36);
    expect(res.body).toEqual(PERMISSIONS.map((p) => ({ id: p.id, name: p.name, readable_name: p.readable_name })));
  });

  it('GET /role-permissions is one single-key object per role, with the default matrix', async () => {
    const res = await user.get('/role-permissions');
    expect(res.status).toBe(200);
    expect(res.body.map((entry: object) => Object.keys(entry))).toEqual(ROLES.map((r) => [r.name]));
    expect(res.body.map((entry: Record<string, string[]>) => Object.values(entry)[0].length)).toEqual([
      36, 30, 10, 3, 0, 3,
    ]);
    for (const entry of res.body as Record<string, string[]>[]) {
      const [role, permissions] = Object.entries(entry)[0];
      expect(new Set(permissions)).toEqual(new Set(DEFAULT_ROLE_PERMISSIONS[role]));
    }
  });

  it('GET /role-permissions/by-role/:role answers one role, or names an unknown one', async () => {
    const res = await user.get('/role-permissions/by-role/user');
    expect(res).toMatchObject({ status: 200, body: { user: ['login', 'basic_user_action', 'view_vis_information'] } });
    expect((await user.get('/role-permissions/by-role/inactive_user')).body).toEqual({ inactive_user: [] });
    const unknown = await user.get('/role-permissions/by-role/captain');
    expect(unknown).toMatchObject({ status: 400, body: { error: 'Invalid role: captain' } });
  });

  it('refuses callers without basic_user_action', async () => {
    const consignee = await gw.as(await gw.createUser('consignee'));
    for (const path of ['/roles', '/permissions', '/role-permissions', '/role-permissions/by-role/user']) {
      expect(await consignee.get(path)).toMatchObject({ status: 403, body: { error: 'Invalid access' } });
      expect(await gw.anonymous.get(path)).toMatchObject({ status: 403, body: { error: 'Invalid access' } });
    }
  });
});

describe("changing a role's permissions", () => {
  it('PUT grants once (an event with the acting user), takes effect on the next request, and repeats as OK', async () => {
    // Without the permission the user cannot change settings.
    expect(await user.put('/settings/queue_rta_window_duration/PT45M')).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    const before = (await eventsOf('rolepermissions-user')).length;
    expect(await admin.put('/role-permissions/user/manage_setting')).toEqual(
      expect.objectContaining({ status: 200, body: { result: 'OK' } }),
    );
    const events = await eventsOf('rolepermissions-user');
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      type: 'RolePermissionGranted',
      data: { role: 'user', permission: 'manage_setting' },
      metadata: { user_id: gw.adminId, api_key_id: null },
    });
    // The same session, next request: allowed now.
    expect(await user.put('/settings/queue_rta_window_duration/PT45M')).toMatchObject({
      status: 200,
      body: { queue_rta_window_duration: 'PT45M' },
    });
    expect((await user.get('/role-permissions/by-role/user')).body.user).toContain('manage_setting');
    // Granting what the role has is OK and records nothing.
    expect((await admin.put('/role-permissions/user/manage_setting')).body).toEqual({ result: 'OK' });
    expect(await eventsOf('rolepermissions-user')).toHaveLength(before + 1);
  });

  it('DELETE revokes once and takes effect on the next request', async () => {
    const before = (await eventsOf('rolepermissions-user')).length;
    expect((await admin.delete('/role-permissions/user/manage_setting')).body).toEqual({ result: 'OK' });
    const events = await eventsOf('rolepermissions-user');
    expect(events.at(-1)).toMatchObject({
      type: 'RolePermissionRevoked',
      data: { role: 'user', permission: 'manage_setting' },
      metadata: { user_id: gw.adminId },
    });
    expect(await user.put('/settings/queue_rta_window_duration/PT30M')).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect((await admin.delete('/role-permissions/user/manage_setting')).body).toEqual({ result: 'OK' });
    expect(await eventsOf('rolepermissions-user')).toHaveLength(before + 1);
  });

  it('revoking basic_user_action shuts the role out of the app at once; granting it back lets it in', async () => {
    expect((await user.get('/roles')).status).toBe(200);
    await admin.delete('/role-permissions/user/basic_user_action');
    expect(await user.get('/roles')).toMatchObject({ status: 403, body: { error: 'Invalid access' } });
    const session = await user.get('/session');
    expect(session.body.user.permissions).toEqual(['login', 'view_vis_information']);
    await admin.put('/role-permissions/user/basic_user_action');
    expect((await user.get('/roles')).status).toBe(200);
  });

  it('needs manage_permission for the route, and manage_user_<role> for the role', async () => {
    // second_admin has manage_user_user but not manage_permission.
    expect(await secondAdmin.put('/role-permissions/user/manage_setting')).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    // A first_user given manage_permission still manages no users of any role.
    await admin.put('/role-permissions/first_user/manage_permission');
    const firstUser = await gw.as(await gw.createUser('first_user'));
    expect(await firstUser.put('/role-permissions/user/manage_setting')).toMatchObject({
      status: 403,
      body: { error: 'No permission to modify permissions of given role' },
    });
    await admin.delete('/role-permissions/first_user/manage_permission');
  });

  it('concurrent equal changes record one event', async () => {
    const before = (await eventsOf('rolepermissions-consignee')).length;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.put('/role-permissions/consignee/view_berth')),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await eventsOf('rolepermissions-consignee')).toHaveLength(before + 1);
    await admin.delete('/role-permissions/consignee/view_berth');
  });
});

describe('bad input changes nothing', () => {
  const long = 'r'.repeat(101);
  it.each([
    ['PUT', '/role-permissions/admin/login', 400, 'Admin permissions cannot be changed with API'],
    ['DELETE', '/role-permissions/admin/login', 400, 'Admin permissions cannot be changed with API'],
    ['PUT', '/role-permissions/captain/login', 400, 'Invalid role: captain'],
    ['DELETE', '/role-permissions/captain/login', 400, 'Invalid role: captain'],
    ['PUT', '/role-permissions/user/fly', 400, 'Invalid permission: fly'],
    ['PUT', '/role-permissions/user/timestamp', 400, 'Invalid permission: timestamp'],
    ['DELETE', '/role-permissions/user/%00', 400, 'permission contains a NUL character'],
    ['PUT', `/role-permissions/${long}/login`, 400, 'Parameter too long: role'],
    ['DELETE', `/role-permissions/user/${long}`, 400, 'Parameter too long: permission'],
    ['PUT', '/role-permissions/USER/login', 400, 'Invalid role: USER'],
    ['GET', `/role-permissions/by-role/${long}`, 400, 'Parameter too long: role'],
    ['GET', '/role-permissions/by-role/%20', 400, 'Invalid role: '],
  ])('%s %s → %i %s', async (method, path, status, error) => {
    const before = await changeSnapshot(gw.db);
    // Bodies with unknown fields and wrong types are ignored: the path decides.
    const res = await admin.call(method, path, method === 'GET' ? undefined : { extra: [1, 2], id: 'x' });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error });
    expect(await changeSnapshot(gw.db)).toBe(before);
  });

  it('a body may not smuggle in a role of the wrong type', async () => {
    const before = await changeSnapshot(gw.db);
    const res = await admin.put('/role-permissions/user/manage_setting', { role: 5 });
    expect(res).toMatchObject({
      status: 400,
      body: { error: "Wrong parameter type: role should be string but got '5'" },
    });
    expect(await changeSnapshot(gw.db)).toBe(before);
  });
});
