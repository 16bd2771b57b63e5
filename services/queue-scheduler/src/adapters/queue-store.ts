// The queue's read models (schema `queue`), written in the transaction of the append they follow, and the
// aggregate states the commands decide on, read back from them with the stream version each row records (a row
// and its stream commit together, so the version read is the version of what was read). Every column but the
// created/modified times comes from the events: the tables can be dropped and rebuilt from the log.

import { decidedCommandsTableSql } from '@pcas/commands';
import type {
  BerthEvent,
  BerthReservationData,
  NominationEvent,
  NominationStatus,
  SlotRequestData,
  SlotRequestEvent,
} from '@pcas/contracts';
import { type EventMetadata, type EventStore, type ExpectedVersion, WrongExpectedVersionError } from '@pcas/eventstore';
import { type Queryable, type QueryResult, together } from '@pcas/sql';
import { parseAtom } from '@pcas/values';
import type { BerthState } from '../domain/berths.ts';
import type { NominationState } from '../domain/nominations.ts';
import { msToIsoDuration } from '../domain/queue-rules.ts';

export const QUEUE_DDL = [
  'CREATE SEQUENCE IF NOT EXISTS queue.berth_ids',
  'CREATE SEQUENCE IF NOT EXISTS queue.nomination_ids',
  'CREATE SEQUENCE IF NOT EXISTS queue.berth_reservation_ids',
  'CREATE SEQUENCE IF NOT EXISTS queue.slot_reservation_ids',
  // One row per berth (stream berth-<id>); `version` is the stream's: the calendar below is read at it.
  `CREATE TABLE IF NOT EXISTS queue.berths (
     id integer PRIMARY KEY,
     code text NOT NULL,
     name text NOT NULL,
     nominatable boolean NOT NULL DEFAULT false,
     version integer NOT NULL,
     created_by integer,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer,
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  // The berths' calendars: GET /berth-reservations (one berth, by start) and the slot search.
  `CREATE TABLE IF NOT EXISTS queue.berth_reservations (
     id integer PRIMARY KEY,
     berth_id integer NOT NULL,
     berth_reservation_type text NOT NULL,
     reservation_start timestamptz NOT NULL,
     reservation_end timestamptz NOT NULL,
     slot_reservation_id integer,
     created_by integer,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer,
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS berth_reservations_berth ON queue.berth_reservations (berth_id, reservation_start)',
  // Nominations (stream nomination-<id>): GET /nominations, /own-nominations (created_by), and the open ones of an IMO.
  `CREATE TABLE IF NOT EXISTS queue.nominations (
     id integer PRIMARY KEY,
     company_name text NOT NULL,
     email text NOT NULL,
     imo integer NOT NULL,
     vessel_name text NOT NULL,
     nomination_status text NOT NULL,
     window_start timestamptz NOT NULL,
     window_end timestamptz NOT NULL,
     berth_ids integer[] NOT NULL,
     slot_reservation_id integer,
     version integer NOT NULL,
     created_by integer,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer,
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS nominations_imo ON queue.nominations (imo, nomination_status)',
  'CREATE INDEX IF NOT EXISTS nominations_created_by ON queue.nominations (created_by)',
  // Slot requests (stream slotrequest-<id>). The live ETA columns are the live-ETA alert's.
  `CREATE TABLE IF NOT EXISTS queue.slot_reservations (
     id integer PRIMARY KEY,
     nomination_id integer,
     berth_id integer,
     berth_reservation_id integer,
     email text NOT NULL,
     imo integer NOT NULL,
     vessel_name text NOT NULL,
     loa real,
     beam real,
     draft real,
     laytime interval NOT NULL,
     eta timestamptz NOT NULL,
     rta_window_start timestamptz,
     rta_window_end timestamptz,
     jit_eta timestamptz,
     slot_reservation_status text NOT NULL,
     port_call_id integer,
     jit_eta_discrepancy_time timestamptz,
     jit_eta_alert_state text NOT NULL DEFAULT 'green',
     version integer NOT NULL,
     created_by integer,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer,
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS slot_reservations_status ON queue.slot_reservations (slot_reservation_status, imo)',
  // The timestamps a slot request put on its port call (ingest's ids), so a cancellation can remove them.
  `CREATE TABLE IF NOT EXISTS queue.generated_timestamps (
     slot_reservation_id integer NOT NULL,
     timestamp_id bigint NOT NULL,
     PRIMARY KEY (slot_reservation_id, timestamp_id)
   )`,
  // What a committed decision leaves to do at ingest (post these timestamps; timestamps null: remove the slot
  // request's), written in the decision's transaction and deleted once done, so a crash after the commit loses
  // nothing: the rows left are done at the next start. seq keeps each slot request's order.
  `CREATE TABLE IF NOT EXISTS queue.timestamp_outbox (
     seq bigserial PRIMARY KEY,
     slot_reservation_id integer NOT NULL,
     timestamps jsonb,
     actor jsonb NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS timestamp_outbox_slot ON queue.timestamp_outbox (slot_reservation_id, seq)',
  // A process's claim on a row while it posts it (claimTimestampWork): two processes never post one row at once,
  // and a crashed poster's claim expires.
  'ALTER TABLE queue.timestamp_outbox ADD COLUMN IF NOT EXISTS claimed_until timestamptz',
  // The create requests decided, by RPC id: a redelivered one answers the first reply (libs/commands decideOnce).
  decidedCommandsTableSql('queue'),
];

export type IdSequence = 'berth_ids' | 'nomination_ids' | 'berth_reservation_ids' | 'slot_reservation_ids';

export async function nextId(q: Queryable, sequence: IdSequence): Promise<number> {
  return (await q.query<{ id: number }>(`SELECT nextval('queue.${sequence}')::int AS id`)).rows[0].id;
}

/** Appends to one stream inside `tx` with the expected version; returns the stream's new version. */
export async function appendTo(
  tx: Queryable,
  store: EventStore,
  streamId: string,
  events: readonly { type: string; data: unknown }[],
  expectedVersion: ExpectedVersion,
  metadata: EventMetadata,
): Promise<number> {
  const result = await store.append(
    streamId,
    events.map((e) => ({ type: e.type, data: e.data, metadata })),
    { tx, expectedVersion },
  );
  return result.nextExpectedVersion;
}

/** One stream's part of a decision: its events and the version the decision read it at. */
export interface StreamWrite {
  streamId: string;
  events: readonly { type: string; data: unknown }[];
  expectedVersion: number | 'no_stream';
}

/**
 * Appends a decision's events to all its streams inside `tx` in one statement (the event store's appendMany; a
 * single stream goes through append); returns each stream's new version, in the given order. appendMany takes no
 * expected versions (it appends at each stream's end, under the stream's lock), so they are checked on what it
 * stored: a stream's first new event must sit right after the version read (1 for 'no_stream'). A stream another
 * writer moved on meanwhile gets a later position and the decision is refused (WrongExpectedVersionError, the
 * transaction rolled back with what was appended), as append's own check refuses it.
 */
export async function appendStreams(
  tx: Queryable,
  store: EventStore,
  writes: readonly StreamWrite[],
  metadata: EventMetadata,
): Promise<number[]> {
  const parts = writes.filter((w) => w.events.length > 0);
  const versions = new Map<string, number>();
  const versionOf = (w: StreamWrite) =>
    versions.get(w.streamId) ?? (w.expectedVersion === 'no_stream' ? 0 : w.expectedVersion);
  if (new Set(parts.map((w) => w.streamId)).size !== parts.length) throw new Error('appendStreams: each stream once');
  if (parts.length <= 1) {
    for (const w of parts) {
      versions.set(w.streamId, await appendTo(tx, store, w.streamId, w.events, w.expectedVersion, metadata));
    }
    return writes.map(versionOf);
  }
  const results = await store.appendMany(
    parts.map((w) => ({
      streamId: w.streamId,
      events: w.events.map((e) => ({ type: e.type, data: e.data, metadata })),
    })),
    { tx },
  );
  parts.forEach((w, i) => {
    const expected = w.expectedVersion === 'no_stream' ? 0 : w.expectedVersion;
    const first = results[i].events[0];
    if (first.duplicate || first.streamPosition !== expected + 1) {
      throw new WrongExpectedVersionError(w.streamId, w.expectedVersion, first.streamPosition - 1);
    }
    versions.set(w.streamId, results[i].nextExpectedVersion);
  });
  return writes.map(versionOf);
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`;

/** Serialises writers of these berths (ascending, so two transactions never wait on each other in a circle). */
export async function lockBerths(tx: Queryable, berthIds: readonly number[]): Promise<void> {
  if (berthIds.length === 0) return;
  // One statement; the sorted subquery gives the order the locks are taken in.
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtext('queue.berth'), id)
       FROM (SELECT DISTINCT id FROM unnest($1::int[]) AS u(id) ORDER BY id) AS sorted`,
    [berthIds],
  );
}

export interface Versioned<S> {
  state: S;
  version: number;
}

/** A berth with its calendar, at its stream version (0 and no berth when unknown). */
export async function loadBerth(q: Queryable, id: number): Promise<Versioned<BerthState>> {
  const berth = await q.query<{ id: number; code: string; name: string; nominatable: boolean; version: number }>(
    'SELECT id, code, name, nominatable, version FROM queue.berths WHERE id = $1',
    [id],
  );
  const row = berth.rows[0];
  if (!row) return { state: { berth: null, reservations: new Map() }, version: 0 };
  const reservations = await q.query<BerthReservationData>(
    `SELECT id, berth_id, berth_reservation_type, ${iso('reservation_start')} AS reservation_start,
            ${iso('reservation_end')} AS reservation_end, slot_reservation_id
       FROM queue.berth_reservations WHERE berth_id = $1`,
    [id],
  );
  return {
    state: {
      berth: { id: row.id, code: row.code, name: row.name, nominatable: row.nominatable },
      reservations: new Map(reservations.rows.map((r) => [r.id, r])),
    },
    version: row.version,
  };
}

/** The berth a reservation is on. */
export async function berthOfReservation(q: Queryable, reservationId: number): Promise<number | undefined> {
  const { rows } = await q.query<{ berth_id: number }>('SELECT berth_id FROM queue.berth_reservations WHERE id = $1', [
    reservationId,
  ]);
  return rows[0]?.berth_id;
}

const NOMINATION_COLUMNS = `id, company_name, email, imo, vessel_name, nomination_status, ${iso('window_start')} AS window_start,
  ${iso('window_end')} AS window_end, berth_ids, slot_reservation_id, created_by, version`;

interface NominationRow {
  id: number;
  company_name: string;
  email: string;
  imo: number;
  vessel_name: string;
  nomination_status: NominationStatus;
  window_start: string;
  window_end: string;
  berth_ids: number[];
  slot_reservation_id: number | null;
  created_by: number | null;
  version: number;
}

const nominationState = (r: NominationRow): Versioned<NominationState> => ({
  state: {
    nomination: {
      id: r.id,
      company_name: r.company_name,
      email: r.email,
      imo: r.imo,
      vessel_name: r.vessel_name,
      window_start: r.window_start,
      window_end: r.window_end,
      berth_ids: r.berth_ids,
      created_by: r.created_by,
    },
    status: r.nomination_status,
    slot_reservation_id: r.slot_reservation_id,
  },
  version: r.version,
});

export async function loadNomination(q: Queryable, id: number): Promise<Versioned<NominationState>> {
  const { rows } = await q.query<NominationRow>(`SELECT ${NOMINATION_COLUMNS} FROM queue.nominations WHERE id = $1`, [
    id,
  ]);
  return rows[0]
    ? nominationState(rows[0])
    : { state: { nomination: null, status: 'open', slot_reservation_id: null }, version: 0 };
}

const SLOT_COLUMNS = `id, email, imo, vessel_name, loa::float8 AS loa, beam::float8 AS beam, draft::float8 AS draft,
  extract(epoch FROM laytime)::float8 AS laytime_s, ${iso('eta')} AS eta,
  slot_reservation_status AS status, nomination_id, berth_id, berth_reservation_id,
  ${iso('rta_window_start')} AS rta_window_start, ${iso('rta_window_end')} AS rta_window_end, ${iso('jit_eta')} AS jit_eta, version`;

export interface SlotRow extends Omit<SlotRequestData, 'laytime'> {
  laytime_s: number;
  version: number;
}

function slotState(r: SlotRow): Versioned<SlotRequestData> {
  const { laytime_s, version, ...rest } = r;
  return { state: { ...rest, laytime: msToIsoDuration(laytime_s * 1000) }, version };
}

export async function loadSlotRequest(q: Queryable, id: number): Promise<Versioned<SlotRequestData> | undefined> {
  const { rows } = await q.query<SlotRow>(`SELECT ${SLOT_COLUMNS} FROM queue.slot_reservations WHERE id = $1`, [id]);
  return rows[0] ? slotState(rows[0]) : undefined;
}

// ---- What a command decides on, read in one statement (one round trip instead of one per table) ----

const BERTH_COLUMNS = 'id, code, name, nominatable, version';
const RESERVATION_COLUMNS = `id, berth_id, berth_reservation_type, ${iso('reservation_start')} AS reservation_start,
  ${iso('reservation_end')} AS reservation_end, slot_reservation_id`;

interface BerthRow {
  id: number;
  code: string;
  name: string;
  nominatable: boolean;
  version: number;
}

const berthState = (row: BerthRow, reservations: BerthReservationData[]): Versioned<BerthState> => ({
  state: {
    berth: { id: row.id, code: row.code, name: row.name, nominatable: row.nominatable },
    reservations: new Map(reservations.map((r) => [r.id, r])),
  },
  version: row.version,
});
const NO_BERTH: Versioned<BerthState> = { state: { berth: null, reservations: new Map() }, version: 0 };

/** What a placement decides on: the nominations, every berth they name (with its calendar) and the settings. */
export interface PlacementInputs {
  /** False when the request's RPC id was decided before (claimPlacement): nothing is to be decided. */
  claimed: boolean;
  /** A fresh slot request id (when asked for) and a fresh berth reservation id. */
  slotId: number | null;
  reservationId: number;
  nominations: Versioned<NominationState>[];
  berths: Map<number, Versioned<BerthState>>;
  settings: Record<string, string>;
}

/** How long a decided request is remembered: far longer than any request waits in its queue (as libs/commands). */
const REMEMBERED = '1 day';
/** One claim in this many also forgets the requests older than that. */
const PRUNE_EVERY = 1000;
let claims = 0;

/**
 * A placement's inputs in one statement: the open nominations of `imo` (or the nomination `nominationId`, whatever
 * its status), their berths with their calendars at the berths' versions, the settings and the new ids. With
 * `claim`, the statement also claims the request's RPC id in queue.decided_commands with its reply, as decideOnce
 * (libs/commands) does in a statement of its own: `claimed` false means it was decided before (a redelivery), and a
 * concurrent delivery of it waits on this row until this transaction ends.
 */
export async function loadPlacementInputs(
  q: Queryable,
  imo: number,
  nominationId: number | null,
  withSlotId: boolean,
  claim?: { rpcId: string; reply: unknown },
): Promise<PlacementInputs> {
  const settings = await settingsSubquery(q);
  const claimCte = claim
    ? `claim AS (INSERT INTO queue.decided_commands (rpc_id, reply) VALUES ($2, $3::jsonb) ON CONFLICT DO NOTHING
                  RETURNING 1),`
    : '';
  const { rows } = await q.query<{
    claimed: boolean;
    slot_id: number | null;
    reservation_id: number;
    nominations: NominationRow[];
    berths: BerthRow[];
    reservations: BerthReservationData[];
    settings: Record<string, string>;
  }>(
    `WITH ${claimCte}
          noms AS (SELECT ${NOMINATION_COLUMNS} FROM queue.nominations
                    WHERE ${nominationId === null ? "imo = $1 AND nomination_status = 'open'" : 'id = $1'}),
          bs AS (SELECT ${BERTH_COLUMNS} FROM queue.berths WHERE id IN (SELECT unnest(berth_ids) FROM noms)),
          rs AS (SELECT ${RESERVATION_COLUMNS} FROM queue.berth_reservations WHERE berth_id IN (SELECT id FROM bs))
     SELECT ${claim ? 'EXISTS (SELECT 1 FROM claim)' : 'true'} AS claimed,
            ${withSlotId ? "nextval('queue.slot_reservation_ids')::int" : 'NULL::int'} AS slot_id,
            nextval('queue.berth_reservation_ids')::int AS reservation_id,
            (SELECT coalesce(json_agg(noms ORDER BY id), '[]') FROM noms) AS nominations,
            (SELECT coalesce(json_agg(bs), '[]') FROM bs) AS berths,
            (SELECT coalesce(json_agg(rs), '[]') FROM rs) AS reservations,
            ${settings} AS settings`,
    claim ? [nominationId ?? imo, claim.rpcId, JSON.stringify(claim.reply ?? null)] : [nominationId ?? imo],
  );
  const row = rows[0];
  if (claim && row.claimed && ++claims % PRUNE_EVERY === 0) {
    await q.query(`DELETE FROM queue.decided_commands WHERE decided_at < now() - interval '${REMEMBERED}'`);
  }
  const nominations = row.nominations.map(nominationState);
  const berths = new Map<number, Versioned<BerthState>>();
  for (const b of row.berths) {
    berths.set(
      b.id,
      berthState(
        b,
        row.reservations.filter((r) => r.berth_id === b.id),
      ),
    );
  }
  for (const n of nominations)
    for (const id of n.state.nomination?.berth_ids ?? []) if (!berths.has(id)) berths.set(id, NO_BERTH);
  return {
    claimed: row.claimed,
    slotId: row.slot_id,
    reservationId: row.reservation_id,
    nominations,
    berths,
    settings: row.settings,
  };
}

/** What a change of a slot request decides on, read with its berth's lock taken (loadSlotRequestForChange). */
export interface SlotRequestForChange {
  slot: Versioned<SlotRequestData>;
  /** Its berth with the calendar (undefined: it has none). */
  berth: Versioned<BerthState> | undefined;
  nomination: Versioned<NominationState> | undefined;
  /** The berth's other vessels by id (a push forward may move them). */
  others: Pick<ReadonlyMap<number, Versioned<SlotRequestData>>, 'get'>;
  /**
   * The window ends of those vessels' nominations by nomination id (a push may not move them past it). Read without
   * their versions: a nomination holding a slot is `reserved`, and only an open one's window can change.
   */
  otherWindowEnds: ReadonlyMap<number, number>;
  settings: Record<string, string>;
}

/**
 * A slot request and what a change of it decides on, in one statement that also takes its berth's lock (when it has
 * a berth), so changes of one berth take turns: its berth with the calendar, its nomination, the berth's other
 * vessels and the settings. The reads are as the statement began, which may be before the lock was had: a lock
 * holder may have changed the berth meanwhile. Everything read is checked at the decision's end, still under the
 * lock: the streams it appends to by their expected versions, and its berth, when it appends none to it, by the
 * version on the berth's row (recordTimestampWork's `berth`); a difference decides again.
 */
export async function loadSlotRequestForChange(q: Queryable, id: number): Promise<SlotRequestForChange | undefined> {
  const settings = await settingsSubquery(q);
  const { rows } = await q.query<{
    slot: (SlotRow & { locked: unknown }) | null;
    berth: BerthRow | null;
    reservations: BerthReservationData[];
    nomination: NominationRow | null;
    others: SlotRow[];
    other_windows: { id: number; window_end: string }[];
    settings: Record<string, string>;
  }>(
    // pg_advisory_xact_lock is strict: no berth, no lock.
    `WITH s AS MATERIALIZED (SELECT ${SLOT_COLUMNS}, pg_advisory_xact_lock(hashtext('queue.berth'), berth_id) AS locked
                               FROM queue.slot_reservations WHERE id = $1::int),
          b AS (SELECT ${BERTH_COLUMNS} FROM queue.berths WHERE id = (SELECT berth_id FROM s)),
          rs AS (SELECT ${RESERVATION_COLUMNS} FROM queue.berth_reservations
                  WHERE berth_id = (SELECT berth_id FROM s) AND EXISTS (SELECT 1 FROM b)),
          n AS (SELECT ${NOMINATION_COLUMNS} FROM queue.nominations WHERE id = (SELECT nomination_id FROM s)),
          o AS (SELECT ${SLOT_COLUMNS} FROM queue.slot_reservations
                 WHERE id IN (SELECT slot_reservation_id FROM rs) AND id <> $1::int),
          ow AS (SELECT id, ${iso('window_end')} AS window_end FROM queue.nominations
                  WHERE id IN (SELECT nomination_id FROM o))
     SELECT (SELECT row_to_json(s) FROM s) AS slot,
            (SELECT row_to_json(b) FROM b) AS berth, (SELECT coalesce(json_agg(rs), '[]') FROM rs) AS reservations,
            (SELECT row_to_json(n) FROM n) AS nomination, (SELECT coalesce(json_agg(o), '[]') FROM o) AS others,
            (SELECT coalesce(json_agg(ow), '[]') FROM ow) AS other_windows,
            ${settings} AS settings`,
    [id],
  );
  const row = rows[0];
  if (!row?.slot) return undefined;
  const { locked: _, ...slotRow } = row.slot;
  const slot = slotState(slotRow);
  return {
    slot,
    berth: slot.state.berth_id === null ? undefined : row.berth ? berthState(row.berth, row.reservations) : NO_BERTH,
    nomination:
      slot.state.nomination_id === null
        ? undefined
        : row.nomination
          ? nominationState(row.nomination)
          : { state: { nomination: null, status: 'open', slot_reservation_id: null }, version: 0 },
    others: slotsById(row.others),
    otherWindowEnds: new Map(row.other_windows.map((w) => [w.id, parseAtom(w.window_end) as number])),
    settings: row.settings,
  };
}

/**
 * Slot rows by id, each made a state when first asked for: a change reads all its berth's other vessels, but only a
 * push forward asks for any (and then for those it moves).
 */
export function slotsById(rows: readonly SlotRow[]): Pick<ReadonlyMap<number, Versioned<SlotRequestData>>, 'get'> {
  let byId: Map<number, SlotRow> | undefined;
  const made = new Map<number, Versioned<SlotRequestData>>();
  return {
    get(id: number) {
      let slot = made.get(id);
      if (slot === undefined) {
        byId ??= new Map(rows.map((r) => [r.id, r]));
        const row = byId.get(id);
        if (row === undefined) return undefined;
        slot = slotState(row);
        made.set(id, slot);
      }
      return slot;
    },
  };
}

/** Slot requests waiting for a nomination or a free slot (all, or those of one IMO), by id. */
export async function pendingSlotRequestIds(q: Queryable, imo?: number): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    `SELECT id FROM queue.slot_reservations
      WHERE slot_reservation_status IN ('no_nomination', 'no_free_slot') AND ($1::int IS NULL OR imo = $1)
      ORDER BY id`,
    [imo ?? null],
  );
  return rows.map((r) => r.id);
}

/** The queue settings as stored by the gateway (the settings API); none before the gateway created its schema. */
let settingsTableSeen = false;

const SETTINGS_SQL = `SELECT coalesce(json_object_agg(name, value), '{}') FROM gateway.settings
  WHERE name LIKE 'queue\\_%' OR name = 'port_operator_emails'`;

/** The settings' subquery for a statement that reads them along (`'{}'` while the gateway has no table yet). */
async function settingsSubquery(q: Queryable): Promise<string> {
  // Checked first, not caught: a failed statement would abort the caller's transaction. Once seen it stays.
  if (!settingsTableSeen) {
    const exists = await q.query<{ ok: boolean }>("SELECT to_regclass('gateway.settings') IS NOT NULL AS ok");
    if (!exists.rows[0]?.ok) return "'{}'::json";
    settingsTableSeen = true;
  }
  return `(${SETTINGS_SQL})`;
}

export async function loadSettingValues(q: Queryable): Promise<Record<string, string>> {
  const { rows } = await q.query<{ settings: Record<string, string> }>(
    `SELECT ${await settingsSubquery(q)} AS settings`,
  );
  return rows[0]?.settings ?? {};
}

// ---- Projection: each stream's events into its rows, in the append's transaction ----
// Each statement also records the stream's new version on its row (one round trip each); a calendar change sets
// its berth's in the same statement ($8 the berth, $9 the version; renumbered where a statement has fewer).

const SET_BERTH_VERSION = 'WITH berth_version AS (UPDATE queue.berths SET version = $9 WHERE id = $8)';

export async function projectBerth(
  tx: Queryable,
  berthId: number,
  events: readonly BerthEvent[],
  version: number,
  actor: number | null,
): Promise<void> {
  for (const e of events) {
    switch (e.type) {
      case 'BerthCreated':
        await tx.query(
          `INSERT INTO queue.berths (id, code, name, nominatable, version, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $6)`,
          [e.data.id, e.data.code, e.data.name, e.data.nominatable, version, actor],
        );
        break;
      case 'BerthUpdated':
        await tx.query(
          `UPDATE queue.berths SET code = $2, name = $3, nominatable = $4, modified_by = $5, modified_at = now(),
                  version = $6 WHERE id = $1`,
          [e.data.id, e.data.code, e.data.name, e.data.nominatable, actor, version],
        );
        break;
      case 'BerthDeleted':
        await tx.query('DELETE FROM queue.berths WHERE id = $1', [e.data.id]);
        break;
      case 'BerthReservationMade':
        await tx.query(
          `${SET_BERTH_VERSION} INSERT INTO queue.berth_reservations (id, berth_id, berth_reservation_type,
             reservation_start, reservation_end, slot_reservation_id, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
          [
            e.data.id,
            e.data.berth_id,
            e.data.berth_reservation_type,
            e.data.reservation_start,
            e.data.reservation_end,
            e.data.slot_reservation_id,
            actor,
            berthId,
            version,
          ],
        );
        break;
      case 'BerthReservationMoved':
        await tx.query(
          `${SET_BERTH_VERSION.replace('$8', '$5').replace('$9', '$6')} UPDATE queue.berth_reservations
              SET reservation_start = $2, reservation_end = $3, modified_by = $4, modified_at = now() WHERE id = $1`,
          [e.data.id, e.data.reservation_start, e.data.reservation_end, actor, berthId, version],
        );
        break;
      case 'BerthReservationRemoved':
        await tx.query(
          `${SET_BERTH_VERSION.replace('$8', '$2').replace('$9', '$3')} DELETE FROM queue.berth_reservations WHERE id = $1`,
          [e.data.id, berthId, version],
        );
        break;
    }
  }
}

