// Shared scenario steps of the e2e tests: what an operator and a data source do first.

import { ApiClient } from '@pcas/testing';

export const ADMIN = { email: 'admin@port.local', password: 'e2e-admin-password' };

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
