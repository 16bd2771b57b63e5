// A vessel's port call as the queue's live ETA follows it (docs/domain.md#queue-e-mails-and-live-eta): its first
// one not done, by current ETA. Lent as SQL to the queue's dashboard query, which the gateway composes.

/** SQL subquery on the vessel whose IMO is the expression `imo`: columns live_eta, ptd, vessel_nationality. */
export function livePortCall(imo: string): string {
  return `SELECT p.doc->>'live_eta' AS live_eta, p.doc->>'current_ptd' AS ptd, p.nationality AS vessel_nationality
   FROM portcall.port_calls p WHERE p.imo = ${imo} AND p.status <> 'done' ORDER BY p.current_eta LIMIT 1`;
}
