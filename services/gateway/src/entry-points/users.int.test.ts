// Users, sign-up, passwords, suspension and lock, registration codes and password reset, over real HTTP against
// a gateway on real PostgreSQL (event store + read models), Redis sessions (the SQL store when no Redis can be
// had outside CI) and a real SMTP server in this process (mail).

import { randomBytes } from 'node:crypto';
import { type Config, loadConfig, RATE_LIMITS_OFF_ENV } from '@pcas/config';
import type { EventStore } from '@pcas/eventstore';
import type { Bus } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { ApiClient, type SmtpServerForTest, startSmtpServer, uniqueName } from '@pcas/testing';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../adapters/session-store.ts';
import { CODE_PATTERN } from '../domain/user-management.ts';
import { startGateway } from './service.ts';
import { gatewayGround, testSessions } from './testing/gateway-harness.ts';

const BEHAT_RULES =
  '{"user":{"password_min_length":"4","password_min_unique_chars":"1","suspend_failures":"3","suspend_minutes":"1","lock_failures":"7"}}';
/** A user's keys as GET /users/:id answers them, in order. */
const SINGLE_KEYS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'role_id',
  'registration_code_id',
  'created_at',
  'created_by',
  'modified_at',
  'modified_by',
  'status',
  'locked',
  'registration_type',
];
/** A user's keys in the GET /users list, in order: the single keys with who created it and the suspension. */
const LIST_KEYS = [
  ...SINGLE_KEYS.slice(0, SINGLE_KEYS.indexOf('status') + 1),
  'created_by_email',
  'locked',
  'suspended',
  'registration_type',
];
const LOCKED = { message: 'Too many failed login attempts. Account locked.' };
const SUSPENDED = { message: 'Too many failed login attempts. Account suspended for 1 minute(s).' };
const INVALID_ACCESS = { error: 'Invalid access' };

/** Every plain password and reset token this file uses; none may show up in the log, events or tables. */
const secrets: string[] = [];
const secret = (prefix = 'pw') => {
  const value = `${prefix}-${randomBytes(9).toString('hex')}`;
  secrets.push(value);
  return value;
};
const remember = (value: string) => {
  secrets.push(value);
  return value;
};

let ground: Awaited<ReturnType<typeof gatewayGround>>;
let db: Db;
let store: EventStore;
let bus: Bus;
let log: Logger;
let logLines: string[];
let closeSessions: () => Promise<void>;
let sessions: SessionStore;
let config: Config;
let smtp: SmtpServerForTest;
let gateway: { port: number; stop(): Promise<void> };
let anonymous: ApiClient;
let admin: ApiClient;
let adminId: number;
const ADMIN_EMAIL = 'admin@users-it.local';
const ADMIN_PASSWORD = secret('admin');
const redisPrefix = `${uniqueName('users-it')}:`;

beforeAll(async () => {
  ground = await gatewayGround('users_it');
  ({ db, store, bus, log, logLines } = ground);
  smtp = await startSmtpServer();
  config = loadConfig(
    {
      PASSWORD_RULES: BEHAT_RULES,
      BASE_URL: 'https://ui.port.example/',
      // The scenarios here sign in, sign up and ask for resets from one address faster than a person could; the
      // limits that would stop them are tested in rate-limits.int.test.ts.
      ...RATE_LIMITS_OFF_ENV,
    },
    {
      ...ground.settings(ADMIN_EMAIL, ADMIN_PASSWORD),
      smtpUrl: smtp.url,
      mailFrom: 'Port Activity <no-reply@port.example>',
    },
  );
  ({ sessions, close: closeSessions } = await testSessions(db, config.sessionTtlSeconds, redisPrefix));
  gateway = await startGateway({ config, db, store, bus, log, sessions });
  anonymous = new ApiClient(`http://127.0.0.1:${gateway.port}`);
  admin = await anonymous.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  adminId = (await admin.get('/session')).body.user.id;
});

afterAll(async () => {
  await gateway?.stop();
  await smtp?.close();
  await closeSessions?.();
  await ground?.close();
});

/** Creates a user as `by` and sets a known password through /change-password (as the Behat steps do). */
async function newUser(by: ApiClient, email: string, role: string, password?: string) {
  const created = await by.post('/users', { email, first_name: `First${email}`, last_name: `Last${email}`, role });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  remember(created.body.password);
  if (password) {
    const changed = await by.post('/change-password', { email, password });
    expect(changed, JSON.stringify(changed.body)).toMatchObject({ status: 200, body: true });
  }
  return created.body as { id: number; password: string };
}

const events = async (stream: string) => store.readStream(stream);
const userRow = async (id: number) => (await db.query<any>('SELECT * FROM gateway.users WHERE id = $1', [id])).rows[0];
const listUsers = (client: ApiClient, search = '') =>
  client.get('/users', { search, limit: 100, offset: 0, sort: 'id' });
const loginAs = (email: string, password: string) => anonymous.post('/login', { email, password });

