// Shared scenario steps of the e2e tests: what an operator and a data source do first.

import { ApiClient, eventually, type RunningSystem, startEmbedded, startFleet } from '@pcas/testing';
import { expect } from 'vitest';

export const ADMIN = { email: 'admin@port.local', password: 'e2e-admin-password' };

/** `pnpm start` (embedded) with the tests' first administrator and `env`. */
export function startEmbeddedWithAdmin(env: Record<string, string> = {}): Promise<RunningSystem> {
  return startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env });
}

/** Both run modes, for `describe.each`; the fleet's first administrator is the same (libs/testing's startFleet). */
export const RUN_MODES: [string, () => Promise<RunningSystem>][] = [
  ['embedded', () => startEmbeddedWithAdmin()],
  ['fleet', () => startFleet()],
];

export const HOUR = 3_600_000;

/** UTC text as the API takes it, whole seconds. */
export const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

export function isoSecondsAgo(seconds: number): string {
  return `${new Date(Date.now() - seconds * 1000).toISOString().slice(0, 19)}+00:00`;
}

export function timestamp(overrides: Record<string, unknown> = {}) {
  return {
    imo: 9074729,
    vessel_name: 'Test Vessel',
    time_type: 'Estimated',
    state: 'Arrival_Vessel_PortArea',
    time: isoSecondsAgo(-3600),
    payload: { source: 'e2e', external_id: 'x-1' },
    ...overrides,
  };
}

/** A consignee of the just-in-time queue's tests: nominations name them. */
export const CONSIGNEE = {
  email: 'carla@cargo.example',
  first_name: 'Carla',
  last_name: 'Consignee',
  role: 'consignee',
};

/** The administrator adds a user; the API answers with the new user's id and first password. */
export async function addUser(
  admin: ApiClient,
  user: { email: string; first_name: string; last_name: string; role: string },
): Promise<{ id: number; password: string }> {
  const created = await admin.post('/users', user);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}

/** An STM text message (schema 1.3) from the service `from`, as a VIS agent passes it on. */
export const stmTextMessage = (id: string, from: string, body = 'We arrive at noon') =>
  '<?xml version="1.0" encoding="UTF-8"?><textMessage xmlns="http://stmvalidation.eu/schemas/textMessageSchema_1_3.xsd">' +
  `<textMessageId>${id}</textMessageId><author>Captain Ahab</author><from>${from}</from>` +
  `<createdAt>2026-11-27T08:00:00Z</createdAt><subject>Arrival</subject><body>${body}</body></textMessage>`;

/** Logs in as admin and creates an API key; returns both clients. */
export async function adminAndDataSource(baseUrl: string, admin = ADMIN) {
  const api = new ApiClient(baseUrl);
  const adminClient = await api.login(admin.email, admin.password);
  const created = await adminClient.post('/api-keys', { name: `source-${Date.now()}` });
  if (created.status !== 200) throw new Error(`create API key: ${created.status} ${JSON.stringify(created.body)}`);
  return { api, admin: adminClient, apiKey: created.body as { id: number; name: string; key: string } };
}

/** As an operator does before a source goes live: the key may post ETAs (a key without a weight is refused). */
export async function allowEstimatedArrivals(admin: ApiClient, apiKeyId: number): Promise<void> {
  const res = await admin.post('/timestamp-api-key-weights', {
    timestamp_time_type: 'Estimated',
    timestamp_state: 'Arrival_Vessel_PortArea',
    api_key_ids: [apiKeyId],
  });
  if (res.status !== 200) throw new Error(`set weights: ${res.status} ${JSON.stringify(res.body)}`);
}

/** As an operator does: the keys may post timestamps of this time type and state, with their weights in this order. */
export async function allowTimestamps(
  admin: ApiClient,
  apiKeyIds: number[],
  timeType: string,
  state: string,
): Promise<void> {
  const res = await admin.post('/timestamp-api-key-weights', {
    timestamp_time_type: timeType,
    timestamp_state: state,
    api_key_ids: apiKeyIds,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ result: 'OK' });
}

/** Polls GET /timestamps until the predicate holds; returns the page and how long it took. */
export async function waitForTimestamps(
  client: ApiClient,
  query: Record<string, unknown>,
  predicate: (rows: any[]) => boolean,
  timeoutMs = 30_000,
): Promise<{ rows: any[]; ms: number }> {
  const started = Date.now();
  let rows: any[] = [];
  while (Date.now() - started < timeoutMs) {
    const res = await client.get('/timestamps', query);
    if (res.status !== 200) throw new Error(`GET /timestamps: ${res.status} ${JSON.stringify(res.body)}`);
    rows = res.body.data ?? [];
    if (predicate(rows)) return { rows, ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timestamps did not appear within ${timeoutMs} ms: ${JSON.stringify(rows)}`);
}

/** A data source posts each timestamp in turn; each must be taken (200). */
export async function postTimestamps(source: ApiClient, ...bodies: Record<string, unknown>[]): Promise<void> {
  for (const body of bodies) {
    const res = await source.post('/agent/rest/timestamps', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Polls GET /ongoing-port-calls until `done` holds of how many there are; throws once `timeoutMs` pass. */
export function waitForOngoingPortCalls(
  admin: ApiClient,
  done: (count: number) => boolean,
  timeoutMs = 30_000,
): Promise<number> {
  return eventually(
    async () => ((await admin.get('/ongoing-port-calls')).body?.portcalls ?? []).length,
    done,
    'the ongoing port calls',
    timeoutMs,
  );
}
