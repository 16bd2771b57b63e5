// Fixed vessels, owned by ingest (docs/domain.md#sea-chart): each change an event on `fixedvessel-<id>`, and the
// row of ingest.fixed_vessels written in the append's transaction (the gateway lists it). The IMO and MMSI
// checks read the other rows under one lock, so two changes never give one IMO or MMSI to two vessels. The sea
// chart's rows of the vessels it names (before and after) get their Feature again in the same transaction.

import { type FixedVesselData, fixedVesselStream } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import { AUDIT_COLUMNS, type Queryable } from '@pcas/sql';
import type { FixedVesselContext, FixedVesselEvent } from '../domain/fixed-vessels.ts';
import { lockSeaChart, refreshSeaChartFeatures } from './positions.ts';

/**
 * ingest.fixed_vessels: one row per fixed vessel, shaped like GET /sea-chart/fixed-vessel(s) (the gateway adds
 * `readable_type_name`); ids from ingest.fixed_vessel_ids. Rebuildable from the fixedvessel-* streams.
 */
export const FIXED_VESSELS_DDL = [
  'CREATE SEQUENCE IF NOT EXISTS ingest.fixed_vessel_ids',
  `CREATE TABLE IF NOT EXISTS ingest.fixed_vessels (
     id bigint PRIMARY KEY,
     imo bigint,
     mmsi bigint,
     vessel_type integer NOT NULL,
     vessel_name text NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE UNIQUE INDEX IF NOT EXISTS fixed_vessels_imo ON ingest.fixed_vessels (imo) WHERE imo IS NOT NULL',
  'CREATE UNIQUE INDEX IF NOT EXISTS fixed_vessels_mmsi ON ingest.fixed_vessels (mmsi) WHERE mmsi IS NOT NULL',
];

/** Every fixed-vessel change holds this lock for its transaction (also the sea chart's, see positions.ts). */
export const lockFixedVessels: (tx: Queryable) => Promise<void> = lockSeaChart;

export async function nextFixedVesselId(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ id: string }>("SELECT nextval('ingest.fixed_vessel_ids') AS id");
  return Number(rows[0].id);
}

const toData = (r: Record<string, unknown>): FixedVesselData => ({
  id: Number(r.id),
  imo: r.imo === null ? null : Number(r.imo),
  mmsi: r.mmsi === null ? null : Number(r.mmsi),
  vessel_type: Number(r.vessel_type),
  vessel_name: String(r.vessel_name),
});

/** What the decision needs: the vessel's own row, who else holds the IMO / MMSI, whether the IMO is a vessel. */
export async function readFixedVesselContext(
  tx: Queryable,
  id: number | null,
  identities: { imo: number | null; mmsi: number | null },
): Promise<FixedVesselContext> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT (SELECT row_to_json(f) FROM ingest.fixed_vessels f WHERE f.id = $1) AS current,
            (SELECT f.id FROM ingest.fixed_vessels f WHERE f.imo = $2 AND f.id IS DISTINCT FROM $1 LIMIT 1) AS imo_taken,
            (SELECT f.id FROM ingest.fixed_vessels f WHERE f.mmsi = $3 AND f.id IS DISTINCT FROM $1 LIMIT 1) AS mmsi_taken,
            EXISTS (SELECT 1 FROM ingest.vessels v WHERE v.imo = $2) AS known`,
    [id, identities.imo, identities.mmsi],
  );
  const r = rows[0];
  return {
    current: r.current ? toData(r.current as Record<string, unknown>) : null,
    imoTakenBy: r.imo_taken === null ? null : Number(r.imo_taken),
    mmsiTakenBy: r.mmsi_taken === null ? null : Number(r.mmsi_taken),
    imoIsKnownVessel: r.known === true,
  };
}

/**
 * Appends the change to its vessel's stream and writes the row, in the caller's transaction (lock held), and makes
 * the sea chart's Features of the vessels it names (`previous`: the row before, if any) again.
 */
export async function saveFixedVesselChange(
  tx: Queryable,
  store: EventStore,
  id: number,
  events: readonly FixedVesselEvent[],
  metadata: EventMetadata,
  userId: number | null,
  previous: { imo: number | null; mmsi: number | null } | null,
): Promise<void> {
  if (events.length === 0) return;
  await store.append(
    fixedVesselStream(id),
    events.map((e) => ({ ...e, metadata })),
    { tx, expectedVersion: events[0].type === 'FixedVesselAdded' ? 'no_stream' : 'stream_exists' },
  );
  for (const event of events) {
    if (event.type === 'FixedVesselRemoved') {
      await tx.query('DELETE FROM ingest.fixed_vessels WHERE id = $1', [id]);
      continue;
    }
    const v = event.data;
    await tx.query(
      `INSERT INTO ingest.fixed_vessels (id, imo, mmsi, vessel_type, vessel_name, created_by, modified_by)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (id) DO UPDATE SET imo = excluded.imo, mmsi = excluded.mmsi, vessel_type = excluded.vessel_type,
         vessel_name = excluded.vessel_name, modified_by = excluded.modified_by, modified_at = now()`,
      [id, v.imo, v.mmsi, v.vessel_type, v.vessel_name, userId],
    );
  }
  const named = [
    ...(previous ? [previous] : []),
    ...events.flatMap((e) => (e.type === 'FixedVesselRemoved' ? [] : [e.data])),
  ];
  await refreshSeaChartFeatures(tx, { imos: named.map((v) => v.imo), mmsis: named.map((v) => v.mmsi) });
}

/** Every fixed vessel's MMSI and IMO (the AIS agents' map). */
export async function readMmsiImoPairs(db: Queryable): Promise<{ mmsi: number | null; imo: number | null }[]> {
  const { rows } = await db.query<{ mmsi: string | null; imo: string | null }>(
    'SELECT mmsi, imo FROM ingest.fixed_vessels WHERE mmsi IS NOT NULL ORDER BY mmsi',
  );
  return rows.map((r) => ({
    mmsi: r.mmsi === null ? null : Number(r.mmsi),
    imo: r.imo === null ? null : Number(r.imo),
  }));
}
