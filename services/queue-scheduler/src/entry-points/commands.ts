// cmd.queue-scheduler (docs/domain.md#queue): each command loads the states it decides on in one transaction,
// decides (pure, src/domain), appends every stream's events with the version it read, and writes the rows in the
// same transaction; a lost race on any stream rolls all back and decides again. A placement reads every berth of
// its nomination but appends to one: that berth's expected version is what keeps two requests off one gap. Changes
// of one berth (port blocks, a slot's update or cancellation) take that berth's lock first, so they take turns.
// The generated timestamps to post or remove through ingest are recorded in the decision's transaction
// (queue.timestamp_outbox) and done after the commit and the reply, in order per slot request, with the e-mail hook
// and the jobs: the rows of concurrent decisions are claimed (a lease, the oldest row of a slot request first), posted
// in one RPC and deleted together; what a crash left undone is done at the next start and every minute
// (sweepTimestampWork), by whichever process claims it. The create commands are decided once per RPC request
// (decideOnce): a redelivery answers the first reply.

import { randomUUID } from 'node:crypto';
import { createBatcher } from '@pcas/batching';
import { type CommandFunction, decideOnce, decodeCommand, eventMetadata, retryOnConflict } from '@pcas/commands';
import {
  type Actor,
  ApiError,
  type BerthEvent,
  type BerthInput,
  type BerthReservationData,
  type BerthReservationInput,
  berthStream,
  type CancelSlotRequestInput,
  type IdInput,
  INGEST,
  IngestCommands,
  type ItemReply,
  MAX_TIMESTAMP_BATCH,
  type NominationEvent,
  type NominationInput,
  nominationStream,
  QueueCommands,
  type ServiceDeps,
  type SlotRequestData,
  type SlotRequestEvent,
  type SlotRequestInput,
  slotRequestStream,
} from '@pcas/contracts';
import { type EventMetadata, WrongExpectedVersionError } from '@pcas/eventstore';
import { RPC_ID_HEADER } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { isoDurationMs, parseAtom } from '@pcas/values';
import {
  appendStreams,
  appendTo,
  berthOfReservation,
  type ClaimedWork,
  claimableTimestampWork,
  claimTimestampWork,
  forgetGeneratedTimestamp,
  GatheredWrites,
  generatedTimestampIds,
  loadBerth,
  loadNomination,
  loadPlacementInputs,
  loadSettingValues,
  loadSlotRequest,
  loadSlotRequestForChange,
  lockBerths,
  nextId,
  nextTimestampWork,
  pendingSlotRequestIds,
  projectBerth,
  projectNomination,
  projectSlotRequest,
  type RecordedWork,
  recordTimestampWork,
  releaseTimestampWork,
  type SlotRequestForChange,
  type StreamWrite,
  saveGeneratedTimestamps,
  type TimestampWork,
  timestampWorkDone,
  type Versioned,
} from '../adapters/queue-store.ts';
import {
  type BerthState,
  decideCreateBerth,
  decideCreateReservation,
  decideDeleteBerth,
  decideMoveReservation,
  decideRemoveReservation,
  decideUpdateBerth,
} from '../domain/berths.ts';
import { type GeneratedTimestamp, generatedTimestamps } from '../domain/generated-timestamps.ts';
import {
  cannotFindNomination,
  decideCreateNomination,
  decideDeleteNomination,
  decideExpireNomination,
  decideUpdateNomination,
  type NominationContext,
  type NominationState,
} from '../domain/nominations.ts';
import { NO_NOTIFICATIONS, type QueueNotifications } from '../domain/notifications.ts';
import { type QueueSettings, queueSettings } from '../domain/queue-rules.ts';
import {
  cannotFindSlotRequest,
  checkLaytimeBound,
  completionDue,
  decideCancel,
  decideComplete,
  decideResolve,
  decideUpdate,
  type Placement,
  place,
  readSlotRequest,
  receivedEvent,
} from '../domain/slot-requests.ts';

const OK = { result: 'OK' } as const;
// Many vessels may ask for one berth at once: each lost race costs one more attempt (a quick one: a few reads).
const ATTEMPTS = 25;
const BUSY = 'The queue is being updated concurrently; retry';
// Posting or removing the generated timestamps: 6 attempts over about 15 s.
const TIMESTAMP_ATTEMPTS = 6;
const TIMESTAMP_RETRY_MS = 500;
// A claim on a row of ingest work outlives those attempts; a crashed poster's expires and the sweep takes it.
const CLAIM_SECONDS = 120;

/** Delayed work at a due time: a nomination's expiry, a slot request's completion (see service.ts). */
export interface QueueJobs {
  expireNomination(id: number, at: number): Promise<void>;
  completeSlotRequest(id: number, at: number): Promise<void>;
}