export async function projectNomination(
  tx: Queryable,
  events: readonly NominationEvent[],
  version: number,
  actor: number | null,
): Promise<void> {
  for (const e of events) {
    const d = e.data;
    switch (e.type) {
      case 'NominationCreated':
        await tx.query(
          `INSERT INTO queue.nominations (id, company_name, email, imo, vessel_name, nomination_status, window_start,
             window_end, berth_ids, version, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $8::int[], $9, $10, $11)`,
          [
            e.data.id,
            e.data.company_name,
            e.data.email,
            e.data.imo,
            e.data.vessel_name,
            e.data.window_start,
            e.data.window_end,
            e.data.berth_ids,
            version,
            e.data.created_by,
            actor,
          ],
        );
        break;
      case 'NominationUpdated':
        await tx.query(
          `UPDATE queue.nominations SET company_name = $2, email = $3, imo = $4, vessel_name = $5, window_start = $6,
                  window_end = $7, berth_ids = $8::int[], modified_by = $9, modified_at = now(), version = $10
            WHERE id = $1`,
          [
            e.data.id,
            e.data.company_name,
            e.data.email,
            e.data.imo,
            e.data.vessel_name,
            e.data.window_start,
            e.data.window_end,
            e.data.berth_ids,
            actor,
            version,
          ],
        );
        break;
      case 'NominationDeleted':
        await tx.query('DELETE FROM queue.nominations WHERE id = $1', [d.id]);
        break;
      case 'NominationReserved':
        await tx.query(
          `UPDATE queue.nominations SET nomination_status = 'reserved', slot_reservation_id = $2, modified_at = now(),
                  version = $3 WHERE id = $1`,
          [e.data.id, e.data.slot_reservation_id, version],
        );
        break;
      case 'NominationReopened':
        await tx.query(
          `UPDATE queue.nominations SET nomination_status = 'open', slot_reservation_id = NULL, modified_at = now(),
                  version = $2 WHERE id = $1`,
          [d.id, version],
        );
        break;
      case 'NominationExpired':
        await tx.query(
          `UPDATE queue.nominations SET nomination_status = 'expired', modified_at = now(), version = $2 WHERE id = $1`,
          [d.id, version],
        );
        break;
    }
  }
}

