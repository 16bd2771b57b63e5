// The steps the queue's commands share inside a decision's transaction (docs/queue.md): a decision's part on each
// stream it appends to (its events, the version it read the stream at, how its rows follow), all parts appended in
// one statement with their expected versions, and what the decision leaves to do after its commit (the generated
// timestamps recorded as ingest work in the same transaction, the notices, the completion job).

import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type BerthEvent,
  type BerthReservationData,
  berthStream,
  type NominationEvent,
  nominationStream,
  type SlotRequestData,
  type SlotRequestEvent,
  slotRequestStream,
} from '@pcas/contracts';
import { type EventMetadata, type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { isoDurationMs, parseAtom } from '@pcas/values';
import { CLAIM_SECONDS } from '../adapters/ingest-work.ts';
import { loadSettingValues } from '../adapters/port-settings.ts';
import { projectBerth, projectNomination, projectSlotRequest } from '../adapters/read-models.ts';
import { appendStreams, type StreamWrite, type Versioned } from '../adapters/streams.ts';
import {
  type GatheredWrites,
  type RecordedWork,
  recordTimestampWork,
  type TimestampWork,
} from '../adapters/timestamp-outbox.ts';
import type { BerthState } from '../domain/berths.ts';
import { type GeneratedTimestamp, generatedTimestamps } from '../domain/generated-timestamps.ts';
import type { NominationState } from '../domain/nominations.ts';
import { type QueueSettings, queueSettings } from '../domain/queue-rules.ts';
import type { Placement } from '../domain/slot-requests.ts';

/** What a committed decision leaves to do: who to tell, which timestamps to (re)generate or remove. */
export interface AfterCommit {
  slots: { state: SlotRequestData; event: SlotRequestEvent; firstEta: boolean }[];
  blocks: BerthReservationData[];
  removeTimestampsOf: number[];
  /** The settings the decision read (one query fewer for its timestamps and its completion job). */
  settings?: QueueSettings;
  /** The ingest work it recorded (queue.timestamp_outbox), in order. */
  work: RecordedWork<GeneratedTimestamp>[];
}

export const afterCommit = (): AfterCommit => ({ slots: [], blocks: [], removeTimestampsOf: [], work: [] });

export const settingsOf = async (q: Queryable): Promise<QueueSettings> => queueSettings(await loadSettingValues(q));

/**
 * A decision's part on one stream: its events, the version it read the stream at, and how its rows follow (given
 * the stream's new version and where to write: the transaction, or GatheredWrites to go in one later statement).
 */
export interface StreamPart extends StreamWrite {
  project(writes: Queryable, version: number): Promise<void>;
  /** Its rows go to the transaction at once, not gathered (a row written more than once). */
  direct?: boolean;
}

export const slotPart = (
  id: number,
  events: SlotRequestEvent[],
  version: number | 'no_stream',
  actor: number | null,
): StreamPart => ({
  streamId: slotRequestStream(id),
  events,
  expectedVersion: version,
  project: (writes, next) => projectSlotRequest(writes, events, next, actor),
});

// Each calendar event also sets the berth's version on its row: more than one goes straight to the transaction.
export const berthPart = (
  berthId: number,
  events: BerthEvent[],
  version: number,
  actor: number | null,
): StreamPart => ({
  streamId: berthStream(berthId),
  events,
  expectedVersion: version,
  project: (writes, next) => projectBerth(writes, berthId, events, next, actor),
  direct: events.length > 1,
});

export const nominationPart = (
  id: number,
  events: NominationEvent[],
  version: number,
  actor: number | null,
): StreamPart => ({
  streamId: nominationStream(id),
  events,
  expectedVersion: version,
  project: (writes, next) => projectNomination(writes, events, next, actor),
});

/**
 * Appends every stream of a decision in one statement (each with the version it was read at: a lost race on any
 * refuses all), then writes their rows: in `tx`, or gathered in `writes` to go with the ingest work.
 */
export async function appendParts(
  tx: Queryable,
  store: EventStore,
  parts: readonly StreamPart[],
  metadata: EventMetadata,
  writes: Queryable = tx,
): Promise<void> {
  const versions = await appendStreams(tx, store, parts, metadata);
  for (const [i, part] of parts.entries()) {
    if (part.events.length > 0) await part.project(part.direct ? tx : writes, versions[i] as number);
  }
}

/**
 * A placement's berth and nomination parts, with the versions they were read at (a placement writes one row each
 * of the slot request, berth, reservation and nomination, so they can go in one statement).
 */
export function placementParts(
  placed: Placement,
  berths: Map<number, Versioned<BerthState>>,
  nominations: Versioned<NominationState>[],
  actor: number | null,
): StreamPart[] {
  const parts: StreamPart[] = [];
  if (placed.berthEvent) {
    const berthId = placed.berthEvent.data.berth_id;
    const at = berths.get(berthId) as Versioned<BerthState>;
    parts.push(berthPart(berthId, [placed.berthEvent], at.version, actor));
  }
  if (placed.nominationEvent) {
    const id = placed.nominationEvent.data.id;
    const at = nominations.find((n) => n.state.nomination?.id === id) as Versioned<NominationState>;
    parts.push(nominationPart(id, [placed.nominationEvent], at.version, actor));
  }
  return parts;
}

/** The timestamps a slot request in this state puts on its port call (domain/generated-timestamps.ts). */
function timestampsOf(
  state: SlotRequestData,
  firstEta: boolean,
  settings: QueueSettings,
  now: number,
): GeneratedTimestamp[] {
  return generatedTimestamps(
    {
      id: state.id,
      imo: state.imo,
      vessel_name: state.vessel_name,
      status: state.status,
      eta: parseAtom(state.eta) as number,
      rta_window_start: parseAtom(state.rta_window_start) ?? null,
      rta_window_end: parseAtom(state.rta_window_end) ?? null,
      jit_eta: parseAtom(state.jit_eta) ?? null,
      laytime: state.laytime,
      laytimeMs: isoDurationMs(state.laytime) ?? 0,
      loa: state.loa,
      beam: state.beam,
      draft: state.draft,
    },
    // Fixed now with the decision's own key as `dummy`: a re-post after a crash or a lost answer is then the same
    // timestamp, which ingest stores once.
    { firstEta, now, settings, dummy: randomUUID() },
  );
}

/**
 * Records, in the decision's transaction, what it leaves to do at ingest: the removals, then the timestamps each
 * changed slot request generates; with the rows `gathered` in the same statement. `berthRead`: a berth the decision
 * read but appends nothing to, checked to be still at the version read (loadSlotRequestForChange).
 */
export async function recordIngestWork(
  tx: Queryable,
  after: AfterCommit,
  actor: Actor,
  now: number,
  gathered?: GatheredWrites,
  berthRead?: { id: number; version: number },
): Promise<void> {
  const work: TimestampWork<GeneratedTimestamp>[] = after.removeTimestampsOf.map((id) => ({
    slot_reservation_id: id,
    timestamps: null,
    actor,
  }));
  for (const { state, event, firstEta } of after.slots) {
    if (event.type === 'SlotRequestCancelled' || event.type === 'SlotRequestCompleted') continue;
    after.settings ??= await settingsOf(tx);
    const list = timestampsOf(state, firstEta, after.settings, now);
    if (list.length > 0) work.push({ slot_reservation_id: state.id, timestamps: list, actor });
  }
  // Recorded claimed by this process, which does it right after the commit (no claim statement then).
  const recorded = await recordTimestampWork(tx, work, {
    gathered,
    claimSeconds: CLAIM_SECONDS,
    berthId: berthRead?.id,
  });
  if (berthRead && recorded.berthVersion !== berthRead.version) {
    throw new WrongExpectedVersionError(berthStream(berthRead.id), berthRead.version, recorded.berthVersion ?? 0);
  }
  after.work = recorded.work;
}
