// The standard's GET endpoints (docs/dcsa.md#receiving), for the gateway's /dcsa/jit/v2/ routes: a partner sees
// what it sent and what belongs to its port calls, filtered as the standard says (at least one filter, exact
// matches), leaving out completed port calls (one with a BERTH DEPA service whose PLN time has passed).

import type { DcsaDetailedError } from '@pcas/contracts';
import { equalities, type Queryable } from '@pcas/sql';

export type Filters = Record<string, string | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The standard's query parameters and their formats (components/parameters). */
export const FILTER_RULES: Readonly<Record<string, RegExp>> = {
  portCallID: UUID,
  terminalCallID: UUID,
  portCallServiceID: UUID,
  timestampID: UUID,
  UNLocationCode: /^[A-Z]{2}[A-Z2-9]{3}$/,
  portVisitReference: /^.{1,50}$/,
  vesselIMONumber: /^\d{7,8}$/,
  vesselName: /^\S(?:.{0,48}\S)?$/,
  MMSINumber: /^\d{9}$/,
  terminalCallReference: /^.{1,100}$/,
  carrierServiceName: /^\S(?:.{0,48}\S)?$/,
  carrierServiceCode: /^\S(?:.{0,9}\S)?$/,
  universalServiceReference: /^SR\d{5}[A-Z]$/,
  carrierImportVoyageNumber: /^\S(?:.{0,48}\S)?$/,
  carrierExportVoyageNumber: /^\S(?:.{0,48}\S)?$/,
  universalImportVoyageReference: /^\d{2}[0-9A-Z]{2}[NEWSR]$/,
  universalExportVoyageReference: /^\d{2}[0-9A-Z]{2}[NEWSR]$/,
  portCallServiceType: /^\S(?:.{0,48}\S)?$/,
  classifierCode: /^(ACT|EST|PLN|REQ)$/,
};

/** A terminal call's filters that match a field of its body by the same name. */
const TERMINAL_CALL_BODY_FILTERS = [
  'terminalCallReference',
  'carrierServiceName',
  'carrierServiceCode',
  'universalServiceReference',
  'carrierImportVoyageNumber',
  'carrierExportVoyageNumber',
  'universalImportVoyageReference',
  'universalExportVoyageReference',
] as const;

/** Which filters each list takes, and which of them the standard requires at least one of. */
export const LISTS = {
  portCalls: {
    filters: ['portCallID', 'portVisitReference', 'UNLocationCode', 'vesselIMONumber', 'vesselName', 'MMSINumber'],
    oneOf: ['portCallID', 'portVisitReference', 'UNLocationCode', 'vesselIMONumber', 'vesselName', 'MMSINumber'],
  },
  terminalCalls: {
    filters: ['portCallID', 'terminalCallID', ...TERMINAL_CALL_BODY_FILTERS],
    oneOf: [
      'portCallID',
      'terminalCallID',
      'carrierServiceName',
      'carrierServiceCode',
      'universalServiceReference',
      'terminalCallReference',
    ],
  },
  portCallServices: {
    filters: ['terminalCallID', 'portCallServiceID', 'portCallServiceType'],
    oneOf: ['terminalCallID', 'portCallServiceID'],
  },
  timestamps: {
    filters: ['portCallServiceID', 'timestampID', 'classifierCode'],
    oneOf: ['portCallServiceID', 'timestampID'],
  },
  vesselStatuses: { filters: ['portCallServiceID'], oneOf: ['portCallServiceID'] },
} as const;

export type ListName = keyof typeof LISTS;

/** The problem of a list's filters, as the standard's DetailedError; undefined when they are right. */
export function filterProblem(list: ListName, filters: Filters): DcsaDetailedError | undefined {
  for (const name of LISTS[list].filters) {
    const value = filters[name];
    if (value !== undefined && !FILTER_RULES[name].test(value)) {
      return {
        errorCode: 7002,
        property: name,
        value: value.slice(0, 500),
        errorCodeText: 'invalid query parameter',
        errorCodeMessage: `${name} is not valid: ${value.slice(0, 100)}`,
      };
    }
  }
  const oneOf: readonly string[] = LISTS[list].oneOf;
  if (!oneOf.some((name) => filters[name] !== undefined)) {
    return {
      errorCode: 7003,
      property: oneOf[0],
      errorCodeText: 'mandatory filter missing',
      errorCodeMessage: `At least one of ${oneOf.join(', ')} must be provided`,
    };
  }
  return undefined;
}

/** The partner a DCSA API key belongs to (an active one), if any. */
export async function partnerIdOfApiKey(db: Queryable, apiKeyId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM dcsa.partners WHERE api_key_id = $1 AND active', [
    apiKeyId,
  ]);
  return rows[0]?.id;
}

// A port call the partner may see, not completed.
const VISIBLE_PORT_CALL = `(pc.partner_id = $1 OR EXISTS (
    SELECT 1 FROM dcsa.terminal_calls v WHERE v.port_call_id = pc.port_call_id AND v.partner_id = $1
    UNION ALL SELECT 1 FROM dcsa.services v WHERE v.port_call_id = pc.port_call_id AND v.partner_id = $1))
  AND NOT EXISTS (
    SELECT 1 FROM dcsa.services bs JOIN dcsa.timestamps bt ON bt.service_id = bs.service_id
     WHERE bs.port_call_id = pc.port_call_id AND bs.service_type = 'BERTH' AND bs.event_type = 'DEPA'
       AND bt.classifier = 'PLN' AND bt.date_time < now())`;