describe('users: create, read, list, update', () => {
  let sa: ApiClient;
  let saId: number;
  let plain: { id: number; password: string };

  it('creates a user with a random 30-hex password, shown once and stored only as a hash', async () => {
    const res = await admin.post('/users', {
      email: 'Plain.User@Test.com',
      first_name: 'Plain',
      last_name: 'User',
      role: 'user',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id', 'password']);
    expect(res.body.password).toMatch(/^[0-9a-f]{30}$/);
    plain = res.body;
    remember(plain.password);
    expect((await loginAs('plain.user@test.com', plain.password)).status).toBe(200);
    const row = await userRow(plain.id);
    const hash = await db.query(`SELECT secret FROM gateway.credentials WHERE kind = 'password' AND id = $1`, [
      plain.id,
    ]);
    expect(hash.rows[0].secret).toMatch(/^\$scrypt\$/);
    expect(row).toMatchObject({ registration_type: 'manual', created_by: adminId, status: 'active' });
    const [created] = await events(`user-${plain.id}`);
    expect(created.type).toBe('UserCreated');
    expect(created.metadata).toMatchObject({ user_id: adminId, api_key_id: null });
  });

  it('defaults the role to inactive_user and refuses duplicate e-mails case-insensitively', async () => {
    const res = await admin.post('/users', { email: 'idle@test.com', first_name: 'I', last_name: 'Dle' });
    expect(res.status).toBe(200);
    remember(res.body.password);
    expect((await admin.get(`/users/${res.body.id}`)).body.role_id).toBe(5);
    const dup = await admin.post('/users', {
      email: 'PLAIN.user@test.COM',
      first_name: 'X',
      last_name: 'Y',
      role: 'user',
    });
    expect(dup).toMatchObject({ status: 400, body: { error: 'User with email PLAIN.user@test.COM already exists' } });
  });

  it('GET /users/:id answers the 13 keys', async () => {
    const res = await admin.get(`/users/${plain.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SINGLE_KEYS);
    expect(res.body).toMatchObject({
      id: plain.id,
      first_name: 'Plain',
      last_name: 'User',
      email: 'Plain.User@Test.com',
      role_id: 4,
      registration_code_id: null,
      created_by: adminId,
      status: 'active',
      locked: false,
      registration_type: 'manual',
    });
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00$/);
    expect(await admin.get('/users/999999')).toMatchObject({ status: 400, body: { error: 'No such user' } });
  });

  it('lists active users with the original row keys, search, sort and paging', async () => {
    const res = await admin.get('/users', { search: 'plain', limit: 10, offset: 0, sort: 'id' });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ start: 0, limit: 10, total: 1 });
    expect(Object.keys(res.body.data[0])).toEqual(LIST_KEYS);
    expect(res.body.data[0]).toMatchObject({ created_by_email: ADMIN_EMAIL, locked: false, suspended: false });

    const sorted = await admin.get('/users', {
      limit: 2,
      offset: 1,
      sort: 'lower(last_name),lower(first_name),lower(email),id',
    });
    expect(sorted.status).toBe(200);
    expect(sorted.body.pagination).toMatchObject({ start: 1, limit: 2 });
    expect(await admin.get('/users', { limit: 1, offset: 0, sort: 'password_hash' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid orderBy: password_hash' },
    });
    expect(await admin.get('/users', { offset: 0, sort: 'id' })).toMatchObject({
      status: 400,
      body: { error: 'Missing parameter: limit' },
    });
    // API-key users are never listed.
    expect((await admin.post('/api-keys', { name: 'hidden' })).status).toBe(200);
    const all = await listUsers(admin);
    expect(all.body.data.every((u: any) => u.status === 'active' && !u.email.endsWith('@api.key'))).toBe(true);
  });

  it('a second admin sees and manages only the users it created', async () => {
    const saPassword = secret();
    saId = (await newUser(admin, 'sa@test.com', 'second_admin', saPassword)).id;
    sa = await anonymous.login('sa@test.com', saPassword);
    const own = await newUser(sa, 'own-of-sa@test.com', 'user');
    const page = await listUsers(sa);
    expect(page.body.data.map((u: any) => u.email)).toEqual(['own-of-sa@test.com']);
    expect(page.body.data[0].created_by).toBe(saId);
    expect((await sa.get(`/users/${own.id}`)).status).toBe(200);
    // Someone else's user is out of reach: not even its existence shows.
    expect(await sa.get(`/users/${plain.id}`)).toMatchObject({ status: 400, body: { error: 'No such user' } });
    expect(await sa.put(`/users/${plain.id}`, { email: 'x@test.com', first_name: 'X', last_name: 'Y' })).toMatchObject({
      status: 403,
      body: { error: 'No permission to update given user' },
    });
    expect(await sa.post('/users', { email: 'a2@test.com', first_name: 'A', last_name: 'B', role: 'admin' })).toEqual(
      expect.objectContaining({ status: 403, body: { error: 'No permission to add user with given role' } }),
    );
    // A user without any manage_user_<role> does not reach the routes at all.
    const plainClient = await anonymous.login('plain.user@test.com', plain.password);
    expect(await listUsers(plainClient)).toMatchObject({ status: 403, body: INVALID_ACCESS });
  });

  it('updates fields; the role only with updateRole, and only to a role the caller manages', async () => {
    const ownId = (await listUsers(sa)).body.data[0].id;
    const fetched = (await sa.get(`/users/${ownId}`)).body;
    // The UI sends the whole fetched object back plus role and updateRole; unknown keys are ignored.
    const res = await sa.put(`/users/${ownId}`, {
      ...fetched,
      first_name: 'Renamed',
      role: 'first_user',
      updateRole: true,
      status: 'deleted',
      role_id: 1,
      password: 'ignored-password',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SINGLE_KEYS);
    expect(res.body).toMatchObject({ first_name: 'Renamed', role_id: 3, status: 'active', modified_by: saId });
    const withoutFlag = await sa.put(`/users/${ownId}`, { ...fetched, first_name: 'Again', role: 'user' });
    expect(withoutFlag.body).toMatchObject({ first_name: 'Again', role_id: 3 });
    expect(await sa.put(`/users/${ownId}`, { ...fetched, role: 'admin', updateRole: true })).toMatchObject({
      status: 403,
    });
    expect(await sa.put(`/users/${ownId}`, { ...fetched, email: 'PLAIN.USER@test.com' })).toMatchObject({
      status: 400,
      body: { error: 'User with email PLAIN.USER@test.com already exists' },
    });
    const updates = (await events(`user-${ownId}`)).filter((e) => e.type === 'UserUpdated');
    expect(updates.map((e) => (e.data as any).role)).toEqual(['first_user', 'first_user']);
    expect(updates[0].metadata).toMatchObject({ user_id: saId });
  });

  it('keeps the last admin: role and account', async () => {
    expect(
      await admin.put(`/users/${adminId}`, {
        email: ADMIN_EMAIL,
        first_name: 'Admin',
        last_name: 'User',
        role: 'user',
        updateRole: true,
      }),
    ).toMatchObject({ status: 400, body: { error: 'Last admin role cannot be changed from API' } });
    expect(await admin.delete(`/users/${adminId}`)).toMatchObject({
      status: 400,
      body: { error: "You can't delete yourself" },
    });
  });

  it('changes passwords with the rules of the target role', async () => {
    expect(await admin.post('/change-password', { email: 'plain.user@test.com', password: '111' })).toMatchObject({
      status: 403,
      body: { error: 'Password must be at least 4 characters in length' },
    });
    const pw = secret();
    expect(await admin.post('/change-password', { email: 'PLAIN.USER@test.com', password: pw })).toMatchObject({
      status: 200,
      body: true,
    });
    expect((await loginAs('plain.user@test.com', pw)).status).toBe(200);
    expect(await admin.post('/change-password', { email: 'nobody@test.com', password: pw })).toMatchObject({
      status: 400,
      body: { error: "Can't find user with email: nobody@test.com" },
    });
    expect(await sa.post('/change-password', { email: 'plain.user@test.com', password: secret() })).toMatchObject({
      status: 403,
      body: { error: 'No permission to change password of given user' },
    });
    // An admin changes no other admin's password (but its own).
    await newUser(admin, 'admin2@test.com', 'admin');
    expect(await admin.post('/change-password', { email: 'admin2@test.com', password: secret() })).toMatchObject({
      status: 400,
      body: { error: "Admin can't change other admin password" },
    });
    const changed = (await events(`user-${plain.id}`)).filter((e) => e.type === 'UserPasswordChanged');
    expect(changed.at(-1)!.data).toEqual({ id: plain.id, reason: 'change' });
  });
});

describe('login: failed logins, suspension and lock (feature account_suspend_and_lock)', () => {
  const email = 'user1@locktest.com';
  let id: number;
  /** What a login from this file's one address (127.0.0.1) is judged by: the account's counters and that client's. */
  const counters = async () => {
    const row = await userRow(id);
    const { rows } = await db.query<any>(
      `SELECT * FROM gateway.login_failures WHERE user_id = $1 AND client = '127.0.0.1'`,
      [id],
    );
    const client = rows[0] ?? { failed_logins: 0, suspend_start: null, locked: false };
    return {
      failed: row.failed_logins + client.failed_logins,
      suspended: row.suspend_start !== null || client.suspend_start !== null,
      locked: row.locked || client.locked,
    };
  };

  it('follows the original scenario (an admin unsuspend stands in for waiting the minute out)', async () => {
    id = (await newUser(admin, email, 'user', '1111')).id;
    const login = (password: string) => loginAs(email, password);
    const ok = async (password: string) => expect((await login(password)).body.session_id).toBeTruthy();
    const says = async (password: string, answer: unknown) => {
      const res = await login(password);
      expect(res.body).toEqual(answer);
      expect(res.status).toBe('error' in (answer as object) ? 403 : 200);
    };

    expect(await admin.post('/user-lock', { id, locked: true })).toMatchObject({ status: 200, body: id });
    await says('1111', LOCKED);
    expect((await admin.post('/user-lock', { id, locked: false })).body).toBe(id);
    await ok('1111');
    expect((await admin.post('/user-suspend', { id, suspended: true })).body).toBe(id);
    await says('1111', SUSPENDED);
    expect((await admin.post('/user-suspend', { id, suspended: false })).body).toBe(id);
    await ok('1111');

    await says('2222', INVALID_ACCESS);
    await says('2222', INVALID_ACCESS);
    await ok('1111');
    expect(await counters()).toEqual({ failed: 0, suspended: false, locked: false });

    await says('2222', INVALID_ACCESS);
    await says('2222', INVALID_ACCESS);
    await says('2222', SUSPENDED);
    await says('1111', SUSPENDED);
    expect(await counters()).toEqual({ failed: 3, suspended: true, locked: false });
    const list = (await listUsers(admin, email)).body.data[0];
    expect(list).toMatchObject({ suspended: true, locked: false });

    // The suspension ends (here: by an admin); the counter carries on from 3.
    await admin.post('/user-suspend', { id, suspended: false });
    await says('2222', INVALID_ACCESS);
    await says('2222', INVALID_ACCESS);
    await says('2222', SUSPENDED);
    await says('1111', SUSPENDED);
    await admin.post('/user-suspend', { id, suspended: false });
    expect(await counters()).toEqual({ failed: 6, suspended: false, locked: false });
    await says('2222', LOCKED);
    await says('1111', LOCKED);
    expect(await counters()).toEqual({ failed: 7, suspended: false, locked: true });
    expect((await listUsers(admin, email)).body.data[0]).toMatchObject({ locked: true, suspended: false });

    const failures = (await events(`user-${id}`)).filter((e) => e.type === 'UserLoginFailed');
    expect(failures).toHaveLength(9);
    expect(failures.at(-1)!.data).toEqual({
      id,
      failed_logins: 7,
      suspend_start: null,
      locked: true,
      client: '127.0.0.1',
    });
    expect(failures.at(-1)!.metadata).toMatchObject({ user_id: null });
  });

  it('counts concurrent wrong passwords exactly once each, up to the suspension', async () => {
    await admin.post('/user-lock', { id, locked: false });
    const before = (await events(`user-${id}`)).filter((e) => e.type === 'UserLoginFailed').length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => loginAs(email, 'wrong')));
    // Failures 1 and 2 are refused, the third suspends; the others meet the suspension and are not counted.
    expect(await counters()).toEqual({ failed: 3, suspended: true, locked: false });
    const after = (await events(`user-${id}`)).filter((e) => e.type === 'UserLoginFailed').length;
    expect(after - before).toBe(3);
    expect(answers.filter((a) => a.status === 403)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 200 && a.body.message === SUSPENDED.message)).toHaveLength(4);
  });

  it('refuses bad suspend and lock requests', async () => {
    expect(await admin.post('/user-suspend', { id, suspended: 'yes' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid suspended parameter' },
    });
    expect(await admin.post('/user-lock', { id, locked: 1 })).toMatchObject({
      status: 400,
      body: { error: 'Invalid locked parameter' },
    });
    expect(await admin.post('/user-lock', { id: 999_999, locked: true })).toMatchObject({
      status: 400,
      body: { error: 'Invalid ID' },
    });
    const sa = await anonymous.login('sa@test.com', await saPassword());
    expect(await sa.post('/user-lock', { id, locked: true })).toMatchObject({
      status: 403,
      body: { error: 'No permission to set lock state of given user' },
    });
    expect(await sa.post('/user-suspend', { id, suspended: true })).toMatchObject({
      status: 403,
      body: { error: 'No permission to set suspend state of given user' },
    });
  });
});

/** Gives sa@test.com a fresh known password (the admin may: sa is no admin). */
async function saPassword(): Promise<string> {
  const pw = secret();
  expect((await admin.post('/change-password', { email: 'sa@test.com', password: pw })).status).toBe(200);
  return pw;
}

describe('registration codes', () => {
  let sa: ApiClient;
  let saId: number;
  let saCode: { id: number; code: string };
  let adminCode: { id: number; code: string };

  const codes = (client: ApiClient, search = '') =>
    client.get('/registration-codes', { search, limit: 100, offset: 0, sort: 'id' });

  it('creates codes AAAAAA-NNNNNN and lists them with role name and creator', async () => {
    sa = await anonymous.login('sa@test.com', await saPassword());
    saId = (await sa.get('/session')).body.user.id;
    const created = await sa.post('/registration-codes', { role: 'first_user', description: 'Code of SA' });
    expect(created.status).toBe(200);
    expect(typeof created.body).toBe('number');
    const page = await codes(sa, 'of sa');
    expect(page.body.pagination).toEqual({ start: 0, limit: 100, total: 1 });
    const row = page.body.data[0];
    expect(Object.keys(row).sort()).toEqual(
      [
        'id',
        'code',
        'enabled',
        'role',
        'description',
        'created_at',
        'created_by',
        'modified_at',
        'modified_by',
        'readable_name',
        'email',
      ].sort(),
    );
    expect(row).toMatchObject({
      id: created.body,
      enabled: true,
      role: 'first_user',
      readable_name: 'First user',
      description: 'Code of SA',
      email: 'sa@test.com',
      created_by: saId,
    });
    expect(row.code).toMatch(CODE_PATTERN);
    saCode = { id: row.id, code: row.code };
    const adminCreated = await admin.post('/registration-codes', { role: 'user', description: 'Code of admin' });
    adminCode = { id: adminCreated.body, code: (await codes(admin, 'of admin')).body.data[0].code };
    // The route is declared with /:limit; both forms answer.
    const withSegment = await admin.get('/registration-codes/100', { offset: 0, sort: 'created_at DESC', search: '' });
    expect(withSegment.body.data.map((r: any) => r.id)).toEqual([adminCode.id, saCode.id]);
    const [event] = await events(`regcode-${saCode.id}`);
    expect(event).toMatchObject({ type: 'RegistrationCodeCreated', metadata: { user_id: saId } });
  });

  it('shows level own only its codes and refuses changes to others', async () => {
    expect((await codes(sa)).body.data.map((r: any) => r.id)).toEqual([saCode.id]);
    expect((await codes(admin)).body.data.map((r: any) => r.id)).toEqual([saCode.id, adminCode.id]);
    expect(await sa.put(`/registration-codes/${adminCode.id}`, { enabled: 0, role: 'user' })).toMatchObject({
      status: 400,
      body: { error: 'No permission to update given registration code' },
    });
    expect(await sa.delete(`/registration-codes/${adminCode.id}`)).toMatchObject({ status: 400 });
    expect(await sa.post('/registration-codes', { role: 'admin', description: 'x' })).toMatchObject({
      status: 403,
      body: { error: 'No permission to create code with given role' },
    });
    expect(await sa.put(`/registration-codes/${saCode.id}`, { enabled: 1, role: 'admin' })).toMatchObject({
      status: 403,
    });
  });

  it('enables, disables and re-roles; an unchanged PUT appends nothing', async () => {
    expect(await sa.put(`/registration-codes/${saCode.id}`, { enabled: 0, role: 'first_user' })).toMatchObject({
      status: 200,
      body: saCode.id,
    });
    expect((await codes(sa)).body.data[0].enabled).toBe(false);
    await sa.put(`/registration-codes/${saCode.id}`, { enabled: '0', role: 'first_user' });
    await sa.put(`/registration-codes/${saCode.id}`, { enabled: 1, role: 'first_user' });
    expect((await events(`regcode-${saCode.id}`)).map((e) => e.type)).toEqual([
      'RegistrationCodeCreated',
      'RegistrationCodeUpdated',
      'RegistrationCodeUpdated',
    ]);
  });

  it('registers with a code: the code decides role and creator, and the new user is logged in', async () => {
    const pw = secret();
    const res = await anonymous.post('/register', {
      first_name: 'Reg',
      last_name: 'Istered',
      code: saCode.code.toLowerCase(),
      email: 'registered@test.com',
      password: pw,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.session_id).toMatch(/^[A-Za-z0-9_-]{26,}$/);
    expect(res.body.user).toMatchObject({ email: 'registered@test.com', role: 'first_user' });
    const me = anonymous.withSession(res.body.session_id);
    expect((await me.get('/session')).status).toBe(200);
    const row = (await listUsers(sa, 'registered@')).body.data[0];
    expect(row).toMatchObject({
      role_id: 3,
      registration_code_id: saCode.id,
      registration_type: 'code',
      created_by: saId,
      created_by_email: 'sa@test.com',
    });
    const [created] = await events(`user-${row.id}`);
    expect(created.metadata).toMatchObject({ user_id: row.id });
  });

  it('refuses bad registrations with the original messages', async () => {
    const base = { first_name: 'A', last_name: 'B', email: 'new-reg@test.com', password: '123456789012' };
    expect(await anonymous.post('/register', { ...base, code: 'AAAAAA-100000' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid code' },
    });
    expect(await anonymous.post('/register', { ...base, code: '' })).toMatchObject({ body: { error: 'Invalid code' } });
    expect(await anonymous.post('/register', { ...base, code: saCode.code, password: '1234' })).toMatchObject({
      status: 403,
      body: { error: 'Password must be at least 12 characters in length' },
    });
    expect(await anonymous.post('/register', { ...base, code: saCode.code, password: '111111222222' })).toMatchObject({
      status: 403,
      body: { error: 'Weak password. Not enough unique characters in password.' },
    });
    expect(
      await anonymous.post('/register', { ...base, code: saCode.code, email: 'REGISTERED@test.com' }),
    ).toMatchObject({ status: 400, body: { error: 'User with email REGISTERED@test.com already exists' } });
    expect(await anonymous.post('/register', { ...base, code: saCode.code, first_name: '' })).toMatchObject({
      status: 400,
      body: { error: "First name can't be empty" },
    });
    await sa.put(`/registration-codes/${saCode.id}`, { enabled: 0, role: 'first_user' });
    expect(await anonymous.post('/register', { ...base, code: saCode.code })).toMatchObject({
      status: 400,
      body: { error: 'Invalid code' },
    });
    await sa.put(`/registration-codes/${saCode.id}`, { enabled: 1, role: 'first_user' });
  });

  it('registers without a code only while the setting is enabled; its last modifier is the creator', async () => {
    const base = { first_name: 'C', last_name: 'L', email: 'codeless@test.com' };
    expect(await anonymous.post('/codeless-register', { ...base, password: '1' })).toMatchObject({
      status: 400,
      body: { error: 'Codeless registration not permitted' },
    });
    expect((await sa.put('/settings/codeless_registration_module/enabled')).status).toBe(200);
    expect(await anonymous.post('/codeless-register', { ...base, password: '123' })).toMatchObject({
      status: 403,
      body: { error: 'Password must be at least 4 characters in length' },
    });
    const res = await anonymous.post('/codeless-register', { ...base, password: remember('2345') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.role).toBe('user');
    expect(res.body.modules.codeless_registration_module).toBe('enabled');
    expect((await listUsers(sa, 'codeless@')).body.data[0]).toMatchObject({
      role_id: 4,
      registration_code_id: null,
      registration_type: 'codeless',
      created_by: saId,
    });
    await sa.put('/settings/codeless_registration_module/disabled');
  });

  it('deletes a code: {} and gone; users registered with it keep its id', async () => {
    expect(await sa.delete(`/registration-codes/${saCode.id}`)).toMatchObject({ status: 200, body: {} });
    expect((await codes(sa)).body.data).toEqual([]);
    expect(await sa.delete(`/registration-codes/${saCode.id}`)).toMatchObject({
      status: 400,
      body: { error: 'No such registration code' },
    });
    expect((await listUsers(sa, 'registered@')).body.data[0].registration_code_id).toBe(saCode.id);
    expect((await events(`regcode-${saCode.id}`)).at(-1)!.type).toBe('RegistrationCodeDeleted');
  });
});

describe('password reset by e-mail', () => {
  const email = 'reset.me@test.com';
  let id: number;

  /** The token of the reset link in the newest mail. */
  const tokenOfMail = (index: number) => {
    const link = /https:\/\/ui\.port\.example\/reset-password\?\S+/.exec(smtp.messages[index].text)![0];
    const url = new URL(link);
    return { url, token: remember(url.searchParams.get('token')!) };
  };

  it('mails a link with a 24 h token to active users whose username is an e-mail address', async () => {
    id = (await newUser(admin, email, 'user', '1111')).id;
    await newUser(admin, 'not-an-address', 'user');
    const sent = smtp.messages.length;
    for (const target of ['RESET.me@test.com', 'not-an-address', 'nobody@test.com']) {
      const res = await anonymous.post('/request-password-reset', { email: target, port: 'gavle' });
      expect(res).toMatchObject({ status: 200, body: { message: 'Password reset requested' } });
    }
    const [mail] = (await smtp.waitForMessages(sent + 1, 30_000)).slice(sent);
    // Give a wrongly sent second mail the time to arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(sent + 1);
    expect(mail).toMatchObject({
      to: [email],
      from: 'no-reply@port.example',
      subject: 'Port Activity App - reset password',
    });
    const { url, token } = tokenOfMail(sent);
    expect(url.searchParams.get('username')).toBe(email);
    expect(url.searchParams.get('port')).toBe('gavle');
    const claims = jwt.decode(token) as any;
    expect(claims.exp - claims.iat).toBe(86_400);
    expect(claims.data).toMatchObject({ email, port: 'gavle' });
    expect(mail.text).toMatch(/expires at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00/);
  });

  it('resets with the token: rules of the role, counters cleared, 13 keys; the token then is spent', async () => {
    const sent = smtp.messages.length;
    await anonymous.post('/request-password-reset', { email, port: 'gavle' });
    await smtp.waitForMessages(sent + 1, 30_000);
    const { token } = tokenOfMail(sent);
    // Locked first: a reset unlocks.
    await admin.post('/user-lock', { id, locked: true });
    expect(await anonymous.post('/reset-password', { token, password: '333' })).toMatchObject({
      status: 403,
      body: { error: 'Password must be at least 4 characters in length' },
    });
    const res = await anonymous.post('/reset-password', { token, password: remember('3333') });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(SINGLE_KEYS);
    expect(res.body).toMatchObject({ id, email, locked: false });
    expect((await loginAs(email, '3333')).status).toBe(200);
    expect(await anonymous.post('/reset-password', { token, password: secret() })).toEqual(
      expect.objectContaining({ status: 200, body: { message: 'Invalid token, you must request new one.' } }),
    );
    const reset = (await events(`user-${id}`)).filter((e) => e.type === 'UserPasswordChanged').at(-1)!;
    expect(reset).toMatchObject({ data: { id, reason: 'reset' }, metadata: { user_id: id } });
  });

  it('refuses tokens that are not reset tokens of ours', async () => {
    const invalid = { status: 200, body: { message: 'Invalid token, you must request new one.' } };
    expect(await anonymous.post('/reset-password', { token: 'garbage', password: secret() })).toMatchObject(invalid);
    // The session JWT of the login payload is signed with the same key, but is no reset token.
    const session = await anonymous.post('/login', { email, password: '3333' });
    expect(await anonymous.post('/reset-password', { token: session.body.jwt, password: secret() })).toMatchObject(
      invalid,
    );
    expect(await anonymous.post('/reset-password', { token: '', password: 'x' })).toMatchObject({ status: 400 });
  });
});

describe('deleting a user', () => {
  it('anonymises every read model and answer, ends their sessions, and keeps who-did-what in the log', async () => {
    const pw = secret();
    const { id } = await newUser(admin, 'Doomed.Person@test.com', 'second_admin', pw);
    const doomed = await anonymous.login('doomed.person@test.com', pw);
    const codeId = (await doomed.post('/registration-codes', { role: 'user', description: 'left behind' })).body;
    expect(await doomed.get('/session')).toMatchObject({ status: 200 });

    expect(await admin.delete(`/users/${id}`)).toMatchObject({ status: 200, body: true });
    expect(await doomed.get('/session')).toMatchObject({ status: 440, body: { error: 'Session expired' } });
    expect(await admin.get(`/users/${id}`)).toMatchObject({ status: 400, body: { error: 'No such user' } });
    expect(await admin.delete(`/users/${id}`)).toMatchObject({ status: 400, body: { error: 'No such user' } });
    expect((await listUsers(admin, 'doomed')).body.data).toEqual([]);
    expect((await loginAs('doomed.person@test.com', pw)).status).toBe(403);

    const row = await userRow(id);
    expect(row).toMatchObject({
      email: `${id}@deleted`,
      first_name: '',
      last_name: '',
      role_id: 5,
      status: 'deleted',
      last_login_data: null,
    });
    const hash = await db.query(`SELECT 1 FROM gateway.credentials WHERE kind = 'password' AND id = $1`, [id]);
    expect(hash.rowCount).toBe(0);
    // The code the user created still shows its (anonymised) creator.
    const code = (await admin.get('/registration-codes', { search: 'left behind', limit: 10, offset: 0, sort: 'id' }))
      .body.data[0];
    expect(code).toMatchObject({ id: codeId, created_by: id, email: `${id}@deleted` });

    // Nothing in the gateway's tables still holds the person's name or address.
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'gateway' AND table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables.rows) {
      const dump = await db.query<{ t: string }>(
        `SELECT coalesce(string_agg(t::text, '|'), '') AS t FROM gateway.${table_name} t`,
      );
      expect(dump.rows[0].t.toLowerCase(), table_name).not.toContain('doomed');
    }
    // The log keeps the id: who created the code, and the deletion by the admin.
    expect((await events(`regcode-${codeId}`))[0].metadata).toMatchObject({ user_id: id });
    const deleted = (await events(`user-${id}`)).at(-1)!;
    expect(deleted).toMatchObject({ type: 'UserDeleted', data: { id }, metadata: { user_id: adminId } });
  });
});

describe('malformed input changes nothing', () => {
  /** The event log and every gateway table (sessions aside), as text. */
  async function snapshot(): Promise<string> {
    const parts = await Promise.all([
      db.query('SELECT count(*)::int AS n, max(global_position)::text AS last FROM eventstore.events'),
      db.query('SELECT * FROM gateway.users ORDER BY id'),
      db.query('SELECT * FROM gateway.registration_codes ORDER BY id'),
      db.query('SELECT * FROM gateway.settings ORDER BY id'),
      db.query('SELECT * FROM gateway.api_keys ORDER BY id'),
      db.query('SELECT * FROM gateway.credentials ORDER BY kind, id'),
    ]);
    return JSON.stringify(parts.map((p) => p.rows));
  }

  it('answers 400/403 {"error"} to wrong types, missing fields, overlong strings and unknown fields', async () => {
    const target = (await listUsers(admin, 'plain.user')).body.data[0].id;
    const code = (await admin.get('/registration-codes', { limit: 1, offset: 0, sort: 'id' })).body.data[0].id;
    const long = 'x'.repeat(5000);
    const user = { email: 'valid@test.com', first_name: 'V', last_name: 'W', role: 'user' };
    const cases: [string, string, unknown, ApiClient?][] = [
      // users
      ['GET', '/users', { limit: 'ten', offset: 0, sort: 'id' }],
      ['GET', '/users', { limit: -1, offset: 0, sort: 'id' }],
      ['GET', '/users', { limit: 10, sort: 'id' }],
      ['GET', '/users', { limit: 10, offset: 0, sort: 'id; DROP TABLE gateway.users' }],
      ['GET', '/users', { limit: 10, offset: 0, sort: long }],
      ['GET', '/users', { limit: 10, offset: 0, sort: 'id', search: long }],
      ['GET', '/users', { unknown: 1 }],
      ['POST', '/users', {}],
      ['POST', '/users', { unknown: 'field', is_admin: true }],
      ['POST', '/users', { ...user, email: 5 }],
      ['POST', '/users', { ...user, first_name: null }],
      ['POST', '/users', { ...user, last_name: ['x'] }],
      ['POST', '/users', { ...user, role: { name: 'admin' } }],
      ['POST', '/users', { ...user, role: 'root' }],
      ['POST', '/users', { ...user, email: long }],
      ['POST', '/users', { ...user, first_name: long }],
      ['POST', '/users', { ...user, email: '' }],
      ['POST', '/users', { ...user, email: '7@deleted' }],
      ['POST', '/users', [user]],
      ['POST', '/users', 'email=valid@test.com'],
      ['POST', '/users', user, anonymous],
      ['GET', '/users/abc', undefined],
      ['GET', '/users/-1', undefined],
      ['GET', '/users/99999999999', undefined],
      ['PUT', `/users/${target}`, {}],
      ['PUT', `/users/${target}`, { ...user, email: 1 }],
      ['PUT', `/users/${target}`, { ...user, updateRole: 'maybe' }],
      ['PUT', `/users/${target}`, { ...user, role: 'root', updateRole: true }],
      ['PUT', `/users/${target}`, { ...user, last_name: long }],
      ['PUT', `/users/${target}`, { ...user, first_name: '' }],
      ['PUT', '/users/abc', user],
      ['PUT', '/users/99999999999', user],
      ['PUT', `/users/${target}`, user, anonymous],
      ['DELETE', '/users/abc', {}],
      ['DELETE', '/users/0', {}],
      ['DELETE', `/users/${target}`, [], anonymous],
      ['POST', '/user-suspend', {}],
      ['POST', '/user-suspend', { id: 'x', suspended: true }],
      ['POST', '/user-suspend', { id: target, suspended: 'true' }],
      ['POST', '/user-suspend', { id: target, suspended: null }],
      ['POST', '/user-suspend', { id: target }],
      ['POST', '/user-suspend', { id: target, suspended: true }, anonymous],
      ['POST', '/user-lock', { id: target, locked: 'yes' }],
      ['POST', '/user-lock', { id: 1.5, locked: true }],
      ['POST', '/user-lock', { id: 2_147_483_648, locked: true }],
      ['POST', '/change-password', {}],
      ['POST', '/change-password', { email: 5, password: 'x' }],
      ['POST', '/change-password', { email: 'plain.user@test.com', password: long }],
      ['POST', '/change-password', { email: 'plain.user@test.com', password: 12345678 }],
      ['POST', '/change-password', { email: 'plain.user@test.com', password: 'plain.user@test.com' }],
      ['POST', '/change-password', { email: 'plain.user@test.com', password: 'okpassword' }, anonymous],
      // sign-up
      ['POST', '/register', {}],
      ['POST', '/register', { first_name: 'A', last_name: 'B', email: 'r@test.com', password: 'p', code: 5 }],
      ['POST', '/register', { first_name: 'A', last_name: 'B', email: 'r@test.com', password: long, code: 'X' }],
      [
        'POST',
        '/register',
        { first_name: 'A', last_name: 'B', email: 'r@test.com', password: 'pppppppp1234', code: long },
      ],
      [
        'POST',
        '/register',
        { first_name: 'A', last_name: 'B', email: 'r@test.com', password: 'pppppppp1234', code: 'NOPE' },
      ],
      ['POST', '/codeless-register', {}],
      ['POST', '/codeless-register', { first_name: 'A', last_name: 'B', email: ['r@test.com'], password: 'p' }],
      ['POST', '/codeless-register', { first_name: 'A', last_name: 'B', email: 'r@test.com', password: '12345' }],
      // registration codes
      ['GET', '/registration-codes', { offset: 0, sort: 'id' }],
      ['GET', '/registration-codes', { limit: 10, offset: 0, sort: 'code; --' }],
      ['GET', '/registration-codes/abc', { offset: 0, sort: 'id' }],
      ['GET', '/registration-codes', { limit: 10, offset: 0, sort: 'id' }, anonymous],
      ['POST', '/registration-codes', {}],
      ['POST', '/registration-codes', { role: 5, description: 'x' }],
      ['POST', '/registration-codes', { role: 'user', description: { a: 1 } }],
      ['POST', '/registration-codes', { role: 'user', description: long }],
      ['POST', '/registration-codes', { role: 'root', description: 'x' }],
      ['POST', '/registration-codes', { role: 'user', description: 'x' }, anonymous],
      ['PUT', `/registration-codes/${code}`, { enabled: 2, role: 'user' }],
      ['PUT', `/registration-codes/${code}`, { enabled: 'yes', role: 'user' }],
      ['PUT', `/registration-codes/${code}`, { enabled: 1 }],
      ['PUT', `/registration-codes/${code}`, { enabled: 1, role: 'root' }],
      ['PUT', '/registration-codes/abc', { enabled: 1, role: 'user' }],
      ['PUT', '/registration-codes/99999999999', { enabled: 1, role: 'user' }],
      ['DELETE', '/registration-codes/abc', {}],
      ['DELETE', '/registration-codes/0', {}],
      ['DELETE', `/registration-codes/${code}`, {}, anonymous],
      // password reset
      ['POST', '/request-password-reset', {}],
      ['POST', '/request-password-reset', { email: 5, port: 'gavle' }],
      ['POST', '/request-password-reset', { email: '', port: 'gavle' }],
      ['POST', '/request-password-reset', { email: 'plain.user@test.com', port: '' }],
      ['POST', '/request-password-reset', { email: long, port: 'gavle' }],
      ['POST', '/reset-password', {}],
      ['POST', '/reset-password', { token: 5, password: 'x' }],
      ['POST', '/reset-password', { token: long, password: 'x' }],
      ['POST', '/reset-password', { token: 'x', password: '' }],
      // login
      ['POST', '/login', {}],
      ['POST', '/login', { email: ADMIN_EMAIL, password: 5 }],
      ['POST', '/login', { email: ADMIN_EMAIL, password: long }],
    ];
    const sentMails = smtp.messages.length;
    const before = await snapshot();
    for (const [method, urlPath, params, client = admin] of cases) {
      const res = await client.call(method, urlPath, params as Record<string, unknown> | undefined);
      const label = `${method} ${urlPath} ${JSON.stringify(params)?.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body)}`;
      expect([400, 403], label).toContain(res.status);
      expect(Object.keys(res.body ?? {}), label).toEqual(['error']);
      expect(typeof res.body.error, label).toBe('string');
    }
    // A body that is no JSON at all.
    const raw = await fetch(`${anonymous.baseUrl}/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: (admin as any).authorization },
      body: '{"email":',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: 'Invalid JSON body' });
    expect(await snapshot()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages).toHaveLength(sentMails);
  });
});

