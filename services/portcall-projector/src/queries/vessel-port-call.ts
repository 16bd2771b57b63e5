// A vessel's port call as the queue's live ETA follows it (docs/domain.md#queue-e-mails-and-live-eta): its first
// one not done, by current ETA. Lent as SQL to the queue's dashboard query, which the gateway composes; and a
// vessel's port calls as the queue-scheduler asks for them over RPC (entry-points/port-call-queries.ts).

import type { VesselPortCall } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';

/** SQL subquery on the vessel whose IMO is the expression `imo`: columns live_eta, ptd, vessel_nationality. */
export function livePortCall(imo: string): string {
  return `SELECT p.doc->>'live_eta' AS live_eta, p.doc->>'current_ptd' AS ptd, p.nationality AS vessel_nationality
   FROM portcall.port_calls p WHERE p.imo = ${imo} AND p.status <> 'done' ORDER BY p.current_eta LIMIT 1`;
}

/** The vessel's port calls by current ETA, then id (PortcallQueries.vesselPortCalls). */
export async function vesselPortCalls(q: Queryable, imo: number): Promise<VesselPortCall[]> {
  const { rows } = await q.query<Omit<VesselPortCall, 'id' | 'imo'> & { id: string; imo: string }>(
    `SELECT id, imo, status, vessel_name, loa, beam, draft, berth, doc->>'eta_form_email' AS eta_form_email,
            doc->>'live_eta' AS live_eta
       FROM portcall.port_calls WHERE imo = $1 ORDER BY current_eta, id`,
    [imo],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), imo: Number(r.imo), vessel_name: r.vessel_name || null }));
}
