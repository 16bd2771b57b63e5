// The port-call projection (docs/architecture.md#events-out, #replay): vessel events folded into the read models,
// in the live projection's transaction (one batch of the bus), in a rebuild (a vessel's whole stream replayed) and for a
// command's decision (the stored state caught up with the stream). One code path for all three: the same events
// give the same rows, so a rebuild reproduces what the live projection wrote.
//
// Exclusion: every writer of a vessel's rows holds its advisory lock (portcall.lock_vessels) for the whole
// transaction and reads the stored state under it; a state's `version`/`stream_position` say which events are in
// it, so a redelivered or already-replayed event changes nothing and nothing is applied twice. A batch whose
// first event of a vessel is not the next one of its stream (the events before it never reached this
// projection: a new queue, read models dropped) replays that vessel's stream instead.

import { randomUUID } from 'node:crypto';
import { PORTCALL_CHANGES_STREAM, type PortCallChanged, type TimestampPlaced, vesselStream } from '@pcas/contracts';
import type { EventStore, NewEvent, RecordedEvent } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import {
  foldVessel,
  type PortCallSettings,
  type Priorities,
  type ProjectionContext,
  replayVessel,
  type TemplateEntry,
  type VesselPortCalls,
} from '../domain/port-calls.ts';
import { placementOf, type ReadModelContext, vesselWrites } from '../domain/read-model.ts';
import { placedTimestamps } from '../domain/timestamp-placed.ts';
import { evolveBatch, rowsToLoad, type TimestampRow } from '../domain/timestamp-rows.ts';
import { applyPriorityEvents, isPriorityEvent, loadPriorities, lockVesselsLoadingPriorities } from './priorities.ts';
import {
  loadStoredRows,
  loadTimestampRows,
  loadVessels,
  lockVessels,
  type StoredVessel,
  type VesselCache,
  type VesselWrite,
  vesselsWithoutRows,
  writeVessels,
} from './vessel-state.ts';
import { imoOfStream, readVesselHistories } from './vessel-streams.ts';

/** What the rules need besides the events and the priorities. */
export interface ProjectorRules {
  settings: PortCallSettings;
  clustering: NonNullable<ProjectionContext['clustering']>;
  /** The namespace's timeline template (empty when it has none). */
  template: readonly TemplateEntry[];
}

/** A vessel whose next clock rule moved: the timer to (re)arm. */
export interface TimerChange {
  imo: number;
  /** The previous due time (ISO), whose job can go. */
  previous: string | null;
  /** The new due time (ISO), or null when no clock rule waits any more. */
  next: string | null;
}

export interface ProjectionOutcome {
  vessels: number;
  events: number;
  /** Change signals appended. */
  signals: number;
  timers: TimerChange[];
}

const contextOf = (rules: ProjectorRules, priorities: Priorities): ProjectionContext & ReadModelContext => ({
  settings: rules.settings,
  priorities,
  clustering: rules.clustering,
  template: rules.template,
});

/** The list rows the events create or change (the rows they change are loaded first). */
async function listRows(tx: Queryable, events: RecordedEvent[], fromScratch: boolean) {
  const current = fromScratch ? new Map<number, TimestampRow>() : await loadTimestampRows(tx, rowsToLoad(events));
  return new Map(evolveBatch(current, events).map((row) => [row.id, row]));
}

