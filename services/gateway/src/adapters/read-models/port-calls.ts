// GET /ongoing-port-calls and one port call (docs/domain.md#port-calls): the projector's queries
// (`@pcas/portcall-projector/queries`, schema `portcall`) with the names of the timeline slots' creators (the gateway
// owns users and API keys) and the callers' pins (`@pcas/notifier/queries`). GET /ongoing-port-calls' answer is
// kept here as ready bytes, checked by one small query that asks all three areas at once.

import { createBatcher } from '@pcas/batching';
import { PINS_SQL, pinsByUser, pinsOf } from '@pcas/notifier/queries';
import {
  ONGOING_FINGERPRINT_SQL,
  ONGOING_PORT_CALLS_SQL,
  type PortCallView as PortCallViewOf,
  portCallById as portCallOf,
} from '@pcas/portcall-projector/queries';
import type { Queryable } from '@pcas/sql';
import { type Creator, creatorIds, creatorName, type Timeline, withSources } from '../../domain/port-calls.ts';
import { type GzipHead, gzipHead, gzipWithTail } from './gzip-splice.ts';

// ---- who created the timeline's slots ----

/** One row per user id, in id order; `api_key_name` when a data source's key is bound to the user. */
const CREATORS_SQL = `
  SELECT coalesce(json_agg(json_build_array(u.id, u.first_name, u.last_name, u.email,
           (SELECT k.name FROM gateway.api_keys k WHERE k.bound_user_id = u.id ORDER BY k.id LIMIT 1))
         ORDER BY u.id)::text, '[]')
    FROM gateway.users u WHERE u.id = ANY($1::int[])`;

function namesOf(creatorsJson: string): Map<number, string> {
  const rows = JSON.parse(creatorsJson) as [number, string, string, string, string | null][];
  return new Map(
    rows.map(([id, first_name, last_name, email, api_key_name]) => [
      id,
      creatorName({ id, first_name, last_name, email, api_key_name } satisfies Creator),
    ]),
  );
}

async function creators(db: Queryable, ids: readonly number[]): Promise<{ json: string; names: Map<number, string> }> {
  if (ids.length === 0) return { json: '[]', names: new Map() };
  const { rows } = await db.query<{ creators: string }>(`SELECT (${CREATORS_SQL}) AS creators`, [[...ids]]);
  return { json: rows[0].creators, names: namesOf(rows[0].creators) };
}

/** The names of these users as the timesheet gives them (a data source's API key name, else the user's). */
export async function creatorNames(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  return (await creators(db, ids)).names;
}

/** Timelines with every filled slot's `source` set (one query for all of them). */
export async function namedTimelines(db: Queryable, timelines: readonly Timeline[]): Promise<Timeline[]> {
  const { names } = await creators(db, creatorIds(timelines));
  return timelines.map((t) => withSources(t, names));
}

// ---- GET /ongoing-port-calls ----

// The activity timeline's port calls (docs/domain.md#the-activity-timeline) and their fingerprint are the
// projector's statements (`@pcas/portcall-projector/queries`, with its ongoing rule).

interface OngoingSnapshot {
  fingerprint: string;
  /** The creators' rows the names were made from, as the check query renders them. */
  creatorsJson: string;
  creatorIds: number[];
  body: OngoingBody;
}

/**
 * GET /ongoing-port-calls' document up to its per-caller end: `{"portcalls":[…]` as UTF-8 JSON, encoded (and
 * gzipped, the first time a caller accepts gzip) once per snapshot rather than once per request.
 */