export interface QueueCommandDeps extends ServiceDeps {
  notifications?: QueueNotifications;
  jobs?: QueueJobs;
  now?: () => number;
}

/** What a committed decision leaves to do: who to tell, which timestamps to (re)generate or remove. */
interface AfterCommit {
  slots: { state: SlotRequestData; event: SlotRequestEvent; firstEta: boolean }[];
  blocks: BerthReservationData[];
  removeTimestampsOf: number[];
  /** The settings the decision read (one query fewer for its timestamps and its completion job). */
  settings?: QueueSettings;
  /** The ingest work it recorded (queue.timestamp_outbox), in order. */
  work: RecordedWork<GeneratedTimestamp>[];
}

const afterCommit = (): AfterCommit => ({ slots: [], blocks: [], removeTimestampsOf: [], work: [] });

/** What a batch did with one row of recorded ingest work. */
type IngestOutcome =
  | { kind: 'skipped' }
  | { kind: 'removal'; row: ClaimedWork<GeneratedTimestamp> }
  | { kind: 'posted'; row: ClaimedWork<GeneratedTimestamp>; again: GeneratedTimestamp[] };

export function createQueueCommands(deps: QueueCommandDeps) {
  const { db, store, bus, log, config } = deps;
  const notifications = deps.notifications ?? NO_NOTIFICATIONS;
  const now = deps.now ?? Date.now;
  const timeZone = config.portDefaultTimeZone ?? 'UTC';

  const transact = <T>(fn: (tx: Queryable) => Promise<T>) =>
    retryOnConflict('queue', () => db.transaction(fn), { attempts: ATTEMPTS, busyMessage: BUSY, log });
  const settingsOf = async (q: Queryable): Promise<QueueSettings> => queueSettings(await loadSettingValues(q));

  // ---- after the commit ----

  /**
   * Records, in the decision's transaction, what it leaves to do at ingest: the removals, then the timestamps each
   * changed slot request generates, fixed now with the decision's own key as `dummy` (a re-post after a crash or a
   * lost answer is then the same timestamp, which ingest stores once).
   */
  async function recordIngestWork(
    tx: Queryable,
    after: AfterCommit,
    actor: Actor,
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
      const settings = after.settings;
      const list = generatedTimestamps(
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
        { firstEta, now: now(), settings, dummy: randomUUID() },
      );
      if (list.length > 0) work.push({ slot_reservation_id: state.id, timestamps: list, actor });
    }
    // Recorded claimed by this process, which does it right after the commit (no claim statement then).
    const recorded = await recordTimestampWork(tx, work, {
      gathered,
      claimSeconds: CLAIM_SECONDS,
      berthId: berthRead?.id,
    });
    // A berth the decision read but appends nothing to: still at the version read (loadSlotRequestForChange).
    if (berthRead && recorded.berthVersion !== berthRead.version) {
      throw new WrongExpectedVersionError(berthStream(berthRead.id), berthRead.version, recorded.berthVersion ?? 0);
    }
    after.work = recorded.work;
  }

  /** A post of one generated timestamp as ingest takes it: the port's own (manual), whatever the key's priorities. */
  const postItem = (actor: Actor, ts: GeneratedTimestamp) => ({
    body: { actor: { user_id: actor.user_id, api_key_id: null }, input: { ...ts, manual: true } },
  });

  /**
   * Recorded ingest work done together: the rows of many slot requests claimed in one statement (but those their
   * decision recorded claimed already), their timestamps posted in one RPC (one commit in ingest) and the finished
   * rows deleted, with the ids ingest gave, in one statement. A row that is not claimed (another process has it, or
   * an older row of its slot request is left) is skipped: whoever holds it, or the sweep, does it. A removal is
   * claimed here and done by the caller.
   */
  const ingestTogether = createBatcher<RecordedWork<GeneratedTimestamp>, IngestOutcome>(
    async (recorded) => {
      const seqs = recorded.map((r) => r.seq);
      const held = recorded.flatMap((r) => (r.held ? [r.held] : []));
      const toClaim = recorded.filter((r) => !r.held).map((r) => r.seq);
      const claimed = new Map(
        [...held, ...(await claimTimestampWork<GeneratedTimestamp>(db, toClaim, CLAIM_SECONDS))]
          .sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1))
          .map((row) => [row.seq, row]),
      );
      const posts = [...claimed.values()].filter((row) => row.timestamps !== null);
      const again = new Map<string, GeneratedTimestamp[]>();
      const saved: { slot_reservation_id: number; timestamp_id: number }[] = [];
      const items = posts.flatMap((row) => (row.timestamps ?? []).map((ts) => postItem(row.actor as Actor, ts)));
      if (items.length > 0) {
        let replies: ItemReply<{ id: number }>[];
        try {
          replies = (await bus.rpc(INGEST, IngestCommands.postTimestamps, { items })) as ItemReply<{ id: number }>[];
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) {
            await releaseTimestampWork(db, [...claimed.keys()]);
            throw error;
          }
          replies = items.map(() => ({ ok: false, status: 503, error: String(error) }));
        }
        let at = 0;
        for (const row of posts) {
          const list = row.timestamps ?? [];
          const mine = replies.slice(at, at + list.length);
          at += list.length;
          const missing: GeneratedTimestamp[] = [];
          mine.forEach((reply, i) => {
            if (reply.ok) saved.push({ slot_reservation_id: row.slot_reservation_id, timestamp_id: reply.result.id });
            else if (reply.status >= 500) missing.push(list[i] as GeneratedTimestamp);
            else
              log.warn(
                { slot_reservation_id: row.slot_reservation_id, error: reply.error },
                'a generated timestamp was refused',
              );
          });
          if (missing.length > 0) again.set(row.seq, missing);
        }
      }
      const done = posts.filter((row) => !again.has(row.seq)).map((row) => row.seq);
      if (done.length > 0 || saved.length > 0) await timestampWorkDone(db, done, saved);
      return seqs.map((seq): { ok: true; value: IngestOutcome } => {
        const row = claimed.get(seq);
        if (!row) return { ok: true, value: { kind: 'skipped' } };
        if (row.timestamps === null) return { ok: true, value: { kind: 'removal', row } };
        return { ok: true, value: { kind: 'posted', row, again: again.get(seq) ?? [] } };
      });
    },
    // A slot request's row holds at most 5 timestamps: 32 rows stay well inside one ingest batch.
    { maxItems: Math.floor(MAX_TIMESTAMP_BATCH / 8), maxInFlight: 2 },
  );

  /** Posts again, with a growing delay, the timestamps ingest was too busy to store (a refusal is final). */
  async function postAgain(row: ClaimedWork<GeneratedTimestamp>, missing: GeneratedTimestamp[]) {
    let pending = missing;
    for (let attempt = 2; pending.length > 0; attempt++) {
      if (attempt > TIMESTAMP_ATTEMPTS) throw new Error('ingest did not store them yet');
      await new Promise((r) => setTimeout(r, TIMESTAMP_RETRY_MS * 2 ** (attempt - 2)));
      let replies: ItemReply<{ id: number }>[];
      try {
        replies = (await bus.rpc(INGEST, IngestCommands.postTimestamps, {
          items: pending.map((ts) => postItem(row.actor as Actor, ts)),
        })) as ItemReply<{ id: number }>[];
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) throw error;
        replies = pending.map(() => ({ ok: false, status: 503, error: String(error) }));
      }
      const ids: number[] = [];
      const still: GeneratedTimestamp[] = [];
      replies.forEach((reply, i) => {
        if (reply.ok) ids.push(reply.result.id);
        else if (reply.status >= 500) still.push(pending[i] as GeneratedTimestamp);
        else
          log.warn(
            { slot_reservation_id: row.slot_reservation_id, error: reply.error },
            'a generated timestamp was refused',
          );
      });
      await saveGeneratedTimestamps(db, row.slot_reservation_id, ids);
      pending = still;
    }
    await timestampWorkDone(db, [row.seq]);
  }

  async function removeTimestamps(slotRequestId: number, actor: Actor) {
    for (const id of await generatedTimestampIds(db, slotRequestId)) {
      for (let attempt = 1; ; attempt++) {
        try {
          await bus.rpc(INGEST, IngestCommands.deleteTimestamp, { actor, input: { id } });
          break;
        } catch (error) {
          // Already deleted by someone: nothing left to remove. Ingest busy: again, as for posting.
          if (error instanceof ApiError && error.status < 500) break;
          if (attempt >= TIMESTAMP_ATTEMPTS) throw error;
          await new Promise((r) => setTimeout(r, TIMESTAMP_RETRY_MS * 2 ** (attempt - 1)));
        }
      }
      await forgetGeneratedTimestamp(db, slotRequestId, id);
    }
  }

  /**
   * Does recorded ingest work (its rows in the order recorded); true when all of it is done. A row skipped (held
   * elsewhere, or an older one of its slot request left) leaves that slot request's later rows for the sweep.
   */
  async function doIngestWork(work: readonly RecordedWork<GeneratedTimestamp>[]): Promise<boolean> {
    const blocked = new Set<number>();
    let all = true;
    for (const recorded of work) {
      let outcome: IngestOutcome;
      try {
        outcome = await ingestTogether(recorded);
      } catch (err) {
        log.error({ err }, 'generated timestamps not done yet; retried later');
        return false;
      }
      if (outcome.kind === 'skipped' || blocked.has(outcome.row.slot_reservation_id)) {
        if (outcome.kind !== 'skipped') await releaseTimestampWork(db, [outcome.row.seq]);
        all = false;
        continue;
      }
      const { row } = outcome;
      try {
        if (outcome.kind === 'removal') {
          await removeTimestamps(row.slot_reservation_id, row.actor as Actor);
          await timestampWorkDone(db, [row.seq]);
        } else if (outcome.again.length > 0) await postAgain(row, outcome.again);
      } catch (err) {
        log.error(
          { err, slot_reservation_id: row.slot_reservation_id },
          'generated timestamps not done yet; retried later',
        );
        await releaseTimestampWork(db, [row.seq]).catch(() => {});
        blocked.add(row.slot_reservation_id);
        all = false;
      }
    }
    return all;
  }

  /**
   * The ingest work a crash or a busy ingest left undone (at start, then regularly): per slot request, its rows
   * in order, queued behind what this process still does for it. Several processes may sweep at once: the claims
   * let one of them do each row, in order.
   */
  async function sweepTimestampWork(): Promise<number> {
    const heads = await claimableTimestampWork(db);
    for (const { slot_reservation_id: id, seq } of heads) {
      enqueue([`slot-${id}`], async () => {
        for (let next: string | undefined = seq; next !== undefined; ) {
          if (!(await doIngestWork([{ seq: next }]))) return;
          next = await nextTimestampWork(db, id, next);
        }
      });
    }
    return heads.length;
  }

  // What follows a commit runs after the reply, in order per slot request (a cancellation's removal of the
  // timestamps waits for their posting); `settled()` waits for all of it (tests, shutdown).
  const chains = new Map<string, Promise<void>>();
  function enqueue(keys: string[], work: () => Promise<void>): void {
    const previous = Promise.all(keys.map((k) => chains.get(k)));
    const run = previous.then(work).catch((err) => log.error({ err }, 'queue after-commit work failed'));
    for (const k of keys) chains.set(k, run);
    void run.finally(() => {
      for (const k of keys) if (chains.get(k) === run) chains.delete(k);
    });
  }
  const settled = async () => {
    while (chains.size > 0) await Promise.all(chains.values());
  };
  // The completion times this process armed lately (a bounded memory, oldest forgotten first).
  const completionArmed = new Map<number, number>();
  const armCompletion = (id: number, at: number) => {
    completionArmed.delete(id);
    completionArmed.set(id, at);
    if (completionArmed.size > 10_000) completionArmed.delete(completionArmed.keys().next().value as number);
  };
  const finishLater = (done: AfterCommit) =>
    enqueue(
      [...done.slots.map((x) => `slot-${x.state.id}`), ...done.removeTimestampsOf.map((id) => `slot-${id}`)],
      () => finish(done),
    );

  async function finish(after: AfterCommit): Promise<void> {
    const settings = after.slots.length > 0 ? (after.settings ?? (await settingsOf(db))) : undefined;
    await doIngestWork(after.work);
    for (const { state, event } of after.slots) {
      if (event.type !== 'SlotRequestCancelled' && event.type !== 'SlotRequestCompleted' && settings) {
        const due = completionDue(state, settings);
        // Scheduling it again at the same time is a no-op: skipped without asking the job queue.
        if (due !== null && completionArmed.get(state.id) !== due) {
          await deps.jobs?.completeSlotRequest(state.id, due);
          armCompletion(state.id, due);
        }
      }
      if (event.type === 'SlotRequestCompleted') continue;
      await notifications
        .slotRequestChanged({
          slot_request_id: state.id,
          event: event.type,
          status: state.status,
          email: state.email,
          imo: state.imo,
          vessel_name: state.vessel_name,
          rta_window_start: state.rta_window_start,
          rta_window_end: state.rta_window_end,
          jit_eta: state.jit_eta,
        })
        .catch((err) => log.error({ err, slot_reservation_id: state.id }, 'slot request notice failed'));
    }
    for (const block of after.blocks) {
      const berth = (await loadBerth(db, block.berth_id)).state.berth;
      await notifications
        .berthBlockShifted({
          berth_id: block.berth_id,
          berth_code: berth?.code ?? '',
          berth_name: berth?.name ?? '',
          berth_reservation_id: block.id,
          reservation_start: block.reservation_start,
          reservation_end: block.reservation_end,
        })
        .catch((err) => log.error({ err, berth_reservation_id: block.id }, 'berth block notice failed'));
    }
  }

  // ---- shared steps inside a transaction ----

  /**
   * A decision's part on one stream: its events, the version it read the stream at, and how its rows follow (given
   * the stream's new version and where to write: the transaction, or GatheredWrites to go in one later statement).
   */
  interface StreamPart extends StreamWrite {
    project(writes: Queryable, version: number): Promise<void>;
    /** Its rows go to the transaction at once, not gathered (a row written more than once). */
    direct?: boolean;
  }

  const slotPart = (id: number, events: SlotRequestEvent[], version: number | 'no_stream', actor: number | null) =>
    ({
      streamId: slotRequestStream(id),
      events,
      expectedVersion: version,
      project: (writes, next) => projectSlotRequest(writes, events, next, actor),
    }) satisfies StreamPart;

  // Each calendar event also sets the berth's version on its row: more than one goes straight to the transaction.
  const berthPart = (berthId: number, events: BerthEvent[], version: number, actor: number | null) =>
    ({
      streamId: berthStream(berthId),
      events,
      expectedVersion: version,
      project: (writes, next) => projectBerth(writes, berthId, events, next, actor),
      direct: events.length > 1,
    }) satisfies StreamPart;

  const nominationPart = (id: number, events: NominationEvent[], version: number, actor: number | null) =>
    ({
      streamId: nominationStream(id),
      events,
      expectedVersion: version,
      project: (writes, next) => projectNomination(writes, events, next, actor),
    }) satisfies StreamPart;

  /**
   * Appends every stream of a decision in one statement (each with the version it was read at: a lost race on any
   * refuses all), then writes their rows: in `tx`, or gathered in `writes` to go with the ingest work.
   */
  async function appendParts(
    tx: Queryable,
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
  function placementParts(
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

  /** Every pending slot request (or those of one IMO) placed again, each in its own transaction. */
  async function resolve(metadata: EventMetadata, actor: Actor, imo?: number): Promise<void> {
    for (const id of await pendingSlotRequestIds(db, imo)) {
      const after = afterCommit();
      await transact(async (tx) => {
        after.slots = [];
        const loaded = await loadSlotRequest(tx, id);
        if (!loaded) return;
        const slot = loaded.state;
        const nominationId = slot.status === 'no_free_slot' ? slot.nomination_id : null;
        // No lock: a placement may read many berths but appends to one, and that berth's expected version refuses
        // it if another placement took the calendar on meanwhile (then it decides again), so unrelated requests on
        // the other berths never wait for each other.
        const inputs = await loadPlacementInputs(tx, slot.imo, nominationId, false);
        const { nominations, berths } = inputs;
        after.settings = queueSettings(inputs.settings);
        const placed = decideResolve(slot, {
          settings: after.settings,
          now: now(),
          nominations: nominations.map((n) => n.state),
          berths: (berthId) => berths.get(berthId)?.state,
          reservationId: inputs.reservationId,
        });
        if (!placed) return;
        const event: SlotRequestEvent = { type: 'SlotRequestResolved', data: { id, ...placed.placement } };
        const writes = new GatheredWrites();
        const actorId = metadata.user_id ?? null;
        await appendParts(
          tx,
          [slotPart(id, [event], loaded.version, actorId), ...placementParts(placed, berths, nominations, actorId)],
          metadata,
          writes,
        );
        after.slots.push({ state: { ...slot, ...placed.placement }, event, firstEta: true });
        await recordIngestWork(tx, after, actor, writes);
      });
      finishLater(after);
    }
  }

  // ---- berths ----

  async function createBerth(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<BerthInput>(payload);
    const metadata = eventMetadata(actor, headers);
    return transact((tx) =>
      decideOnce(tx, 'queue', headers, async () => {
        const id = await nextId(tx, 'berth_ids');
        const events = decideCreateBerth(id, input);
        const next = await appendTo(tx, store, berthStream(id), events, 'no_stream', metadata);
        await projectBerth(tx, id, events, next, actor.user_id);
        return OK;
      }),
    );
  }

  const changeBerth =
    (decide: (state: BerthState, input: BerthInput & { id: number }) => ReturnType<typeof decideUpdateBerth>) =>
    async (payload: unknown, headers: Record<string, unknown> = {}) => {
      const { actor, input } = decodeCommand<BerthInput & { id: number }>(payload);
      const metadata = eventMetadata(actor, headers);
      await transact(async (tx) => {
        await lockBerths(tx, [input.id]);
        const { state, version } = await loadBerth(tx, input.id);
        const events = decide(state, input);
        if (events.length === 0) return;
        const next = await appendTo(tx, store, berthStream(input.id), events, version, metadata);
        await projectBerth(tx, input.id, events, next, actor.user_id);
      });
      return OK;
    };

  // ---- nominations ----

  async function nominationContext(tx: Queryable, berthIds: unknown[] | undefined): Promise<NominationContext> {
    const berths = new Map<number, NonNullable<BerthState['berth']>>();
    for (const raw of berthIds ?? []) {
      const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id > 2_147_483_647 || id < 0) continue;
      const berth = (await loadBerth(tx, id)).state.berth;
      if (berth) berths.set(id, berth);
    }
    return { now: now(), timeZone, berths: (id) => berths.get(id) };
  }

  async function scheduleExpiry(id: number, windowEnd: string) {
    const at = parseAtom(windowEnd);
    if (at !== undefined) await deps.jobs?.expireNomination(id, at + 1000);
  }

  async function createNomination(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<NominationInput>(payload);
    const metadata = eventMetadata(actor, headers);
    // A request delivered again answers with what the first delivery created (its expiry armed again: a no-op).
    const created = await transact((tx) =>
      decideOnce(tx, 'queue', headers, async () => {
        const context = await nominationContext(tx, input.berth_ids);
        const id = await nextId(tx, 'nomination_ids');
        const events = decideCreateNomination(id, input, context, input.owner_user_id ?? actor.user_id);
        const next = await appendTo(tx, store, nominationStream(id), events, 'no_stream', metadata);
        await projectNomination(tx, events, next, actor.user_id);
        const { window_end } = events[0].data as { window_end: string };
        return { id, window_end };
      }),
    );
    await scheduleExpiry(created.id, created.window_end);
    await resolve(metadata, actor, input.imo);
    return OK;
  }

  async function updateNomination(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<NominationInput & { id: number }>(payload);
    const metadata = eventMetadata(actor, headers);
    const updated = await transact(async (tx) => {
      const { state, version } = await loadNomination(tx, input.id);
      const events = decideUpdateNomination(state, input, await nominationContext(tx, input.berth_ids), actor.user_id);
      if (events.length === 0) return undefined;
      const next = await appendTo(tx, store, nominationStream(input.id), events, version, metadata);
      await projectNomination(tx, events, next, actor.user_id);
      return events[0].data as { id: number; window_end: string; imo: number };
    });
    if (updated) {
      await scheduleExpiry(updated.id, updated.window_end);
      await resolve(metadata, actor, updated.imo);
    }
    return OK;
  }

  async function deleteNomination(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<IdInput & { own?: boolean }>(payload);
    const metadata = eventMetadata(actor, headers);
    await transact(async (tx) => {
      const { state, version } = await loadNomination(tx, input.id);
      const events = decideDeleteNomination(state, input.id, now(), actor.user_id, input.own === true);
      const next = await appendTo(tx, store, nominationStream(input.id), events, version, metadata);
      await projectNomination(tx, events, next, actor.user_id);
    });
    return OK;
  }

  /** The expiry job: records an ended window (nothing when it is no longer due). */
  async function expireNomination(id: number): Promise<void> {
    await transact(async (tx) => {
      const { state, version } = await loadNomination(tx, id);
      const events = decideExpireNomination(state, now());
      if (events.length === 0) return;
      const next = await appendTo(tx, store, nominationStream(id), events, version, {});
      await projectNomination(tx, events, next, null);
    });
  }

  // ---- berth reservations (port blocks) ----

  async function createBerthReservation(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<BerthReservationInput>(payload);
    const metadata = eventMetadata(actor, headers);
    const berthId = input.berth_id as number;
    await transact((tx) =>
      decideOnce(tx, 'queue', headers, async () => {
        await lockBerths(tx, [berthId]);
        const { state, version } = await loadBerth(tx, berthId);
        const slotId = input.slot_reservation_id ?? null;
        const slotExists = slotId !== null && (await loadSlotRequest(tx, slotId)) !== undefined;
        const id = await nextId(tx, 'berth_reservation_ids');
        const events = decideCreateReservation(state, berthId, id, input, slotExists);
        const next = await appendTo(tx, store, berthStream(berthId), events, version, metadata);
        await projectBerth(tx, berthId, events, next, actor.user_id);
        return OK;
      }),
    );
    await resolve(metadata, actor);
    return OK;
  }

  const changeReservation =
    (
      decide: (
        state: BerthState,
        input: BerthReservationInput & { id: number },
      ) => ReturnType<typeof decideMoveReservation>,
    ) =>
    async (payload: unknown, headers: Record<string, unknown> = {}) => {
      const { actor, input } = decodeCommand<BerthReservationInput & { id: number }>(payload);
      const metadata = eventMetadata(actor, headers);
      const changed = await transact(async (tx) => {
        const berthId = await berthOfReservation(tx, input.id);
        if (berthId === undefined) {
          throw ApiError.badRequest(`Cannot find berth reservation instance with given id: ${input.id}`);
        }
        await lockBerths(tx, [berthId]);
        const { state, version } = await loadBerth(tx, berthId);
        const events = decide(state, input);
        if (events.length === 0) return false;
        const next = await appendTo(tx, store, berthStream(berthId), events, version, metadata);
        await projectBerth(tx, berthId, events, next, actor.user_id);
        return true;
      });
      if (changed) await resolve(metadata, actor);
      return OK;
    };

  // ---- slot requests ----

  async function createSlotRequest(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<SlotRequestInput>(payload);
    const request = readSlotRequest(input);
    const metadata = eventMetadata(actor, headers);
    const after = afterCommit();
    // A request delivered again (its reply lost in a crash) answers OK and creates nothing more: no second slot
    // request, reservation or nomination taken, nothing left to do after the commit. As decideOnce (libs/commands)
    // does, the request's RPC id is claimed in the decision's transaction, here in its first statement and with its
    // reply (always OK) at once: a rollback takes both back, a concurrent delivery waits for the claim's outcome.
    const rpcId = headers[RPC_ID_HEADER];
    const claim = typeof rpcId === 'string' && rpcId !== '' ? { rpcId, reply: OK } : undefined;
    await transact(async (tx) => {
      after.slots = [];
      after.work = [];
      // One statement: the claim, the ids, the IMO's open nominations, their berths' calendars and the settings.
      // No lock (see resolve): the berth's expected version keeps two placements off one gap.
      const inputs = await loadPlacementInputs(tx, request.imo, null, true, claim);
      if (!inputs.claimed) return;
      const { nominations, berths, reservationId } = inputs;
      const id = inputs.slotId as number;
      after.settings = queueSettings(inputs.settings);
      // The bound is a setting, read here: a refusal rolls back the claim and stores nothing.
      checkLaytimeBound(request.laytimeMs, input.agent, after.settings);
      const placed = place(
        id,
        { ...request, nomination_id: null },
        {
          settings: after.settings,
          now: now(),
          nominations: nominations.map((n) => n.state),
          berths: (berthId) => berths.get(berthId)?.state,
          reservationId,
        },
      );
      const event = receivedEvent(id, request, placed);
      // The three streams in one append; the rows go with the ingest work in one statement.
      const writes = new GatheredWrites();
      const actorId = metadata.user_id ?? null;
      await appendParts(
        tx,
        [slotPart(id, [event], 'no_stream', actorId), ...placementParts(placed, berths, nominations, actorId)],
        metadata,
        writes,
      );
      after.slots.push({ state: event.data as SlotRequestData, event, firstEta: true });
      await recordIngestWork(tx, after, actor, writes);
    });
    finishLater(after);
    return OK;
  }

  /**
   * Reads a slot request for a change with its berth's lock (loadSlotRequestForChange) and decides on it. Those reads
   * may be from before the lock was had: a decision is checked at its end (appendParts, recordIngestWork), and a
   * refusal stands only once read again under the lock (one statement more, for refusals only).
   */
  async function decideOnSlotForChange<T>(
    tx: Queryable,
    id: number,
    decide: (context: SlotRequestForChange) => T,
  ): Promise<{ context: SlotRequestForChange; decided: T }> {
    for (let again = false; ; again = true) {
      const context = await loadSlotRequestForChange(tx, id);
      try {
        if (!context) throw cannotFindSlotRequest(id);
        return { context, decided: decide(context) };
      } catch (error) {
        if (again || !(error instanceof ApiError)) throw error;
      }
    }
  }

  /** The berth a change read, to be checked at its end when it appends nothing to it (its parts). */
  const berthToCheck = (context: SlotRequestForChange, parts: readonly StreamPart[]) => {
    const id = context.slot.state.berth_id;
    if (!context.berth || id === null || parts.some((p) => p.streamId === berthStream(id))) return undefined;
    return { id, version: context.berth.version };
  };

  async function updateSlotRequest(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<SlotRequestInput & { id: number }>(payload);
    const metadata = eventMetadata(actor, headers);
    const after = afterCommit();
    await transact(async (tx) => {
      after.slots = [];
      after.blocks = [];
      // The slot request, its berth's lock, its berth, nomination, the berth's other vessels (a push forward may
      // move them) and the settings, in one statement.
      const { context, decided: update } = await decideOnSlotForChange(tx, input.id, (c) =>
        decideUpdate(
          c.slot.state,
          {
            laytime: input.laytime,
            jit_eta: input.jit_eta,
            rta_window_start: input.rta_window_start,
            agent: input.agent,
          },
          {
            settings: queueSettings(c.settings),
            berth: c.berth?.state ?? { berth: null, reservations: new Map() },
            nomination: c.nomination?.state,
            slotRequests: (id) => c.others.get(id)?.state,
            nominationWindowEnd: (id) => c.otherWindowEnds.get(id),
          },
        ),
      );
      const { slot: loaded, berth, others } = context;
      const slot = loaded.state;
      after.settings = queueSettings(context.settings);
      // Every stream in one append. The slot requests' rows (one write each) go with the ingest work in one
      // statement; the berth's, when written several times, at once.
      const shifted = update.shiftedSlotEvents.map((e) => e.data.id);
      const oncePerRow = update.slotEvents.length <= 1 && new Set(shifted).size === shifted.length;
      const writes = oncePerRow ? new GatheredWrites() : undefined;
      const actorId = metadata.user_id ?? null;
      const parts: StreamPart[] = [slotPart(slot.id, update.slotEvents, loaded.version, actorId)];
      if (update.berthEvents.length > 0 && berth && slot.berth_id !== null) {
        parts.push(berthPart(slot.berth_id, update.berthEvents, berth.version, actor.user_id));
      }
      for (const event of update.shiftedSlotEvents) {
        const other = others.get(event.data.id) as Versioned<SlotRequestData>;
        parts.push(slotPart(other.state.id, [event], other.version, actorId));
        after.slots.push({ state: { ...other.state, ...event.data } as SlotRequestData, event, firstEta: false });
      }
      await appendParts(tx, parts, metadata, writes);
      const own = update.slotEvents[0];
      after.slots.unshift({ state: { ...slot, ...own.data } as SlotRequestData, event: own, firstEta: false });
      after.blocks.push(...update.shiftedBlocks);
      await recordIngestWork(tx, after, actor, writes, berthToCheck(context, parts));
    });
    finishLater(after);
    return OK;
  }

  async function cancelSlotRequest(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<CancelSlotRequestInput>(payload);
    const metadata = eventMetadata(actor, headers);
    const after = afterCommit();
    await transact(async (tx) => {
      after.slots = [];
      const { context, decided: cancel } = await decideOnSlotForChange(tx, input.id, (c) =>
        decideCancel(c.slot.state, input.by_vessel === true, c.berth?.state, c.nomination?.state),
      );
      const { slot: loaded, berth, nomination } = context;
      const slot = loaded.state;
      // Every stream in one append; the rows (one each of the slot request, berth, reservation and nomination)
      // go with the ingest work in one statement.
      const parts: StreamPart[] = [slotPart(slot.id, [cancel.slotEvent], loaded.version, metadata.user_id ?? null)];
      if (cancel.berthEvent && berth && slot.berth_id !== null) {
        parts.push(berthPart(slot.berth_id, [cancel.berthEvent], berth.version, actor.user_id));
      }
      if (cancel.nominationEvent && nomination && slot.nomination_id !== null) {
        parts.push(nominationPart(slot.nomination_id, [cancel.nominationEvent], nomination.version, actor.user_id));
      }
      const writes = new GatheredWrites();
      await appendParts(tx, parts, metadata, writes);
      const status = (cancel.slotEvent.data as { status: SlotRequestData['status'] }).status;
      after.slots.push({ state: { ...slot, status }, event: cancel.slotEvent, firstEta: false });
      after.removeTimestampsOf = [slot.id];
      await recordIngestWork(tx, after, actor, writes, berthToCheck(context, parts));
    });
    finishLater(after);
    return OK;
  }

  /** The completion job: records a slot request completed once its time has passed. */
  async function completeSlotRequest(id: number): Promise<void> {
    await transact(async (tx) => {
      const loaded = await loadSlotRequest(tx, id);
      if (!loaded) return;
      const events = decideComplete(loaded.state, await settingsOf(tx), now());
      if (events.length === 0) return;
      await appendParts(tx, [slotPart(id, events, loaded.version, null)], {});
    });
  }

  const handlers: Record<string, CommandFunction> = {
    [QueueCommands.createBerth]: createBerth,
    [QueueCommands.updateBerth]: changeBerth(decideUpdateBerth),
    [QueueCommands.deleteBerth]: changeBerth((state, input) => decideDeleteBerth(state, input.id)),
    [QueueCommands.createNomination]: createNomination,
    [QueueCommands.updateNomination]: updateNomination,
    [QueueCommands.deleteNomination]: deleteNomination,
    [QueueCommands.createBerthReservation]: createBerthReservation,
    [QueueCommands.updateBerthReservation]: changeReservation((state, input) =>
      decideMoveReservation(state, input.id, input),
    ),
    [QueueCommands.deleteBerthReservation]: changeReservation((state, input) =>
      decideRemoveReservation(state, input.id),
    ),
    [QueueCommands.createSlotRequest]: createSlotRequest,
    [QueueCommands.updateSlotRequest]: updateSlotRequest,
    [QueueCommands.cancelSlotRequest]: cancelSlotRequest,
  };
  return { handlers, expireNomination, completeSlotRequest, cannotFindNomination, settled, sweepTimestampWork };
}
