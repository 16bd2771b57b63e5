// GET /vessels: read-only query on the ingest service's vessel table (docs/domain.md#vessels).
// `visible` is set by POST /vessel-visibility, which the portcall-projector owns: its portcall.vessels wins over
// ingest's column (which keeps the original's default, true).

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import type { Queryable } from '@pcas/sql';
import { pageWithTotal } from '../paging.ts';
import { pgTimestampText } from './pg-text.ts';

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
const VISIBLE = 'coalesce(pv.visible, v.visible)';
const SORTABLE: Record<string, string> = Object.fromEntries(
  COLUMNS.map((c) => [c, c === 'visible' ? VISIBLE : `v.${c}`]),
);
const FROM = 'ingest.vessels v LEFT JOIN portcall.vessels pv ON pv.imo = v.imo';

export function vesselOrderBy(sort: string | undefined): string {
  for (const token of (sort ?? '').split(',')) {
    const lowered = /^\s*lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(token);
    // lower() exists for text only; anything else would be a database error instead of the original's 400.
    if (lowered && lowered[1] !== 'vessel_name') throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
  }
  return parseSort(sort, SORTABLE, 'id');
}

export async function listVessels(db: Queryable, query: VesselListQuery): Promise<Paginated<VesselListRow>> {
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
