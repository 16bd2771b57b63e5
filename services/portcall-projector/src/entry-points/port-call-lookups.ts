// The lookups ingest and the vis-bridge ask the portcall-projector over its RPC queue (PortcallLookups in
// libs/contracts/src/lookups.ts), so that neither reads the projector's tables: the AIS agents' MMSI→IMO map
// (ingest) takes the vessels of ongoing port calls by MMSI, under the one ongoing rule (queries/ongoing.ts); the
// vis-bridge checks an RTA's port call and follows port calls for voyage-plan requests and departures. Any other
// name goes on to `next`.

import { decodeCommand, positiveId, type Unchecked } from '@pcas/commands';
import {
  ApiError,
  type LookedUpPortCall,
  type OngoingImosByMmsiQuery,
  type PortCallsByIdsQuery,
  PortcallLookups,
} from '@pcas/contracts';
import type { RpcHandler } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { ongoing } from '../queries/ongoing.ts';

/** Ids or MMSIs asked at once, at most (a batch of AIS positions, a page of port-call changes). */
const MAX_KEYS = 10_000;

function keysOf(value: unknown, name: string): number[] {
  if (!Array.isArray(value) || value.length > MAX_KEYS) throw ApiError.badRequest(`Invalid ${name}`);
  return value.map((v) => {
    const n = positiveId(v);
    if (n === undefined) throw ApiError.badRequest(`Invalid ${name}`);
    return n;
  });
}

const ONGOING_BY_MMSI_SQL = `
  SELECT DISTINCT ON (p.mmsi) p.mmsi::bigint::text AS mmsi, p.imo::int AS imo FROM portcall.port_calls p
   WHERE p.mmsi = ANY($1::bigint[]) AND ${ongoing('p')} ORDER BY p.mmsi, p.id DESC`;

const BY_IDS_SQL = `
  SELECT p.id::int AS id, p.imo::int AS imo, p.vessel_name, p.status,
         to_char(p.current_eta AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS current_eta,
         to_char(p.current_etd AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS current_etd,
         p.next_port, p.is_vis
    FROM portcall.port_calls p WHERE p.id = ANY($1::bigint[])`;

export function withPortCallLookups(db: Queryable, next: RpcHandler): RpcHandler {
  return async (command, payload, headers) => {
    if (command === PortcallLookups.ongoingImosByMmsi) {
      const { input } = decodeCommand<Unchecked<OngoingImosByMmsiQuery>>(payload);
      const mmsis = keysOf(input.mmsis, 'mmsis');
      if (mmsis.length === 0) return [];
      const { rows } = await db.query<{ mmsi: string; imo: number }>(ONGOING_BY_MMSI_SQL, [mmsis]);
      return rows.map((r) => [Number(r.mmsi), r.imo]);
    }
    if (command === PortcallLookups.portCallsByIds) {
      const { input } = decodeCommand<Unchecked<PortCallsByIdsQuery>>(payload);
      const ids = keysOf(input.ids, 'ids');
      if (ids.length === 0) return [];
      return (await db.query<LookedUpPortCall>(BY_IDS_SQL, [ids])).rows;
    }
    return next(command, payload, headers);
  };
}
