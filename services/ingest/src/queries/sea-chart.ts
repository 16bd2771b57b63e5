// The sea chart's reads of this service's read models (docs/domain.md#sea-chart), run by the gateway in its
// process (`@pcas/ingest/queries`): GET /sea-chart/vessels' Features from ingest.sea_chart_positions (each row
// with its Feature), and the fixed-vessel lists from ingest.fixed_vessels. Read-only.

import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import { VESSEL_TYPES } from '@pcas/s211';
import { pgTimestampText, type Queryable } from '@pcas/sql';

// Type names by vessel type id, as an SQL array (index = type id): the types are data of libs/s211, not tables.
const TYPE_NAMES = [...VESSEL_TYPES].sort((a, b) => a.id - b.id);
const typeNames: (string | null)[] = [];
for (const t of TYPE_NAMES) typeNames[t.id - 1] = t.name;

/**
 * Which non-fixed vessels the map shows: the projector's rule, lent by its queries module (the gateway passes
 * `@pcas/portcall-projector/queries`' `hasOngoingPortCall`).
 */
export interface ShownVessels {
  /** SQL condition on the IMO expression `imo`: the vessel has an ongoing port call. */
  condition(imo: string): string;
}

/**
 * One query: the Features (ingest keeps each row's finished GeoJSON Feature, adapters/positions.ts) younger than
 * the age limit, each kept when it is a fixed vessel's or its vessel has an ongoing port call, joined into the
 * answer by the caller. Measured with 2,000 features: the rows cost the server 2 ms of CPU where string_agg took 5
 * and making each Feature in the query 9.
 */
const VESSELS_SQL = (shown: ShownVessels) => `
  SELECT l.feature FROM ingest.sea_chart_positions l
   WHERE l.location_timestamp >= now() - make_interval(mins => $1::int)
     AND l.feature IS NOT NULL
     AND (l.fixed
          OR (l.imo IS NOT NULL AND ${shown.condition('l.imo')}))
   ORDER BY l.id`;

/** GET /sea-chart/vessels' Features (JSON texts, in id order) of the last `maxAgeMinutes`. */
export function createSeaChartFeatures(
  db: Queryable,
  maxAgeMinutes: number,
  shown: ShownVessels,
): () => Promise<string[]> {
  const sql = VESSELS_SQL(shown);
  return async () => {
    const rows = (await db.query<{ feature: string }>(sql, [maxAgeMinutes])).rows;
    return rows.map((r) => r.feature);
  };
}

// ---- fixed vessels ----

const FIXED_COLUMNS = [
  'id',
  'imo',
  'mmsi',
  'vessel_type',
  'vessel_name',
  'created_at',
  'created_by',
  'modified_at',
  'modified_by',
];
const FIXED_SORTABLE: Record<string, string> = Object.fromEntries(FIXED_COLUMNS.map((c) => [c, `f.${c}`]));

/** A fixed vessel as the original served it, with `readable_type_name` (the type's name). */
const FIXED_ITEM = `json_build_object(
    'id', f.id, 'imo', f.imo, 'mmsi', f.mmsi, 'vessel_type', f.vessel_type, 'vessel_name', f.vessel_name,
    'readable_type_name', ($1::text[])[f.vessel_type],
    'created_at', ${pgTimestampText('f.created_at')}, 'created_by', f.created_by,
    'modified_at', ${pgTimestampText('f.modified_at')}, 'modified_by', f.modified_by)`;

export interface FixedVesselListQuery {
  limit: number;
  offset: number;
  sort?: string;
  search?: string;
}

/** GET /sea-chart/fixed-vessels: paginated, sorted (default vessel_name), searched on the name (`^` a prefix). */
export async function listFixedVessels(db: Queryable, query: FixedVesselListQuery): Promise<Paginated<unknown>> {
  const orderBy = parseSort(query.sort, FIXED_SORTABLE, 'vessel_name');
  const counted = searchClause(query.search, { columns: ['f.vessel_name'] });
  const search = searchClause(query.search, { columns: ['f.vessel_name'], offset: 1 });
  const params = [typeNames, ...(search?.params ?? [])];
  const n = params.length + 1;
  const [total, data] = await Promise.all([
    db
      .query<{ total: number }>(
        `SELECT count(*)::int AS total FROM ingest.fixed_vessels f ${counted ? `WHERE ${counted.sql}` : ''}`,
        counted?.params ?? [],
      )
      .then((found) => found.rows),
    db
      .query<{ o: unknown }>(
        `SELECT ${FIXED_ITEM} AS o FROM ingest.fixed_vessels f ${search ? `WHERE ${search.sql}` : ''}
          ORDER BY ${orderBy}, f.id LIMIT $${n} OFFSET $${n + 1}`,
        [...params, query.limit, query.offset],
      )
      .then((found) => found.rows),
  ]);
  return paginated(
    data.map((r) => r.o),
    { start: query.offset, limit: query.limit, total: total[0]?.total ?? 0 },
  );
}

/** GET /sea-chart/fixed-vessel?id=: the vessel, or null when there is none (as the original's empty find). */
export async function fixedVesselById(db: Queryable, id: number): Promise<unknown | null> {
  const rows = (
    await db.query<{ o: unknown }>(`SELECT ${FIXED_ITEM} AS o FROM ingest.fixed_vessels f WHERE f.id = $2`, [
      typeNames,
      id,
    ])
  ).rows;
  return rows[0]?.o ?? null;
}
