// The port calls the port-call watch follows: asked of the portcall-projector (its lookup, PortcallLookups in
// libs/contracts/src/lookups.ts; the vis-bridge reads none of its tables), each with what was sent for it
// (vis.port_calls) and the newest VIS service of its IMO (vis.vessels), read here in one query.

import {
  type LookedUpPortCall,
  PORTCALL_PROJECTOR,
  type PortCallsByIdsQuery,
  PortcallLookups,
  type VisVesselRecorded,
} from '@pcas/contracts';
import type { Bus } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import type { PortCallSent, WatchedPortCall } from '../domain/outgoing.ts';

export interface LoadedPortCall {
  pc: WatchedPortCall;
  sent: PortCallSent;
  /** The newest VIS service of the port call's IMO, if any. */
  vessel: VisVesselRecorded | undefined;
}

const SENT_AND_SERVICES_SQL = `
  SELECT k.id::int AS id, COALESCE(s.voyage_plan_requested, false) AS voyage_plan_requested, s.last_etd,
         v.imo::int AS service_imo, v.vessel_name AS service_name, v.service_id, v.service_url
    FROM unnest($1::bigint[], $2::bigint[]) AS k(id, imo)
    LEFT JOIN vis.port_calls s ON s.port_call_id = k.id
    LEFT JOIN LATERAL (
      SELECT imo, vessel_name, service_id, service_url FROM vis.vessels WHERE imo = k.imo
       ORDER BY modified_at DESC, id DESC LIMIT 1) v ON true`;

type SentRow = PortCallSent & {
  id: number;
  service_imo: number | null;
  service_name: string;
  service_id: string;
  service_url: string;
};

/** The port calls of `ids` still there, in the order of `ids`. */
export async function loadWatchedPortCalls(db: Queryable, bus: Bus, ids: readonly number[]): Promise<LoadedPortCall[]> {
  const query: PortCallsByIdsQuery = { ids: [...ids] };
  const actor = { user_id: null, api_key_id: null };
  const found = await bus.rpc<LookedUpPortCall[]>(PORTCALL_PROJECTOR, PortcallLookups.portCallsByIds, {
    actor,
    input: query,
  });
  if (found.length === 0) return [];
  const { rows } = await db.query<SentRow>(SENT_AND_SERVICES_SQL, [found.map((p) => p.id), found.map((p) => p.imo)]);
  const sentById = new Map(rows.map((r) => [r.id, r]));
  const portCallById = new Map(found.map((p) => [Number(p.id), p]));
  return ids.flatMap((id) => {
    const p = portCallById.get(id);
    const r = sentById.get(id);
    if (!p || !r) return [];
    const pc: WatchedPortCall = {
      id: Number(p.id),
      imo: Number(p.imo),
      vessel_name: p.vessel_name,
      status: p.status,
      current_eta: p.current_eta,
      current_etd: p.current_etd,
      next_port: p.next_port,
      is_vis: p.is_vis,
    };
    const vessel: VisVesselRecorded | undefined =
      r.service_imo === null
        ? undefined
        : { imo: r.service_imo, vessel_name: r.service_name, service_id: r.service_id, service_url: r.service_url };
    return [{ pc, sent: { voyage_plan_requested: r.voyage_plan_requested, last_etd: r.last_etd }, vessel }];
  });
}
