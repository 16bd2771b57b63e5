// One request is followed through the fleet: gateway → RPC → ingest (append) → relay → projections. The fleet's
// processes export their spans with the standard OTEL_* variables to a collector this test runs (OTLP/HTTP
// JSON); the request carries a known traceparent, so every span of its trace can be found by trace id.

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningSystem, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { adminAndDataSource, isoSecondsAgo, timestamp } from './timestamps.ts';

interface SeenSpan {
  service: string;
  name: string;
  traceId: string;
}

const spans: SeenSpan[] = [];
let collector: http.Server;
let system: RunningSystem;

function collect(body: any) {
  for (const resourceSpans of body.resourceSpans ?? []) {
    const service =
      resourceSpans.resource?.attributes?.find((a: any) => a.key === 'service.name')?.value?.stringValue ?? '?';
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) spans.push({ service, name: span.name, traceId: span.traceId });
    }
  }
}

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => {
      try {
        collect(JSON.parse(data));
      } catch {}
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const { port } = collector.address() as AddressInfo;
  system = await startFleet({
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  });
});

afterAll(async () => {
  await system?.stop();
  collector?.close();
});

it('follows one timestamp post from the gateway through RPC, append, relay and projection', async () => {
  const { api, admin, apiKey } = await adminAndDataSource(system.baseUrl);
  // A key may post only the pairs it has a weight for.
  const weights = await admin.post('/timestamp-api-key-weights', {
    timestamp_time_type: 'Estimated',
    timestamp_state: 'Arrival_Vessel_PortArea',
    api_key_ids: [apiKey.id],
  });
  expect(weights.status).toBe(200);
  // The weights are a priorities event, which every partition of the port-call projection gets before what came
  // after it; a consumer's batch span takes its first message's trace, so an untraced post settles them first and
  // the traced one is not handled behind them in one batch.
  const settling = await api
    .withApiKey(apiKey.key)
    .post('/agent/rest/timestamps', timestamp({ time: isoSecondsAgo(-7200), payload: { settling: true } }));
  expect(settling.status).toBe(200);
  await vi.waitFor(
    async () => {
      const { body } = await admin.get('/timestamps', { sort: 'id DESC', limit: 10 });
      expect(body.data.some((row: { payload: string }) => JSON.parse(row.payload).settling === true)).toBe(true);
    },
    { timeout: 30_000, interval: 100 },
  );
  const traceId = randomBytes(16).toString('hex');
  const res = await fetch(`${system.baseUrl}/agent/rest/timestamps`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `ApiKey ${apiKey.key}`,
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
    body: JSON.stringify(timestamp({ payload: { traced: true } })),
  });
  expect(res.status).toBe(200);

  const ours = () => spans.filter((s) => s.traceId === traceId);
  // The notifier consumes the timestamp too (a pinned vessel's push), so its span joins the same trace.
  const expected = ['gateway', 'ingest', 'notifier', 'portcall-projector'];
  // Each process exports its spans in batches as they end (a parent after its children, maybe in a later batch),
  // so everything asserted is waited for together, not a service's first span only.
  await vi.waitFor(
    () => {
      const services = new Set(ours().map((s) => s.service));
      expect(expected.filter((service) => !services.has(service))).toEqual([]);
      // Every fleet process offers the relay and an advisory lock picks one, so the relay's publish may come from
      // any of them; other services that consume the same events (the VIS bridge follows port-call changes) join
      // the trace with what they do in reaction. The four above must all be in it.
      const names = ours()
        .map((s) => s.name)
        .join(' | ');
      expect(names).toMatch(/HTTP POST/);
      expect(names).toMatch(/rpc\.server/);
      expect(names).toMatch(/eventstore\.append/);
      expect(names).toMatch(/amqp\.consume|projection/);
    },
    { timeout: 30_000, interval: 200 },
  );
  if (process.env.SHOW_SPANS)
    console.log(
      ours()
        .map((s) => `${s.service}: ${s.name}`)
        .join('\n'),
    );
});
