// GET /vessels, run by the gateway in its process (`@pcas/ingest/queries`): read-only query on this service's vessel
// table (docs/domain.md#vessels). `visible` is set by POST /vessel-visibility, which the portcall-projector owns:
// its portcall.vessels wins over ingest's column (which keeps the original's default, true), joined by the SQL the
// projector lends (`@pcas/portcall-projector/queries`' vesselVisibility; the gateway composes them).

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import { pageWithTotal, pgTimestampText, type Queryable } from '@pcas/sql';

export interface VesselListRow {
  id: number;
  imo: number;
  vessel_name: string;
  visible: boolean;
  /** vessel type id */
  vessel_type: number;
  /** PostgreSQL text format at UTC, as the original's raw model. */
  created_at: string | null;
  created_by: number | null;
  modified_at: string | null;
  modified_by: number | null;
}

export interface VesselListQuery {
  offset: number;
  limit: number;
  sort?: string;
  search?: string;
}

const COLUMNS = [
  'id',
  'imo',
  'vessel_name',
  'visible',
  'vessel_type',
  'created_at',
  'created_by',
  'modified_at',
  'modified_by',
] as const;
/** How another area overrides a vessel's `visible`: SQL its owner lends. */
export interface VesselVisibility {
  /** A join on the vessel whose IMO is the expression `imo`. */
  join(imo: string): string;
  /** The vessel's visibility, `fallback` (ingest's column) where the join found nothing. */
  visible(fallback: string): string;
}

export interface VesselQueries {
  vesselOrderBy(sort: string | undefined): string;
  listVessels(db: Queryable, query: VesselListQuery): Promise<Paginated<VesselListRow>>;
}

/** GET /vessels with `visible` as `visibility` has it. */
export function createVesselQueries(visibility: VesselVisibility): VesselQueries {
  const VISIBLE = visibility.visible('v.visible');
  const SORTABLE: Record<string, string> = Object.fromEntries(
    COLUMNS.map((c) => [c, c === 'visible' ? VISIBLE : `v.${c}`]),
  );
  const FROM = `ingest.vessels v ${visibility.join('v.imo')}`;

  function vesselOrderBy(sort: string | undefined): string {
    for (const token of (sort ?? '').split(',')) {
      const lowered = /^\s*lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(token);
      // lower() exists for text only; anything else would be a database error instead of the original's 400.
      if (lowered && lowered[1] !== 'vessel_name') throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
    }
    return parseSort(sort, SORTABLE, 'id');
  }

  async function listVessels(db: Queryable, query: VesselListQuery): Promise<Paginated<VesselListRow>> {
    const orderBy = vesselOrderBy(query.sort);
    const search = searchClause(query.search, { columns: ['v.vessel_name'], imoColumn: 'v.imo' });
    const filter = search ? `WHERE ${search.sql}` : '';
    const params = search?.params ?? [];
    const page = await pageWithTotal<VesselListRow>(db, {
      select: `v.id, v.imo, v.vessel_name, ${VISIBLE} AS visible, v.vessel_type,
      ${pgTimestampText('v.created_at')} AS created_at, v.created_by,
      ${pgTimestampText('v.modified_at')} AS modified_at, v.modified_by`,
      from: `FROM ${FROM} ${filter}`,
      params,
      orderBy: `${orderBy}, v.id`,
      limit: query.limit,
      offset: query.offset,
    });
    return paginated(page.rows, { start: query.offset, limit: query.limit, total: page.total });
  }

  return { vesselOrderBy, listVessels };
}
