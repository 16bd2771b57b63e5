// The ongoing port call rule (docs/domain.md#the-activity-timeline), the one definition every reader of the
// projector's port calls applies: GET /ongoing-port-calls' list and the sea chart's vessels with a port call.

/**
 * SQL condition on the portcall.port_calls row aliased `alias`: shown (vessel visible, to_port empty or visible),
 * and not done or done with its ATD in the last two hours. Written so each half can use its partial index.
 */
export function ongoing(alias: string): string {
  return `${alias}.shown AND (${alias}.status <> 'done' OR (${alias}.status = 'done' AND ${alias}.atd >= now() - interval '2 hours'))`;
}

/** SQL condition: the vessel whose IMO is the expression `imo` has an ongoing port call. */
export function hasOngoingPortCall(imo: string): string {
  return `EXISTS (SELECT 1 FROM portcall.port_calls pc WHERE pc.imo = ${imo} AND ${ongoing('pc')})`;
}
