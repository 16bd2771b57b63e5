// Pure helpers of the event store: no I/O, unit-tested.

import type { AppendResult, Checkpoint, EventMetadata, ExpectedVersion, NewEvent, StreamAppend } from './types.ts';

/** Orders checkpoints in commit order: transaction id first (as a big integer), then global position. */
export function compareCheckpoints(a: Checkpoint | null, b: Checkpoint | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  const ta = BigInt(a.transactionId);
  const tb = BigInt(b.transactionId);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.globalPosition - b.globalPosition;
}

/** The SQL encoding of an expected version: NULL any, -1 stream exists, 0 no stream, n exact. */
export function expectedVersionParam(expected: ExpectedVersion): number | null {
  if (expected === 'any') return null;
  if (expected === 'stream_exists') return -1;
  if (expected === 'no_stream') return 0;
  if (!Number.isSafeInteger(expected) || expected < 0) throw new RangeError(`Invalid expected version ${expected}`);
  return expected;
}

/** Whether a stream at `current` (0: no stream) satisfies `expected`. */
export function satisfies(expected: ExpectedVersion, current: number): boolean {
  const param = expectedVersionParam(expected);
  if (param === null) return true;
  if (param === -1) return current > 0;
  return current === param;
}

export interface TraceContext {
  traceparent?: string;
  tracestate?: string;
}

export interface PlannedEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface AppendPlan {
  /** Distinct events to send, first occurrence of each id. */
  events: PlannedEvent[];
  /** The id of every given event, in the given order (repeats included). */
  ids: string[];
}

/**
 * Gives every event an id, drops repeats of an id within the call (the first one is stored) and fills
 * metadata defaults: events of one append share a correlation id (the caller's, else the first event's id);
 * the causation id defaults to the correlation id; the trace context is the caller's, else the current one.
 */
export function planAppend(events: NewEvent[], newId: () => string, trace: TraceContext): AppendPlan {
  // PostgreSQL returns uuids in lower case; matching results by id needs the same spelling.
  const ids = events.map((e) => (e.id ?? newId()).toLowerCase());
  const first = events[0]?.metadata;
  const batchCorrelation = first?.correlation_id ?? first?.causation_id ?? ids[0];
  const seen = new Set<string>();
  const planned: PlannedEvent[] = [];
  events.forEach((event, i) => {
    if (seen.has(ids[i])) return;
    seen.add(ids[i]);
    planned.push({
      id: ids[i],
      type: event.type,
      data: event.data,
      metadata: withDefaults(event.metadata, batchCorrelation, trace),
    });
  });
  return { events: planned, ids };
}

function withDefaults(given: EventMetadata | undefined, batchCorrelation: string, trace: TraceContext): EventMetadata {
  const metadata: EventMetadata = { ...given };
  metadata.correlation_id ??= given?.causation_id ?? batchCorrelation;
  metadata.causation_id ??= metadata.correlation_id;
  // traceparent and tracestate belong together: take the current pair only when the caller gave neither.
  if (metadata.traceparent === undefined && metadata.tracestate === undefined) {
    if (trace.traceparent) metadata.traceparent = trace.traceparent;
    if (trace.traceparent && trace.tracestate) metadata.tracestate = trace.tracestate;
  }
  return metadata;
}

export interface AppendRow {
  event_id: string;
  stream_position: number;
  global_position: number;
  duplicate: boolean;
  stream_version: number;
}

/**
 * One event's result from its row: a duplicate when it was already stored, or when `key` was met earlier in the
 * call (`seen` holds the keys met so far).
 */
function eventResult(id: string, row: AppendRow, seen: Set<string>, key: string): AppendResult['events'][number] {
  const repeated = seen.has(key);
  seen.add(key);
  return {
    id,
    streamPosition: row.stream_position,
    globalPosition: row.global_position,
    duplicate: row.duplicate || repeated,
  };
}

/** Maps eventstore.append's rows back onto the given events; a repeat within the call is a duplicate. */
export function appendResult(plan: AppendPlan, rows: AppendRow[]): AppendResult {
  const byId = new Map(rows.map((r) => [r.event_id, r]));
  const seen = new Set<string>();
  const events = plan.ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new Error(`eventstore.append returned no row for event ${id}`);
    return eventResult(id, row, seen, id);
  });
  return { nextExpectedVersion: rows[0]?.stream_version ?? 0, events };
}

export interface AppendManyPlan {
  /** Per entry: its plan (ids in the given order, repeats included). */
  entries: { streamId: string; plan: AppendPlan }[];
  /** Events to send, one row each; an id already sent for the same stream (by an earlier entry) is not. */
  rows: { streamId: string; event: PlannedEvent }[];
}

/** Plans each entry as append does, then drops ids sent earlier in the call for the same stream. */
export function planAppendMany(entries: StreamAppend[], newId: () => string, trace: TraceContext): AppendManyPlan {
  const sent = new Map<string, Set<string>>();
  const rows: AppendManyPlan['rows'] = [];
  const planned = entries.map(({ streamId, events }) => {
    const plan = planAppend(events, newId, trace);
    const ids = sent.get(streamId) ?? new Set<string>();
    sent.set(streamId, ids);
    for (const event of plan.events) {
      if (ids.has(event.id)) continue;
      ids.add(event.id);
      rows.push({ streamId, event });
    }
    return { streamId, plan };
  });
  return { entries: planned, rows };
}

export interface AppendManyRow {
  event_id: string;
  stream_id: string;
  stream_position: number;
  global_position: number;
  duplicate: boolean;
  stream_version: number;
}

/**
 * Maps eventstore.append_many's rows back onto the entries. An event counts as a duplicate when it was already
 * stored, or when it repeats an id given earlier in the call for the same stream.
 */
export function appendManyResults(plan: AppendManyPlan, rows: AppendManyRow[]): AppendResult[] {
  const key = (streamId: string, id: string) => `${streamId}\u0000${id}`;
  const byKey = new Map(rows.map((r) => [key(r.stream_id, r.event_id), r]));
  const version = new Map<string, number>();
  for (const r of rows) version.set(r.stream_id, Math.max(version.get(r.stream_id) ?? 0, r.stream_version));
  const seen = new Set<string>();
  return plan.entries.map(({ streamId, plan: entry }) => {
    const events = entry.ids.map((id) => {
      const k = key(streamId, id);
      const row = byKey.get(k);
      if (!row) throw new Error(`eventstore.append_many returned no row for event ${id} of ${streamId}`);
      return eventResult(id, row, seen, k);
    });
    return { nextExpectedVersion: version.get(streamId) ?? 0, events };
  });
}

/** Delay before retrying a failed batch: doubling from `base`, capped. */
export function retryDelay(failures: number, base: number, cap = 5_000): number {
  return Math.min(base * 2 ** Math.max(0, failures - 1), cap);
}