/** One vessel's fold over events it has not seen, as writes. Undefined when nothing is new. */
async function foldOne(
  tx: Queryable,
  store: EventStore,
  imo: number,
  stored: StoredVessel,
  events: RecordedEvent[],
  ctx: ProjectionContext & ReadModelContext,
): Promise<VesselWrite | undefined> {
  // New events only, each once (a batch may carry a redelivered copy).
  let fresh = events.filter(
    (e, i) =>
      e.streamPosition > stored.streamPosition && (i === 0 || events[i - 1].streamPosition !== e.streamPosition),
  );
  if (fresh.length === 0) return undefined;
  let replay = false;
  // Each event must follow the one before it in the stream; otherwise some never reached this projection.
  const contiguous = fresh.every((e, i) => e.streamPosition === stored.streamPosition + 1 + i);
  if (!contiguous) {
    // Events before these never reached the projection: replay the stream (read under the vessel's lock).
    fresh = await store.readStream(vesselStream(imo), { tx });
    replay = true;
  }
  const after = replay ? replayVessel(imo, fresh, ctx) : foldVessel(stored.state, fresh, ctx);
  const rows = await listRows(tx, fresh, replay);
  const writes = vesselWrites(stored.state, after, ctx, replay);
  // Rows whose list fields alone changed (e.g. a second delete of a deleted timestamp) are written too.
  // Usually every such row is placed already: the vessel's timestamps are indexed only when one is not.
  const placed = new Set(writes.timestamps.map((p) => p.id));
  let byId: Map<number, VesselPortCalls['timestamps'][number]> | undefined;
  for (const id of rows.keys()) {
    if (placed.has(id)) continue;
    byId ??= new Map(after.timestamps.map((t) => [t.id, t]));
    const t = byId.get(id);
    if (t) writes.timestamps.push(placementOf(t, ctx.priorities));
  }
  return {
    imo,
    after,
    writes,
    rows,
    revision: randomUUID(),
    streamPosition: fresh[fresh.length - 1].streamPosition,
    replace: replay,
  };
}

/**
 * Appends the change signals of the writes to `portcall-changes` in one round trip, each port call's with the
 * TimestampPlaced news of the live projection (the VESSEL push's trigger; none in a rebuild) in its `placed` list.
 * Called after the other writes: the stream's lock is then held only until the commit, so concurrent rebuild
 * chunks do not queue behind each other's writes. The price: signals of two transactions may be read in another
 * order than their stream positions (the event store wants an append first for that order); nothing is skipped,
 * and their order carries no meaning.
 */
async function appendSignals(
  tx: Queryable,
  store: EventStore,
  entries: readonly VesselWrite[],
  causes: ReadonlyMap<number, RecordedEvent | undefined>,
  placed: readonly TimestampPlaced[] = [],
): Promise<number> {
  const events: NewEvent<PortCallChanged>[] = [];
  const byPortCall = new Map<number, PortCallChanged>();
  for (const e of entries) {
    const cause = causes.get(e.imo);
    const metadata = cause
      ? { causation_id: cause.id, correlation_id: cause.metadata?.correlation_id ?? cause.id }
      : undefined;
    // The port call's status and master id after the change: what the notifier's auto-close of decisions needs.
    const written = new Map(e.writes.port_calls.map((r) => [r.pc.id, r.pc]));
    for (const c of e.writes.changed) {
      const pc = written.get(c.port_call_id);
      const data: PortCallChanged = { imo: e.imo, port_call_id: c.port_call_id, deleted: c.deleted };
      if (pc && !c.deleted) Object.assign(data, { status: pc.status, master_id: pc.master_id });
      events.push({ type: 'PortCallChanged', data, metadata });
      byPortCall.set(c.port_call_id, data);
    }
  }
  for (const news of placed) {
    // A placement changes its port call, so its signal is there; one of its own should that ever not hold.
    let signal = byPortCall.get(news.port_call_id);
    if (!signal) {
      signal = { imo: news.imo, port_call_id: news.port_call_id, deleted: false };
      events.push({ type: 'PortCallChanged', data: signal });
      byPortCall.set(news.port_call_id, signal);
    }
    signal.placed = [...(signal.placed ?? []), news];
  }
  if (events.length > 0) await store.append(PORTCALL_CHANGES_STREAM, events, { tx });
  return events.length;
}

