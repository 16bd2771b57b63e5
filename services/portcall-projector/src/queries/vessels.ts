// A vessel's visibility as POST /vessel-visibility set it (portcall.vessels; docs/domain.md#vessels), lent as SQL
// to ingest's GET /vessels query, which the gateway composes: this service's row wins over ingest's column.

/** The join on the vessel whose IMO is the expression `imo`, and its visibility (`fallback` without a row). */
export const vesselVisibility = {
  join: (imo: string) => `LEFT JOIN portcall.vessels pv ON pv.imo = ${imo}`,
  visible: (fallback: string) => `coalesce(pv.visible, ${fallback})`,
};
