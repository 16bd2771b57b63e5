// A vessel of the register by name, as timestamps find theirs (case-insensitive, the oldest match): asked by the
// vis-bridge over RPC (IngestLookups.vesselImoByName) when a VIS service names its vessel but gives no IMO.

import type { Queryable } from '@pcas/sql';

export async function vesselImoByName(q: Queryable, name: string): Promise<number | null> {
  const { rows } = await q.query<{ imo: string | number }>(
    'SELECT imo FROM ingest.vessels WHERE lower(vessel_name) = lower($1) ORDER BY id LIMIT 1',
    [name],
  );
  return rows[0] ? Number(rows[0].imo) : null;
}