export class OngoingBody {
  #gzip: GzipHead | undefined;
  // A caller without pins (most) gets the document made once per snapshot; a caller with pins, the shared head
  // and a tail of a few dozen bytes.
  #unpinnedJson: Buffer | undefined;
  #unpinnedGzip: Buffer | undefined;
  constructor(readonly head: Buffer) {}
  /** The whole document: the head and the caller's pinned vessels (`,"pinned_vessels":[…]}`). */
  json(pinned: readonly number[]): Buffer {
    if (pinned.length > 0) return Buffer.concat([this.head, tailOf(pinned)]);
    this.#unpinnedJson ??= Buffer.concat([this.head, tailOf(pinned)]);
    return this.#unpinnedJson;
  }
  gzipped(pinned: readonly number[]): Buffer {
    this.#gzip ??= gzipHead(this.head);
    if (pinned.length > 0) return gzipWithTail(this.#gzip, tailOf(pinned));
    this.#unpinnedGzip ??= gzipWithTail(this.#gzip, tailOf(pinned));
    return this.#unpinnedGzip;
  }
}

const tailOf = (pinned: readonly number[]): Buffer => Buffer.from(`,"pinned_vessels":${JSON.stringify(pinned)}}`);

// ---- the callers' pinned vessels: the notifier's read model, through its queries (`@pcas/notifier/queries`) ----

export interface Ongoing {
  body: OngoingBody;
  /** The caller's pinned IMOs, in order. */
  pinned: number[];
}

/**
 * GET /ongoing-port-calls' document and each caller's pinned vessels. Each call is answered from a check of the
 * read models made after the call arrived (one small query: the set's fingerprint, the names of the slots'
 * creators, and the pins of the batch's callers); the document is rebuilt only when the first two changed, so
 * the answer is never stale (a PUT /pinned-vessel-ids shows on the next call) and the usual call serialises
 * nothing. Calls arriving while a check runs share the next one. (The original cached the list in Redis,
 * invalidated on every port-call save, and each user's pins under a key of their own.)
 */
export function createOngoingPortCalls(db: Queryable): (userId: number | null) => Promise<Ongoing> {
  let snapshot: OngoingSnapshot | null = null;

  async function build(): Promise<OngoingSnapshot> {
    const rows = (await db.query<{ ship: string; timeline: Timeline; fingerprint: string }>(ONGOING_PORT_CALLS_SQL))
      .rows;
    const timelines = rows.map((r) => r.timeline);
    const ids = creatorIds(timelines);
    const { json, names } = await creators(db, ids);
    // The ship objects go out as the database rendered them; only the timelines need their sources named.
    const entries = rows.map(
      (r, i) => `{"ship":${r.ship},"portcalls":[${JSON.stringify(withSources(timelines[i], names))}]}`,
    );
    return {
      fingerprint: rows[0]?.fingerprint ?? '0:0:0',
      creatorsJson: json,
      creatorIds: ids,
      body: new OngoingBody(Buffer.from(`{"portcalls":[${entries.join(',')}]`)),
    };
  }

  async function current(userIds: number[]): Promise<{ body: OngoingBody; pins: Map<number, number[]> }> {
    const cached = snapshot;
    if (cached) {
      const withPins = userIds.length > 0;
      const check = (
        await db.query<{ fingerprint: string; creators: string; pins?: string }>(
          `SELECT (${ONGOING_FINGERPRINT_SQL}) AS fingerprint,
                  (${CREATORS_SQL}) AS creators
                  ${withPins ? `, (${PINS_SQL('$2')}) AS pins` : ''}`,
          withPins ? [cached.creatorIds, userIds] : [cached.creatorIds],
        )
      ).rows;
      const now = check[0];
      if (now && now.fingerprint === cached.fingerprint && now.creators === cached.creatorsJson) {
        return { body: cached.body, pins: withPins ? pinsByUser(now.pins ?? '[]') : new Map() };
      }
    }
    snapshot = await build();
    return { body: snapshot.body, pins: await pinsOf(db, userIds) };
  }

  // One check at a time; a batch only starts after its calls arrived, so each sees what was committed before it.
  const shared = createBatcher<number | null, Ongoing>(
    async (calls) => {
      const userIds = [...new Set(calls.filter((id): id is number => id !== null))];
      const { body, pins } = await current(userIds);
      return calls.map((id) => ({ ok: true, value: { body, pinned: (id !== null && pins.get(id)) || [] } }));
    },
    { maxItems: 10_000, maxInFlight: 1 },
  );
  return shared;
}

// ---- GET /port-call, GET /port-call-csv ----

export type PortCallView = PortCallViewOf<Timeline>;

/** The port call's ship object and its timeline with named sources; undefined when there is no such port call. */
export async function portCallById(db: Queryable, id: number): Promise<PortCallView | undefined> {
  const found = await portCallOf<Timeline>(db, id);
  if (!found) return undefined;
  const [timeline] = await namedTimelines(db, [found.timeline]);
  return { ship: found.ship, timeline };
}