/** ` AND <column> = $n` for each filter given, `columns` naming each filter's column. */
function where(columns: Record<string, string>, filters: Filters, params: unknown[]): string {
  const values = Object.fromEntries(Object.entries(columns).map(([name, column]) => [column, filters[name]]));
  return equalities(values, params)
    .map((p) => ` AND ${p}`)
    .join('');
}

type Row = { body: Record<string, unknown> };

/**
 * The rows of a list that the partner may see (its own, or those of a port call it may see), filtered by the
 * filters' columns: `query` is the statement, given the filters' conditions; $1 is the partner.
 */
async function visibleRows<R extends Row>(
  db: Queryable,
  partnerId: number,
  filters: Filters,
  columns: Record<string, string>,
  query: (extra: string) => string,
): Promise<R[]> {
  const params: unknown[] = [partnerId];
  const extra = where(columns, filters, params);
  return (await db.query<R>(query(extra), params)).rows;
}

export async function portCallsOf(db: Queryable, partnerId: number, filters: Filters): Promise<unknown[]> {
  const rows = await visibleRows<Row & { omitted: boolean }>(
    db,
    partnerId,
    filters,
    {
      portCallID: 'pc.port_call_id',
      portVisitReference: 'pc.port_visit_reference',
      UNLocationCode: 'pc.un_location_code',
      vesselIMONumber: "pc.body->'vessel'->>'vesselIMONumber'",
      vesselName: 'pc.vessel_name',
      MMSINumber: 'pc.mmsi',
    },
    (extra) =>
      `SELECT pc.body, pc.omitted FROM dcsa.port_calls pc WHERE ${VISIBLE_PORT_CALL}${extra} ORDER BY pc.updated_at, pc.port_call_id`,
  );
  return rows.map((r) => ({ ...r.body, omitted: r.omitted }));
}

export async function terminalCallsOf(db: Queryable, partnerId: number, filters: Filters): Promise<unknown[]> {
  const rows = await visibleRows<Row & { omitted: boolean }>(
    db,
    partnerId,
    filters,
    {
      portCallID: 'tc.port_call_id',
      terminalCallID: 'tc.terminal_call_id',
      ...Object.fromEntries(TERMINAL_CALL_BODY_FILTERS.map((f) => [f, `tc.body->>'${f}'`])),
    },
    (extra) =>
      `SELECT tc.body, tc.omitted FROM dcsa.terminal_calls tc JOIN dcsa.port_calls pc ON pc.port_call_id = tc.port_call_id
      WHERE (tc.partner_id = $1 OR ${VISIBLE_PORT_CALL})${extra} ORDER BY tc.updated_at, tc.terminal_call_id`,
  );
  return rows.map((r) => ({ ...r.body, omitted: r.omitted }));
}

export async function portCallServicesOf(db: Queryable, partnerId: number, filters: Filters): Promise<unknown[]> {
  const rows = await visibleRows<Row & { cancelled: boolean; declined: boolean }>(
    db,
    partnerId,
    filters,
    { terminalCallID: 's.terminal_call_id', portCallServiceID: 's.service_id', portCallServiceType: 's.service_type' },
    (extra) =>
      `SELECT s.body, s.cancelled, s.declined FROM dcsa.services s JOIN dcsa.port_calls pc ON pc.port_call_id = s.port_call_id
      WHERE (s.partner_id = $1 OR ${VISIBLE_PORT_CALL})${extra} ORDER BY s.updated_at, s.service_id`,
  );
  return rows.map((r) => ({ ...r.body, cancelled: r.cancelled, declined: r.declined }));
}

export async function timestampsOf(db: Queryable, partnerId: number, filters: Filters): Promise<unknown[]> {
  const rows = await visibleRows<Row>(
    db,
    partnerId,
    filters,
    { portCallServiceID: 't.service_id', timestampID: 't.timestamp_id', classifierCode: 't.classifier' },
    (extra) =>
      `SELECT t.body FROM dcsa.timestamps t JOIN dcsa.port_calls pc ON pc.port_call_id = t.port_call_id
      WHERE (t.partner_id = $1 OR ${VISIBLE_PORT_CALL})${extra} ORDER BY t.seq`,
  );
  return rows.map((r) => r.body);
}

export async function vesselStatusesOf(db: Queryable, partnerId: number, filters: Filters): Promise<unknown[]> {
  const params: unknown[] = [partnerId, filters.portCallServiceID];
  const { rows } = await db.query<Row>(
    `SELECT vs.body FROM dcsa.vessel_statuses vs
       JOIN dcsa.services s ON s.service_id = vs.service_id
       JOIN dcsa.port_calls pc ON pc.port_call_id = s.port_call_id
      WHERE vs.service_id = $2 AND (vs.partner_id = $1 OR ${VISIBLE_PORT_CALL}) ORDER BY vs.id DESC`,
    params,
  );
  return rows.map((r) => r.body);
}