export async function projectSlotRequest(
  tx: Queryable,
  events: readonly SlotRequestEvent[],
  version: number,
  actor: number | null,
): Promise<void> {
  for (const e of events) {
    switch (e.type) {
      case 'SlotRequestReceived': {
        const d = e.data;
        await tx.query(
          `INSERT INTO queue.slot_reservations (id, nomination_id, berth_id, berth_reservation_id, email, imo, vessel_name,
             loa, beam, draft, laytime, eta, rta_window_start, rta_window_end, jit_eta, slot_reservation_status,
             version, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::interval, $12, $13, $14, $15, $16, $17, $18, $18)`,
          [
            d.id,
            d.nomination_id,
            d.berth_id,
            d.berth_reservation_id,
            d.email,
            d.imo,
            d.vessel_name,
            d.loa,
            d.beam,
            d.draft,
            d.laytime,
            d.eta,
            d.rta_window_start,
            d.rta_window_end,
            d.jit_eta,
            d.status,
            version,
            actor,
          ],
        );
        break;
      }
      case 'SlotRequestResolved':
      case 'SlotRequestUpdated':
      case 'SlotRequestPushedForward': {
        const d = e.data;
        const laytime = 'laytime' in d ? d.laytime : null;
        const jitEta = 'jit_eta' in d ? d.jit_eta : undefined;
        await tx.query(
          `UPDATE queue.slot_reservations
              SET slot_reservation_status = $2, nomination_id = $3, berth_id = $4, berth_reservation_id = $5,
                  rta_window_start = $6, rta_window_end = $7, laytime = coalesce($8::interval, laytime),
                  jit_eta = CASE WHEN $9 THEN $10::timestamptz ELSE jit_eta END,
                  modified_by = $11, modified_at = now(), version = $12
            WHERE id = $1`,
          [
            d.id,
            d.status,
            d.nomination_id,
            d.berth_id,
            d.berth_reservation_id,
            d.rta_window_start,
            d.rta_window_end,
            laytime,
            jitEta !== undefined,
            jitEta ?? null,
            actor,
            version,
          ],
        );
        break;
      }
      case 'SlotRequestCancelled':
        await tx.query(
          `UPDATE queue.slot_reservations
              SET slot_reservation_status = $2, nomination_id = NULL, berth_reservation_id = NULL,
                  rta_window_start = NULL, rta_window_end = NULL, jit_eta = NULL, modified_by = $3, modified_at = now(),
                  version = $4
            WHERE id = $1`,
          [e.data.id, e.data.status, actor, version],
        );
        break;
      case 'SlotRequestCompleted':
        await tx.query(
          `UPDATE queue.slot_reservations SET slot_reservation_status = 'completed', modified_at = now(), version = $2
            WHERE id = $1`,
          [e.data.id, version],
        );
        break;
    }
  }
}

