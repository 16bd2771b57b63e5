// The server span: an incoming `traceparent` is its parent, and it is the active span while the handler runs,
// so spans made downstream (RPC, event append) join the caller's trace. Needs a real SDK (the API alone is a
// no-op), hence its own file: the SDK stays confined to this worker. Spans reach the console exporter, which
// the test intercepts to read them back.

import { createServer, type Server } from 'node:http';
import { currentTraceCarrier, startTracing, stopTracing, withSpan } from '@pcas/observability';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createHttpApp } from './app.ts';
import { ANONYMOUS_AUTH, rawRequest, SILENT_LOGGER } from './test-client.ts';

const anonymous = ANONYMOUS_AUTH;

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let server: Server;
const exported: Array<{ name: string; kind: number; traceId: string; id: string; parentSpanContext?: any }> = [];

beforeAll(async () => {
  vi.spyOn(console, 'dir').mockImplementation((span) => {
    exported.push(span as (typeof exported)[number]);
  });
  // The NodeSDK reads its exporters from process.env; keep metrics and logs off.
  Object.assign(process.env, {
    OTEL_TRACES_EXPORTER: 'console',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  });
  await startTracing('http-kit-test', process.env);
  const app = createHttpApp({
    logger: SILENT_LOGGER,
    authenticate: async () => anonymous,
    authorize: async () => {},
    routes: [
      {
        method: 'GET',
        path: '/trace',
        permission: 'public',
        params: {},
        handle: async () => ({
          server: currentTraceCarrier().traceparent,
          child: await withSpan('downstream', {}, async () => currentTraceCarrier().traceparent),
        }),
      },
    ],
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await stopTracing();
  vi.restoreAllMocks();
});

beforeEach(() => {
  exported.length = 0;
});

it('continues the caller trace and makes the server span active for the handler', async () => {
  const res = await rawRequest(server, 'GET', '/trace', { headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
  expect(res.status).toBe(200);
  const { server: serverParent, child } = res.json() as { server: string; child: string };
  const [, serverTrace, serverSpan] = serverParent.split('-');
  const [, childTrace, childSpan] = child.split('-');
  expect(serverTrace).toBe(TRACE_ID);
  expect(serverSpan).not.toBe(PARENT_ID); // the server span itself, not the caller's
  expect(childTrace).toBe(TRACE_ID);
  expect(childSpan).not.toBe(serverSpan);

  // The span processor exports after the response may already be out.
  const span = await vi.waitFor(
    () => {
      const found = exported.find((s) => s.name === 'HTTP GET /trace');
      if (!found) throw new Error('server span not exported yet');
      return found;
    },
    { timeout: 10_000 },
  );
  expect(span?.kind).toBe(1); // SpanKind.SERVER
  expect(span?.traceId).toBe(TRACE_ID);
  expect(span?.id).toBe(serverSpan);
  expect(span?.parentSpanContext?.spanId).toBe(PARENT_ID);
});

it('starts a new trace when the caller sends none', async () => {
  const res = await rawRequest(server, 'GET', '/trace');
  const { server: serverParent } = res.json() as { server: string };
  expect(serverParent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  expect(serverParent.split('-')[1]).not.toBe(TRACE_ID);
});