/** The TimestampPlaced news of one vessel's fold: its timestamps received in events the fold had not seen. */
function placedNews(
  entry: VesselWrite,
  events: readonly RecordedEvent[],
  seenUpTo: number,
  priorities: Priorities,
): TimestampPlaced[] {
  const received = events
    .filter((e) => e.type === 'TimestampReceived' && e.streamPosition > seenUpTo)
    .map((e) => e.globalPosition);
  return placedTimestamps(entry.after, new Set(received), priorities);
}

function timerChanges(entries: readonly VesselWrite[], before: ReadonlyMap<number, string | null>): TimerChange[] {
  const out: TimerChange[] = [];
  for (const e of entries) {
    const previous = before.get(e.imo) ?? null;
    if (previous !== e.writes.next_timer_at) out.push({ imo: e.imo, previous, next: e.writes.next_timer_at });
  }
  return out;
}

/**
 * Folds vessel events (any vessels, stream order per vessel) into the read models. Priorities not given are read
 * with the vessels' locks (one round trip); the outcome says which were applied.
 */
async function projectVesselEvents(
  tx: Queryable,
  store: EventStore,
  rules: ProjectorRules,
  events: readonly RecordedEvent[],
  given: Priorities | undefined,
  cache: VesselCache | undefined,
): Promise<ProjectionOutcome & { priorities?: Priorities }> {
  const byImo = new Map<number, RecordedEvent[]>();
  for (const event of events) {
    const imo = imoOfStream(event.streamId);
    if (imo === undefined) continue;
    const list = byImo.get(imo);
    if (list) list.push(event);
    else byImo.set(imo, [event]);
  }
  const imos = [...byImo.keys()].sort((a, b) => a - b);
  if (imos.length === 0) return { vessels: 0, events: 0, signals: 0, timers: [], priorities: given };
  let priorities = given;
  if (priorities) await lockVessels(tx, imos);
  else priorities = await lockVesselsLoadingPriorities(tx, imos);
  const stored = await loadVessels(tx, imos, { cache });
  const ctx = contextOf(rules, priorities);
  const entries: VesselWrite[] = [];
  const causes = new Map<number, RecordedEvent | undefined>();
  const placed: TimestampPlaced[] = [];
  for (const imo of imos) {
    const list = byImo.get(imo)!.sort((a, b) => a.streamPosition - b.streamPosition);
    const entry = await foldOne(tx, store, imo, stored.get(imo)!, list, ctx);
    if (!entry) continue;
    entries.push(entry);
    causes.set(imo, list[list.length - 1]);
    placed.push(...placedNews(entry, list, stored.get(imo)!.streamPosition, priorities));
  }
  await writeVessels(tx, entries);
  const signals = await appendSignals(tx, store, entries, causes, placed);
  // Cached under the revision just written: should this transaction roll back, the stored revision differs and
  // the next batch loads the vessel again.
  for (const e of entries) cache?.set(storedAfter(e));
  const before = new Map([...stored].map(([imo, s]) => [imo, s.nextTimerAt]));
  return {
    vessels: entries.length,
    events: events.length,
    signals,
    timers: timerChanges(entries, before),
    priorities,
  };
}

const storedAfter = (e: VesselWrite): StoredVessel => ({
  state: e.after,
  revision: e.revision,
  streamPosition: e.streamPosition,
  nextTimerAt: e.writes.next_timer_at,
  exists: true,
});

/**
 * The live projection's apply: a batch in delivery order. Priority changes apply to the events after them (the
 * batch is cut there); the vessel events between two of them are folded together.
 */
