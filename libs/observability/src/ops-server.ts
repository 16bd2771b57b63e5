// A process's own port for operations (docs/operations.md#metrics-and-probes), apart from the API: Prometheus
// metrics and the two probes. Liveness says the process runs and its event loop answers; readiness says it has
// finished starting and its dependencies answer, so an orchestrator restarts a dead process but only routes work
// to a ready one, and a port with no traffic can still tell "up" from "ready".
//
//   GET /metrics   Prometheus text format (metrics.ts)
//   GET /livez     200 {"status":"up",...} while the process runs
//   GET /readyz    200 {"status":"ready",...} or 503 {"status":"starting"|"not ready"|"stopping", checks}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.ts';
import { instanceId, metricsText } from './metrics.ts';

export type ReadinessCheck = () => Promise<boolean>;

export interface OpsServerOptions {
  service: string;
  port: number;
  /** Where to listen (default 127.0.0.1: metrics are for the operators' network, not the API's clients). */
  host?: string;
  log: Logger;
}

export interface OpsServer {
  readonly port: number;
  /** Ready from now on while every check passes (each a dependency: the database, the broker). */
  ready(checks: Record<string, ReadinessCheck>): void;
  /** Not ready any more (the process is stopping): traffic goes elsewhere while it finishes. */
  stopping(): void;
  close(): Promise<void>;
}

// A check that hangs counts as failed: a probe answers within its own timeout.
const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const startedAt = Date.now();
  let state: 'starting' | 'running' | 'stopping' = 'starting';
  let checks: Record<string, ReadinessCheck> = {};
  const identity = { service: options.service, instance_id: instanceId(), pid: process.pid };

  const readiness = async (res: ServerResponse) => {
    if (state !== 'running') return sendJson(res, 503, { status: state, ...identity });
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => runCheck(checks[name]!)));
    const detail = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'failing']));
    const ready = results.every(Boolean);
    sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', ...identity, checks: detail });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed' });
    if (path === '/metrics') {
      const { contentType, body } = await metricsText();
      res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
      return res.end(body);
    }
    if (path === '/livez') {
      return sendJson(res, 200, { status: 'up', ...identity, uptime_seconds: (Date.now() - startedAt) / 1000 });
    }
    if (path === '/readyz') return readiness(res);
    sendJson(res, 404, { error: 'Not found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      options.log.error({ err: error, url: req.url }, 'ops request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'Internal error' });
      else res.destroy();
    });
  });
  // Never holds the process open on its own: the service's stop decides when the process ends.
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Exclusive: a fleet's processes are cluster workers (launcher/src/fleet.ts), which would otherwise share one
    // port through the launcher (OPS_PORT=0 would give them all the same one); each process has its own.
    server.listen({ port: options.port, host: options.host ?? '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ opsPort: port }, 'metrics and probes at /metrics, /livez, /readyz');
  return {
    port,
    ready(next) {
      checks = next;
      state = 'running';
    },
    stopping() {
      state = 'stopping';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
