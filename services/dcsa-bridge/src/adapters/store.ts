// The dcsa read models: loading what a decision needs, and writing each event's row in the event's own
// transaction (docs/dcsa.md#who-owns-it-the-dcsa-bridge). Thin: the rules are in src/domain.

import { retryOnConflict } from '@pcas/commands';
import { type AppendResult, type EventMetadata, type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { canonicalJson } from '@pcas/values';
import { nameUuid, uuidNamespace } from '@pcas/values/name-uuid';
import type { Body, DcsaEvent, PortCallRow, ServiceRow, TerminalCallRow, TimestampRow } from '../domain/jit.ts';

// Event ids derive from the stream and the event's content: the same change sent twice at once is stored once.
const EVENT_NAMESPACE = uuidNamespace('6b1c3c4e9a0d4b7e8f2a5d6c7b8e9f01');

export const streams = {
  partner: (id: number) => `dcsapartner-${id}`,
  portCall: (id: string) => `dcsaportcall-${id}`,
  terminalCall: (id: string) => `dcsaterminalcall-${id}`,
  service: (id: string) => `dcsaservice-${id}`,
  timestamp: (id: string) => `dcsatimestamp-${id}`,
  vesselStatus: (serviceId: string) => `dcsavesselstatus-${serviceId}`,
};

export interface Partner {
  id: number;
  name: string;
  api_key_id: number;
  base_url: string;
  vessel_imos: number[];
  active: boolean;
  version: number;
}

const first = async <R>(q: Queryable, sql: string, params: unknown[]): Promise<R | undefined> =>
  (await q.query<R>(sql, params)).rows[0];

export const partnerById = (q: Queryable, id: number) =>
  first<Partner>(q, 'SELECT * FROM dcsa.partners WHERE id = $1', [id]);
/** The active partners following each of `imos` (one query for a batch of times), in id order. */
export async function partnersFollowing(q: Queryable, imos: readonly number[]): Promise<Map<number, Partner[]>> {
  const following = new Map<number, Partner[]>();
  if (imos.length === 0) return following;
  const { rows } = await q.query<Partner>(
    'SELECT * FROM dcsa.partners WHERE active AND vessel_imos && $1::int[] ORDER BY id',
    [[...new Set(imos)]],
  );
  for (const partner of rows) {
    for (const imo of partner.vessel_imos) following.set(imo, [...(following.get(imo) ?? []), partner]);
  }
  return following;
}

export type LoadedPortCall = PortCallRow & { imo: number | null; vessel_name: string | null };
export type LoadedTimestamp = TimestampRow & { direction: string; classifier: string; imo: number | null };

/** Each table's rows by their keys ($1, an array): one query for one key here, for many in row-loaders.ts. */
export const ROWS_BY_KEYS = {
  partnerByApiKey: 'SELECT * FROM dcsa.partners WHERE api_key_id = ANY($1::int[]) AND active',
  portCall: 'SELECT * FROM dcsa.port_calls WHERE port_call_id = ANY($1::text[])',
  service: 'SELECT * FROM dcsa.services WHERE service_id = ANY($1::text[])',
  timestamp: 'SELECT * FROM dcsa.timestamps WHERE timestamp_id = ANY($1::text[])',
};

export const loadPortCall = (q: Queryable, id: string) => first<LoadedPortCall>(q, ROWS_BY_KEYS.portCall, [[id]]);
export const loadTerminalCall = (q: Queryable, id: string) =>
  first<TerminalCallRow>(q, 'SELECT * FROM dcsa.terminal_calls WHERE terminal_call_id = $1', [id]);
export const loadService = (q: Queryable, id: string) => first<ServiceRow>(q, ROWS_BY_KEYS.service, [[id]]);
export const loadTimestamp = (q: Queryable, id: string) => first<LoadedTimestamp>(q, ROWS_BY_KEYS.timestamp, [[id]]);
export async function latestVesselStatus(q: Queryable, serviceId: string): Promise<Body | undefined> {
  const row = await first<{ body: Body }>(
    q,
    'SELECT body FROM dcsa.vessel_statuses WHERE service_id = $1 ORDER BY id DESC LIMIT 1',
    [serviceId],
  );
  return row?.body;
}

/** A decision's events to append, with the stream version it was decided at (the append's expected version). */
export interface DecidedAppend {
  streamId: string;
  version: number;
  events: readonly DcsaEvent[];
  metadata: EventMetadata;
}

/** The events of a decision as the store takes them: each id derived from the stream, version and content. */
const newEventsOf = ({ streamId, version, events, metadata }: DecidedAppend) =>
  events.map((e) => ({
    id: nameUuid(EVENT_NAMESPACE, `${streamId}\n${version}\n${canonicalJson(e)}`),
    type: e.type,
    data: e.data,
    metadata,
  }));

/** A decision's appended events that were not stored before, each with its stream's version after the append. */
const newlyAppended = (decided: DecidedAppend, appended: AppendResult) =>
  decided.events
    .filter((_, i) => !appended.events[i]?.duplicate)
    .map((event) => ({ event, version: appended.nextExpectedVersion }));

/**
 * Appends a decision's events with the version it was decided at, and writes their rows, in the caller's
 * transaction `tx`. An event stored already (the same request decided twice at once: its id derives from the
 * stream, version and content) writes its row no second time.
 */
export async function appendDecided(tx: Queryable, store: EventStore, decided: DecidedAppend): Promise<void> {
  if (decided.events.length === 0) return;
  const appended = await store.append(decided.streamId, newEventsOf(decided), {
    expectedVersion: decided.version,
    tx,
  });
  for (const { event, version } of newlyAppended(decided, appended)) await project(tx, event, version);
}

/**
 * Appends the events of several decisions (distinct streams) in one statement in the caller's transaction `tx`,
 * with their rows. Throws WrongExpectedVersionError, for the caller to roll back, when a stream was no longer at
 * the version its decision was made at: the store's multi-stream append takes no expected versions, so each
 * stream's new positions are checked instead.
 */
export async function appendAllDecided(
  tx: Queryable,
  store: EventStore,
  decisions: readonly DecidedAppend[],
): Promise<void> {
  const appends = decisions.map((d) => ({ streamId: d.streamId, events: newEventsOf(d) }));
  const results = await store.appendMany(appends, { tx });
  const timestampRows: ReturnType<typeof timestampRow>[] = [];
  for (const [i, decided] of decisions.entries()) {
    const appended = results[i];
    const moved = appended.events.some((e, j) => e.streamPosition !== decided.version + 1 + j);
    if (moved) {
      throw new WrongExpectedVersionError(
        decided.streamId,
        decided.version,
        appended.nextExpectedVersion - decided.events.length,
      );
    }
    for (const { event, version } of newlyAppended(decided, appended)) {
      if (isTimestampEvent(event)) timestampRows.push(timestampRow(event, version));
      else await project(tx, event, version);
    }
  }
  // A partner's timestamps come in bulk: their rows go in one statement.
  if (timestampRows.length > 0) await upsertTimestamps(tx, timestampRows);
}

/** Load, decide, append: again from the load when another writer moved the stream on (retryOnConflict). */
export const withRetries = retryOnConflict;

const imoOf = (vessel: Body | undefined): number | null => {
  const text = vessel?.vesselIMONumber;
  return typeof text === 'string' && /^\d{7}$/.test(text) ? Number(text) : null;
};

const isTimestampEvent = (event: DcsaEvent) =>
  event.type === 'DcsaTimestampReceived' || event.type === 'DcsaTimestampSent';

/** A timestamp event's row of dcsa.timestamps, with the S-211 time it was mapped to and what ingest said. */
function timestampRow(event: DcsaEvent, version: number) {
  const d = event.data as Record<string, any>;
  const s = (d.s211 ?? {}) as Record<string, unknown>;
  return {
    timestamp_id: d.timestamp_id,
    service_id: d.port_call_service_id,
    port_call_id: d.port_call_id,
    partner_id: d.partner_id,
    direction: event.type === 'DcsaTimestampSent' ? 'out' : 'in',
    classifier: d.body.classifierCode,
    date_time: new Date(d.body.dateTime as string).toISOString(),
    body: d.body,
    imo: s.imo ?? null,
    time_type: s.time_type ?? null,
    state: s.state ?? null,
    s211_status: s.status ?? 'dcsa_only',
    s211_error: s.error ?? null,
    version,
  };
}

/** Timestamp rows (distinct ids), written in one statement however many. */
async function upsertTimestamps(tx: Queryable, rows: ReturnType<typeof timestampRow>[]): Promise<void> {
  await tx.query(
    `INSERT INTO dcsa.timestamps (timestamp_id, service_id, port_call_id, partner_id, direction, classifier,
       date_time, body, imo, time_type, state, s211_status, s211_error, version)
     SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(timestamp_id text, service_id text, port_call_id text,
       partner_id integer, direction text, classifier text, date_time timestamptz, body jsonb, imo integer,
       time_type text, state text, s211_status text, s211_error text, version integer)
     ON CONFLICT (timestamp_id) DO UPDATE SET classifier = EXCLUDED.classifier, date_time = EXCLUDED.date_time,
       body = EXCLUDED.body, imo = EXCLUDED.imo, time_type = EXCLUDED.time_type, state = EXCLUDED.state,
       s211_status = EXCLUDED.s211_status, s211_error = EXCLUDED.s211_error, version = EXCLUDED.version`,
    [JSON.stringify(rows)],
  );
}

/** The row an event writes. */
export async function project(tx: Queryable, event: DcsaEvent, version: number): Promise<void> {
  const d = event.data as Record<string, any>;
  switch (event.type) {
    case 'DcsaPartnerRegistered':
    case 'DcsaPartnerChanged':
      await tx.query(
        `INSERT INTO dcsa.partners (id, name, api_key_id, base_url, vessel_imos, active, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET name = $2, api_key_id = $3, base_url = $4, vessel_imos = $5, active = $6,
           version = $7, modified_at = now()`,
        [d.partner_id, d.name, d.api_key_id, d.base_url, d.vessel_imos, d.active, version],
      );
      return;
    case 'DcsaPortCallReceived': {
      const vessel = d.body.vessel as Body | undefined;
      await tx.query(
        `INSERT INTO dcsa.port_calls (port_call_id, partner_id, imo, vessel_name, mmsi, un_location_code,
           port_visit_reference, body, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (port_call_id) DO UPDATE SET imo = $3, vessel_name = $4, mmsi = $5, un_location_code = $6,
           port_visit_reference = $7, body = $8, version = $9, updated_at = now()`,
        [
          d.port_call_id,
          d.partner_id,
          imoOf(vessel),
          (vessel?.name as string | undefined) ?? null,
          (vessel?.MMSINumber as string | undefined) ?? null,
          d.body.UNLocationCode,
          d.body.portVisitReference ?? null,
          d.body,
          version,
        ],
      );
      return;
    }
    case 'DcsaPortCallOmitted':
      await tx.query(
        'UPDATE dcsa.port_calls SET omitted = true, version = $2, updated_at = now() WHERE port_call_id = $1',
        [d.port_call_id, version],
      );
      return;
    case 'DcsaTerminalCallReceived':
      await tx.query(
        `INSERT INTO dcsa.terminal_calls (terminal_call_id, port_call_id, partner_id, body, version)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (terminal_call_id) DO UPDATE SET port_call_id = $2, body = $4, version = $5, updated_at = now()`,
        [d.terminal_call_id, d.port_call_id, d.partner_id, d.body, version],
      );
      return;
    case 'DcsaTerminalCallOmitted':
      await tx.query(
        'UPDATE dcsa.terminal_calls SET omitted = true, version = $2, updated_at = now() WHERE terminal_call_id = $1',
        [d.terminal_call_id, version],
      );
      return;
    case 'DcsaPortCallServiceReceived':
      await tx.query(
        `INSERT INTO dcsa.services (service_id, terminal_call_id, port_call_id, partner_id, service_type, event_type,
           body, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (service_id) DO UPDATE SET terminal_call_id = $2, port_call_id = $3, service_type = $5,
           event_type = $6, body = $7, version = $8, updated_at = now()`,
        [
          d.port_call_service_id,
          d.terminal_call_id,
          d.port_call_id,
          d.partner_id,
          d.body.portCallServiceType,
          d.body.portCallServiceEventTypeCode,
          d.body,
          version,
        ],
      );
      return;
    case 'DcsaPortCallServiceCancelled':
    case 'DcsaPortCallServiceDeclined': {
      const column = event.type === 'DcsaPortCallServiceCancelled' ? 'cancelled' : 'declined';
      await tx.query(
        `UPDATE dcsa.services SET ${column} = true, version = $2, updated_at = now() WHERE service_id = $1`,
        [d.port_call_service_id, version],
      );
      return;
    }
    case 'DcsaTimestampReceived':
    case 'DcsaTimestampSent':
      await upsertTimestamps(tx, [timestampRow(event, version)]);
      return;
    case 'DcsaVesselStatusReceived':
      await tx.query('INSERT INTO dcsa.vessel_statuses (service_id, partner_id, body) VALUES ($1, $2, $3)', [
        d.port_call_service_id,
        d.partner_id,
        d.body,
      ]);
      return;
    default:
      throw new Error(`dcsa-bridge cannot project ${event.type}`);
  }
}
