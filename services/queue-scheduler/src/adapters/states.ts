// The states the queue's commands decide on, read from the queue's rows (schema `queue`) with the stream version
// each row records: a row and its stream commit together, so the version read is the version of what was read
// (docs/queue.md#why-the-rows-are-a-cache-of-the-streams). A command's reads go in one statement where they can
// (one round trip instead of one per table).

import type { BerthReservationData, NominationStatus, SlotRequestData } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';
import { parseAtom } from '@pcas/values';
import type { BerthState } from '../domain/berths.ts';
import type { NominationState } from '../domain/nominations.ts';
import { msToIsoDuration } from '../domain/queue-rules.ts';
import { berthLockKeySql } from './locks.ts';
import { SETTINGS_SQL } from './port-settings.ts';
import type { Versioned } from './streams.ts';

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')`;

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
/** The slot's berth's lock key (locks.ts), taken in the statement that reads the slot. */
const BERTH_LOCK_KEY = berthLockKeySql('berth_id');
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
            ${SETTINGS_SQL} AS settings`,
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
    `WITH s AS MATERIALIZED (SELECT ${SLOT_COLUMNS}, pg_advisory_xact_lock(${BERTH_LOCK_KEY}) AS locked
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
            ${SETTINGS_SQL} AS settings`,
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
