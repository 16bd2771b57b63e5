// Prometheus metrics of one process (docs/operations.md#metrics-and-probes), with prom-client: its default process metrics
// (CPU, memory, event loop, handles) and default labels on every series are what an operations team expects, and
// OpenTelemetry stays for traces. The libraries record into the instruments below whether or not anything scrapes
// them (an observation is a few additions); the ops server (ops-server.ts) serves them at /metrics.
//
// Every series carries `service` and `instance_id` (the same id as in the process's log lines: instanceId()).

import { hostname } from 'node:os';
import client from 'prom-client';

export const metricsRegistry = new client.Registry();

let instance: string | undefined;

/**
 * This process's id in logs and metrics: INSTANCE_ID when the launcher or the orchestrator gives one (the fleet:
 * `<service>-<n>`), else host and pid, unique on a machine and across containers.
 */
export function instanceId(env: Record<string, string | undefined> = process.env): string {
  instance ??= env.INSTANCE_ID?.trim() || `${hostname()}-${process.pid}`;
  return instance;
}

let initialised = false;

/** Names this process in every series and turns on the process metrics; once per process (later calls are no-ops). */
export function initMetrics(service: string): void {
  if (initialised) return;
  initialised = true;
  metricsRegistry.setDefaultLabels({ service, instance_id: instanceId() });
  client.collectDefaultMetrics({ register: metricsRegistry });
}

// Latencies from 1 ms to 10 s: an API read takes a few milliseconds, a slow command or an RPC timeout seconds.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequestDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests answered, by route (the route table path; "unmatched" when no route took it), method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const rpcDuration = new client.Histogram({
  name: 'rpc_duration_seconds',
  help: 'RPC calls between services: side (client: the caller waiting; server: the handler), service, command, outcome',
  labelNames: ['side', 'service', 'command', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const eventAppendDuration = new client.Histogram({
  name: 'eventstore_append_duration_seconds',
  help: 'Event-store appends, from the call to its commit (group commit included): kind append or append_many',
  labelNames: ['kind', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** Seconds since `start` (a performance.now() value). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;

type Labels = Record<string, string>;
type Collect = (set: (labels: Labels, value: number) => void) => Promise<void> | void;

const collected = new Map<string, Set<Collect>>();

/**
 * A gauge read at each scrape from whoever registered a collector for it (a queue's sizes, a server's sockets, the
 * lag of the projections): several parts of one process may each add theirs (the embedded mode runs every service
 * in one). Returns the removal, for the part's stop. A collector that fails leaves its series out of that scrape.
 */
export function collectGauge(name: string, help: string, labelNames: readonly string[], collect: Collect): () => void {
  let collectors = collected.get(name);
  if (!collectors) {
    const set = new Set<Collect>();
    collectors = set;
    collected.set(name, set);
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [metricsRegistry],
      async collect() {
        this.reset();
        await Promise.all(
          [...set].map(async (each) => {
            try {
              await each((labels, value) => this.set(labels, value));
            } catch {
              // Left out of this scrape: a metric must not fail the scrape of all the others.
            }
          }),
        );
      },
    });
  }
  const own = collectors;
  own.add(collect);
  return () => {
    own.delete(collect);
  };
}

/** The metrics in Prometheus's text format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** Records a call's latency into `histogram` once `work` settles (outcome ok or error), and passes its result on. */
export async function timed<T>(
  histogram: client.Histogram<string>,
  labels: Labels,
  work: () => Promise<T>,
): Promise<T> {
  const start = performance.now();
  try {
    const result = await work();
    histogram.observe({ ...labels, outcome: 'ok' }, secondsSince(start));
    return result;
  } catch (error) {
    histogram.observe({ ...labels, outcome: 'error' }, secondsSince(start));
    throw error;
  }
}

/**
 * The rows waiting in one outbox (`vis`: messages to VIS peers, `mail`: e-mails, `timestamp`: slot decisions to
 * ingest), counted by the outbox's owner at each scrape. Returns the removal, for the owner's stop.
 */
export function collectOutboxDepth(outbox: string, count: () => Promise<number>): () => void {
  return collectGauge(
    'outbox_depth',
    'Rows waiting in an outbox: vis (messages to VIS peers), mail (e-mails), timestamp (slot decisions to ingest)',
    ['outbox'],
    async (set) => set({ outbox }, await count()),
  );
}
