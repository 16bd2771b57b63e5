// GET /health-check while a writer of our database holds the event log's readers back (docs/architecture.md#the-event-store):
// DEGRADED, naming the session, once it has held on past EVENT_LOG_HOLD_WARN_MS; OK again once it ends.

import { holdWritingTransaction } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway('gateway_health', {
    database: { statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0, holdWarnMs: 1_000, poolSize: 10 },
  });
});

afterAll(async () => {
  await gw?.stop();
});

describe('GET /health-check and a writer holding the event log back', () => {
  it('says DEGRADED with the writer past the threshold, and OK once it has ended', async () => {
    // PGlite has one connection: nothing else could hold a transaction open. CI always has the real server.
    if (!gw.databaseUrl) throw new Error('this test needs a real PostgreSQL');
    expect((await gw.anonymous.get('/health-check')).body).toMatchObject({
      status: 'OK',
      event_log: { held_back_by: [] },
    });

    const writer = await holdWritingTransaction(gw.databaseUrl, 'batch-import');
    const pid = writer.pid;
    try {
      await expect
        .poll(async () => (await gw.anonymous.get('/health-check')).body, { timeout: 15_000, interval: 250 })
        .toMatchObject({
          status: 'DEGRADED',
          event_log: { held_back_by: [{ pid, application_name: 'batch-import', age_seconds: expect.any(Number) }] },
        });
      // Still 200: this process serves; only what the event log feeds waits.
      expect((await gw.anonymous.get('/health-check')).status).toBe(200);
    } finally {
      await writer.end();
    }
    await expect
      .poll(async () => (await gw.anonymous.get('/health-check')).body, { timeout: 15_000, interval: 250 })
      .toMatchObject({ status: 'OK', event_log: { held_back_by: [] } });
  });
});