export async function projectBatch(
  tx: Queryable,
  store: EventStore,
  rules: ProjectorRules,
  events: readonly RecordedEvent[],
  cache?: VesselCache,
): Promise<ProjectionOutcome> {
  const total: ProjectionOutcome = { vessels: 0, events: 0, signals: 0, timers: [] };
  let priorities: Priorities | undefined;
  let segment: RecordedEvent[] = [];
  const flush = async () => {
    if (segment.length === 0) return;
    const outcome = await projectVesselEvents(tx, store, rules, segment, priorities, cache);
    priorities = outcome.priorities;
    total.vessels += outcome.vessels;
    total.events += outcome.events;
    total.signals += outcome.signals;
    total.timers.push(...outcome.timers);
    segment = [];
  };
  for (const event of events) {
    if (isPriorityEvent(event)) {
      await flush();
      if ((await applyPriorityEvents(tx, [event])) > 0) priorities = undefined;
    } else segment.push(event);
  }
  await flush();
  return total;
}

/**
 * Rebuilds vessels from their streams (read under their locks) under the priorities in the tables, replacing
 * every row of theirs in the caller's transaction. Signals name the port calls that differ from what was stored.
 */
export async function rebuildVessels(
  tx: Queryable,
  store: EventStore,
  rules: ProjectorRules,
  imos: readonly number[],
  priorities?: Priorities,
): Promise<ProjectionOutcome> {
  const sorted = [...new Set(imos)].sort((a, b) => a - b);
  if (sorted.length === 0) return { vessels: 0, events: 0, signals: 0, timers: [] };
  await lockVessels(tx, sorted);
  // The reads are lookups by key: without statistics on the log (a fresh database) the planner would plan a
  // parallel scan and JIT-compile it, costing more than the reads themselves.
  await tx.query("SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)");
  const ctx = contextOf(rules, priorities ?? (await loadPriorities(tx)));
  const stored = await loadVessels(tx, sorted, { withTimestamps: false });
  // Vessels never projected have no rows to compare with (a first rebuild: all of them), and their rows are
  // inserted rather than upserted.
  const existing = sorted.filter((imo) => stored.get(imo)!.exists);
  const storedRows = await loadStoredRows(tx, existing);
  const fresh = await vesselsWithoutRows(
    tx,
    sorted.filter((imo) => !stored.get(imo)!.exists),
  );
  const streams = await readVesselHistories(tx, sorted);
  const entries: VesselWrite[] = [];
  let count = 0;
  for (const imo of sorted) {
    const events = streams.get(imo) ?? [];
    const old = stored.get(imo)!;
    if (events.length === 0 && !old.exists) continue;
    count += events.length;
    const after = replayVessel(imo, events, ctx);
    entries.push({
      imo,
      after,
      writes: vesselWrites(old.state, after, ctx, true, storedRows),
      rows: new Map(evolveBatch(new Map(), events).map((row) => [row.id, row])),
      revision: randomUUID(),
      streamPosition: events.length > 0 ? events[events.length - 1].streamPosition : 0,
      replace: true,
      fresh: fresh.has(imo),
    });
  }
  await writeVessels(tx, entries);
  const signals = await appendSignals(tx, store, entries, new Map());
  const before = new Map([...stored].map(([imo, s]) => [imo, s.nextTimerAt]));
  return { vessels: entries.length, events: count, signals, timers: timerChanges(entries, before) };
}

/**
 * A vessel's state now: the stored one caught up with the events of its stream the projection has not applied
 * yet (nothing is written). `streamVersion` is the stream's last position, for an append with expected version.
 */
export async function currentVessel(
  tx: Queryable,
  store: EventStore,
  rules: ProjectorRules,
  imo: number,
): Promise<{ state: VesselPortCalls; streamVersion: number }> {
  await lockVessels(tx, [imo]);
  const stored = (await loadVessels(tx, [imo])).get(imo)!;
  const rest = await store.readStream(vesselStream(imo), { fromPosition: stored.streamPosition + 1, tx });
  const ctx = contextOf(rules, await loadPriorities(tx));
  const state = rest.length > 0 ? foldVessel(stored.state, rest, ctx) : stored.state;
  return { state, streamVersion: rest.length > 0 ? rest[rest.length - 1].streamPosition : stored.streamPosition };
}