export async function saveGeneratedTimestamps(
  q: Queryable,
  slotRequestId: number,
  timestampIds: number[],
): Promise<void> {
  if (timestampIds.length === 0) return;
  await q.query(
    `INSERT INTO queue.generated_timestamps (slot_reservation_id, timestamp_id)
     SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
    [slotRequestId, timestampIds],
  );
}

export async function generatedTimestampIds(q: Queryable, slotRequestId: number): Promise<number[]> {
  const { rows } = await q.query<{ id: string }>(
    'SELECT timestamp_id::text AS id FROM queue.generated_timestamps WHERE slot_reservation_id = $1',
    [slotRequestId],
  );
  return rows.map((r) => Number(r.id));
}

export async function forgetGeneratedTimestamp(
  q: Queryable,
  slotRequestId: number,
  timestampId: number,
): Promise<void> {
  await q.query('DELETE FROM queue.generated_timestamps WHERE slot_reservation_id = $1 AND timestamp_id = $2', [
    slotRequestId,
    timestampId,
  ]);
}

/** One piece of ingest work a decision left: post `timestamps`, or (null) remove the slot request's. */
export interface TimestampWork<T = unknown> {
  slot_reservation_id: number;
  timestamps: T[] | null;
  actor: unknown;
}

/**
 * Read-model writes (the project* functions given this instead of the transaction) gathered to go to the database
 * with the decision's ingest work as one statement (recordTimestampWork): one round trip instead of one per write.
 * Only for writes to different rows: the parts of one statement see the snapshot it started with, in no order.
 */
export class GatheredWrites implements Queryable {
  readonly statements: { text: string; values: unknown[] }[] = [];
  async query<R>(text: string, values: unknown[] = []): Promise<QueryResult<R>> {
    this.statements.push({ text, values });
    return { rows: [], rowCount: 0 };
  }
}

/** One recorded piece of ingest work, with its row's seq. */
export type ClaimedWork<T> = TimestampWork<T> & { seq: string };

/** A row of ingest work as its decision recorded it: `held` when recorded claimed by this process (its content). */
export interface RecordedWork<T = unknown> {
  seq: string;
  held?: ClaimedWork<T>;
}

/**
 * Records a decision's ingest work in its transaction (one statement, in the given order), with the read-model
 * writes `gathered` (if any) in the same statement; returns the rows in that order, and with `berthId` the version
 * on that berth's row as the statement finds it (what loadSlotRequestForChange's reads are checked against). With
 * `claimSeconds`, a row that
 * is the oldest of its slot request (none recorded before it is left) is recorded claimed by this process for that
 * long, as claimTimestampWork would claim it: its poster right after the commit needs no claim statement. The
 * oldest is known here: every row of a slot request comes with an append to its stream, and this decision holds
 * that stream's lock, so an earlier decision's rows are committed and seen, a later one's wait.
 */
export async function recordTimestampWork<T>(
  tx: Queryable,
  work: readonly TimestampWork<T>[],
  options: { gathered?: GatheredWrites; claimSeconds?: number; berthId?: number } = {},
): Promise<{ work: RecordedWork<T>[]; berthVersion: number | null }> {
  const writes = options.gathered?.statements ?? [];
  const { berthId } = options;
  if (work.length === 0) {
    if (writes.length === 0 && berthId === undefined) return { work: [], berthVersion: null };
    const statement = together(
      writes,
      berthId === undefined
        ? { text: 'SELECT NULL::int AS berth_version', values: [] }
        : { text: 'SELECT (SELECT version FROM queue.berths WHERE id = $1) AS berth_version', values: [berthId] },
    );
    const { rows } = await tx.query<{ berth_version: number | null }>(statement.text, statement.values);
    return { work: [], berthVersion: rows[0]?.berth_version ?? null };
  }
  // Only a slot request's first row here may be its oldest.
  const seen = new Set<number>();
  const first = work.map((w) => {
    if (seen.has(w.slot_reservation_id)) return false;
    seen.add(w.slot_reservation_id);
    return true;
  });
  const statement = together(writes, {
    text: `INSERT INTO queue.timestamp_outbox (slot_reservation_id, timestamps, actor, claimed_until)
     SELECT (w->>'slot_reservation_id')::int, w->'timestamps', w->'actor',
            CASE WHEN $3::int > 0 AND ($2::boolean[])[n] AND NOT EXISTS (SELECT 1 FROM queue.timestamp_outbox p
                       WHERE p.slot_reservation_id = (w->>'slot_reservation_id')::int)
                 THEN now() + make_interval(secs => $3) END
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS a(w, n) ORDER BY n
     RETURNING seq::text AS seq, slot_reservation_id, claimed_until IS NOT NULL AS claimed,
       (SELECT version FROM queue.berths WHERE id = $4::int) AS berth_version`,
    values: [JSON.stringify(work), first, options.claimSeconds ?? 0, berthId ?? null],
  });
  const { rows } = await tx.query<{
    seq: string;
    slot_reservation_id: number;
    claimed: boolean;
    berth_version: number | null;
  }>(statement.text, statement.values);
  // The rows' seqs were taken in the order inserted, the order given.
  rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  const recorded = rows.map((row, i): RecordedWork<T> => {
    const given = work[i] as TimestampWork<T>;
    if (row.slot_reservation_id !== given.slot_reservation_id) throw new Error('timestamp work recorded out of order');
    return row.claimed ? { seq: row.seq, held: { ...given, seq: row.seq } } : { seq: row.seq };
  });
  return { work: recorded, berthVersion: rows[0]?.berth_version ?? null };
}

/**
 * Claims rows of ingest work for `leaseSeconds` (one statement): only rows nobody holds (or whose holder's claim
 * expired) and that are the oldest left of their slot request, so two processes never post one row at once and a
 * slot request's work is done in order (a later row waits until the earlier ones are done and deleted).
 */
export async function claimTimestampWork<T>(
  q: Queryable,
  seqs: readonly string[],
  leaseSeconds: number,
): Promise<ClaimedWork<T>[]> {
  if (seqs.length === 0) return [];
  const { rows } = await q.query<ClaimedWork<T>>(
    `UPDATE queue.timestamp_outbox o SET claimed_until = now() + make_interval(secs => $2)
      WHERE o.seq = ANY($1::bigint[]) AND (o.claimed_until IS NULL OR o.claimed_until < now())
        AND NOT EXISTS (SELECT 1 FROM queue.timestamp_outbox p
                         WHERE p.slot_reservation_id = o.slot_reservation_id AND p.seq < o.seq)
      RETURNING o.seq::text AS seq, o.slot_reservation_id, o.timestamps, o.actor`,
    [seqs, leaseSeconds],
  );
  return rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
}

/** Gives claimed rows back (their work not done; the next sweep takes them). */
export async function releaseTimestampWork(q: Queryable, seqs: readonly string[]): Promise<void> {
  if (seqs.length === 0) return;
  await q.query('UPDATE queue.timestamp_outbox SET claimed_until = NULL WHERE seq = ANY($1::bigint[])', [seqs]);
}

/** The oldest unclaimed ingest work of each slot request that has some (the sweep's start), up to 1,000. */
export async function claimableTimestampWork(q: Queryable): Promise<{ seq: string; slot_reservation_id: number }[]> {
  const { rows } = await q.query<{ seq: string; slot_reservation_id: number }>(
    `SELECT DISTINCT ON (slot_reservation_id) seq::text AS seq, slot_reservation_id FROM queue.timestamp_outbox
      ORDER BY slot_reservation_id, seq LIMIT 1000`,
  );
  return rows;
}

/** The next row of a slot request's ingest work after `seq`, if any. */
export async function nextTimestampWork(q: Queryable, slotRequestId: number, seq: string): Promise<string | undefined> {
  const { rows } = await q.query<{ seq: string }>(
    `SELECT seq::text AS seq FROM queue.timestamp_outbox WHERE slot_reservation_id = $1 AND seq > $2::bigint
      ORDER BY seq LIMIT 1`,
    [slotRequestId, seq],
  );
  return rows[0]?.seq;
}

/**
 * Work done, in one statement: the timestamp ids ingest gave (`saved`, per slot request) kept for a later removal,
 * and the rows `seqs` deleted.
 */
export async function timestampWorkDone(
  q: Queryable,
  seqs: readonly string[],
  saved: readonly { slot_reservation_id: number; timestamp_id: number }[] = [],
): Promise<void> {
  await q.query(
    `WITH saved AS (
       INSERT INTO queue.generated_timestamps (slot_reservation_id, timestamp_id)
       SELECT * FROM unnest($2::int[], $3::bigint[]) ON CONFLICT DO NOTHING)
     DELETE FROM queue.timestamp_outbox WHERE seq = ANY($1::bigint[])`,
    [seqs, saved.map((s) => s.slot_reservation_id), saved.map((s) => s.timestamp_id)],
  );
}

/** What the jobs must be armed for at start (the embedded mode's timers do not survive a restart). */
export async function dueItems(q: Queryable): Promise<{ nominations: { id: number; at: string }[]; slots: number[] }> {
  const n = await q.query<{ id: number; at: string }>(
    `SELECT id, ${iso('window_end')} AS at FROM queue.nominations WHERE nomination_status <> 'expired'`,
  );
  const s = await q.query<{ id: number }>(
    `SELECT id FROM queue.slot_reservations
      WHERE slot_reservation_status NOT IN ('cancelled_by_vessel', 'cancelled_by_port', 'completed')`,
  );
  return { nominations: n.rows, slots: s.rows.map((r) => r.id) };
}
