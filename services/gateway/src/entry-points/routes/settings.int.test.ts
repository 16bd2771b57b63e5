// Settings and module switches over HTTP, on real PostgreSQL (and Redis sessions).

import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../domain/settings.ts';
import { changeSnapshot, startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

let gw: TestGateway;
let admin: ApiClient;
let secondAdmin: ApiClient;
let secondAdminId: number;
let user: ApiClient;
let apiKey: ApiClient;

const settingRow = async (name: string) =>
  (
    await gw.db.query<{ value: string; modified_by: number | null }>(
      'SELECT value, modified_by FROM gateway.settings WHERE name = $1',
      [name],
    )
  ).rows[0];

beforeAll(async () => {
  gw = await startTestGateway('gw_settings');
  admin = await gw.as(gw.adminId);
  secondAdminId = await gw.createUser('second_admin');
  secondAdmin = await gw.as(secondAdminId);
  user = await gw.as(await gw.createUser('user'));
  apiKey = gw.anonymous.withApiKey((await gw.createApiKey()).key);
});

afterAll(async () => {
  await gw?.stop();
});

describe('reading settings', () => {
  it('GET /settings is [{id, <name>: value}] for every setting, in id order', async () => {
    const res = await user.get('/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULT_SETTINGS.map((s) => ({ id: s.id, [s.name]: s.value })));
  });

  it('GET /settings/by-name/:name answers one setting, or names an unknown one', async () => {
    expect(await user.get('/settings/by-name/queue_live_eta_alert_buffer_duration')).toMatchObject({
      status: 200,
      body: { id: 9, queue_live_eta_alert_buffer_duration: 'PT1H' },
    });
    expect(await user.get('/settings/by-name/dark_mode')).toMatchObject({
      status: 400,
      body: { error: 'Invalid setting name: dark_mode' },
    });
  });

  it('GET /public-settings tells anyone about codeless registration, and nothing else', async () => {
    expect(await gw.anonymous.get('/public-settings', { name: 'codeless_registration_module' })).toMatchObject({
      status: 200,
      body: { codeless_registration_module: 'disabled' },
    });
    expect(await gw.anonymous.get('/public-settings', { name: 'activity_module' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid setting name: activity_module' },
    });
    expect(await gw.anonymous.get('/public-settings')).toMatchObject({
      status: 400,
      body: { error: 'Missing parameter: name' },
    });
  });

  it('the settings reads need basic_user_action', async () => {
    expect(await gw.anonymous.get('/settings')).toMatchObject({ status: 403, body: { error: 'Invalid access' } });
    expect(await apiKey.get('/settings/by-name/map_module')).toMatchObject({ status: 403 });
  });
});

describe('changing settings', () => {
  it('PUT stores the value, records the event and the modifier', async () => {
    const res = await secondAdmin.put('/settings/queue_rta_window_duration/PT1H30M');
    expect(res).toMatchObject({ status: 200, body: { queue_rta_window_duration: 'PT1H30M' } });
    expect(await settingRow('queue_rta_window_duration')).toEqual({ value: 'PT1H30M', modified_by: secondAdminId });
    const events = await gw.store.readStream('setting-queue_rta_window_duration');
    expect(events.at(-1)).toMatchObject({
      type: 'SettingChanged',
      data: { name: 'queue_rta_window_duration', value: 'PT1H30M', previous_value: 'PT30M' },
      metadata: { user_id: secondAdminId, api_key_id: null },
    });
    expect((await user.get('/settings/by-name/queue_rta_window_duration')).body).toEqual({
      id: 7,
      queue_rta_window_duration: 'PT1H30M',
    });
  });

  it("setting the same value again makes the actor the modifier (codeless registration's activator)", async () => {
    await secondAdmin.put('/settings/codeless_registration_module/enabled');
    expect(await settingRow('codeless_registration_module')).toEqual({ value: 'enabled', modified_by: secondAdminId });
    expect(await gw.anonymous.get('/public-settings', { name: 'codeless_registration_module' })).toMatchObject({
      body: { codeless_registration_module: 'enabled' },
    });
    const before = (await gw.store.readStream('setting-codeless_registration_module')).length;
    expect((await admin.put('/settings/codeless_registration_module/enabled')).body).toEqual({
      codeless_registration_module: 'enabled',
    });
    expect(await settingRow('codeless_registration_module')).toEqual({ value: 'enabled', modified_by: gw.adminId });
    expect(await gw.store.readStream('setting-codeless_registration_module')).toHaveLength(before + 1);
    await admin.put('/settings/codeless_registration_module/disabled');
  });

  it('takes e-mail lists as the queue settings page sends them, and `empty` clears them', async () => {
    expect((await admin.put('/settings/port_operator_emails/ops@port.se,duty@port.se')).body).toEqual({
      port_operator_emails: 'ops@port.se,duty@port.se',
    });
    expect((await admin.put('/settings/port_operator_emails/empty')).body).toEqual({ port_operator_emails: '' });
    expect((await settingRow('port_operator_emails')).value).toBe('');
  });

  it('needs manage_setting', async () => {
    expect(await user.put('/settings/map_module/disabled')).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect(await apiKey.put('/settings/map_module/disabled')).toMatchObject({ status: 403 });
    expect((await settingRow('map_module')).value).toBe('enabled');
  });
});

describe('modules', () => {
  // Invalid paging parameters: a route that runs answers 400 without touching other services' read models,
  // so what is seen is the module check alone.
  const vessels = (client: ApiClient) => client.get('/vessels', { limit: 'x' });
  const timestamps = (client: ApiClient) => client.get('/timestamps', { id: 'x' });

  it('a disabled module refuses its routes naming it, and GET /session shows it at once', async () => {
    expect((await vessels(user)).status).toBe(400);
    expect((await admin.put('/settings/activity_module/disabled')).body).toEqual({ activity_module: 'disabled' });
    expect((await user.get('/session')).body.modules).toEqual({
      activity_module: 'disabled',
      logistics_module: 'enabled',
      queue_module: 'enabled',
      map_module: 'enabled',
      codeless_registration_module: 'disabled',
      vis_module: 'enabled',
    });
    expect(await vessels(user)).toMatchObject({ status: 403, body: { error: 'Activity module is disabled' } });
    expect(await timestamps(admin)).toMatchObject({ status: 403, body: { error: 'Activity module is disabled' } });
    // Routes of no module carry on: settings, and the machine-to-machine export.
    expect((await user.get('/settings')).status).toBe(200);
    expect(await apiKey.get('/export/timestamps', { id: 'x' })).toMatchObject({ status: 400 });
    expect((await admin.put('/settings/activity_module/enabled')).body).toEqual({ activity_module: 'enabled' });
    expect((await user.get('/session')).body.modules.activity_module).toBe('enabled');
    expect((await vessels(user)).status).toBe(400);
  });
});

describe('bad input changes nothing', () => {
  const long = 'x'.repeat(2001);
  it.each([
    ['/settings/dark_mode/enabled', 'Invalid setting name: dark_mode'],
    ['/settings/activity_module/on', 'Invalid value: on for setting: activity_module'],
    ['/settings/activity_module/empty', 'Invalid value: empty for setting: activity_module'],
    ['/settings/codeless_registration_module/maybe', 'Invalid value: maybe for setting: codeless_registration_module'],
    [
      '/settings/queue_laytime_buffer_duration/30min',
      'Invalid value: 30min for setting: queue_laytime_buffer_duration',
    ],
    ['/settings/queue_laytime_buffer_duration/PT', 'Invalid value: PT for setting: queue_laytime_buffer_duration'],
    [
      '/settings/port_operator_emails/ops@port.se,not-an-address',
      'Invalid value: ops@port.se,not-an-address for setting: port_operator_emails',
    ],
    ['/settings/map_module/%20', 'Invalid value:  for setting: map_module'],
    [`/settings/port_operator_emails/${long}`, 'Parameter too long: value'],
    [`/settings/${'n'.repeat(101)}/enabled`, 'Parameter too long: name'],
  ])('PUT %s → 400', async (path, error) => {
    const before = await changeSnapshot(gw.db);
    const res = await admin.put(path, { unknown: true, nested: { a: 1 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(await changeSnapshot(gw.db)).toBe(before);
  });

  it.each([
    [{ name: 5 }, "Wrong parameter type: name should be string but got '5'"],
    [{ value: ['enabled'] }, 'Wrong parameter type: value should be string but got \'["enabled"]\''],
    [{ value: null }, "Wrong parameter type: value should be string but got 'null'"],
  ])('a body of the wrong type cannot override the path: %j', async (body, error) => {
    const before = await changeSnapshot(gw.db);
    expect(await admin.put('/settings/map_module/disabled', body)).toMatchObject({ status: 400, body: { error } });
    expect(await changeSnapshot(gw.db)).toBe(before);
  });

  it('a path that is not valid percent-encoding answers 400', async () => {
    const before = await changeSnapshot(gw.db);
    const res = await admin.put('/settings/%ZZ/enabled');
    expect(res.status).toBe(400);
    expect(res.body).toHaveProperty('error');
    expect(await changeSnapshot(gw.db)).toBe(before);
  });

  it('GET with bad names answers 400', async () => {
    expect(await user.get(`/settings/by-name/${'n'.repeat(101)}`)).toMatchObject({
      status: 400,
      body: { error: 'Parameter too long: name' },
    });
    expect(await gw.anonymous.get('/public-settings', { name: 'port_operator_emails' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid setting name: port_operator_emails' },
    });
  });
});