describe('secrets', () => {
  it('no plain password or reset token is in the log, the events or the gateway tables', async () => {
    expect(secrets.length).toBeGreaterThan(20);
    const eventText = await db.query<{ t: string }>(
      `SELECT coalesce(string_agg(data::text || metadata::text, '|'), '') AS t FROM eventstore.events`,
    );
    const tables = await db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'gateway' AND table_type = 'BASE TABLE'`,
    );
    const dumps = await Promise.all(
      tables.rows.map(async ({ table_name }) => {
        const dump = await db.query<{ t: string }>(
          `SELECT coalesce(string_agg(t::text, '|'), '') AS t FROM gateway.${table_name} t`,
        );
        return dump.rows[0].t;
      }),
    );
    const logText = logLines.join('');
    expect(logText).toContain('"path":"/reset-password"');
    expect(logText).toContain('password reset mail sent');
    for (const value of secrets) {
      // Very short ones ('1111') would match hashes and ids by chance; they are covered by the longer ones.
      if (value.length < 8) continue;
      expect(eventText.rows[0].t.includes(value), `event log holds ${value.slice(0, 12)}…`).toBe(false);
      expect(logText.includes(value), `log holds ${value.slice(0, 12)}…`).toBe(false);
      for (const [index, dump] of dumps.entries()) {
        expect(dump.includes(value), `gateway.${tables.rows[index].table_name} holds ${value.slice(0, 12)}…`).toBe(
          false,
        );
      }
    }
    // The tokens were long and did reach the mails: the check above is not vacuous.
    const tokens = secrets.filter((s) => s.split('.').length === 3 && s.length > 100);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(smtp.messages.some((m) => m.text.includes(tokens[0]))).toBe(true);
  });
});
