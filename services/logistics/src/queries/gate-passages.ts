// GET /logistics-timestamps/:limit and …/by-license-plate/:license_plate, run by the gateway in its process
// (`@pcas/logistics/queries`): read-only queries on this service's read model logistics.gate_passages, whose rows
// are shaped like the answers, with the original's plate and checkpoint filter. Until this service has created its
// schema there is nothing to read.

import { pgTimestampText, type Queryable } from '@pcas/sql';

/** GET …/by-license-plate/:license_plate answers at most this many passages, the newest (as the original). */
export const BY_LICENSE_PLATE_SIZE = 100;

/** One passage as the original served it: `time` ISO 8601 in UTC, the other times PostgreSQL's text. */
const ITEM = `json_build_object(
    'time', to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"'),
    'checkpoint', checkpoint,
    'direction', direction,
    'created_by', created_by,
    'created_at', ${pgTimestampText('created_at')},
    'modified_by', modified_by,
    'modified_at', ${pgTimestampText('modified_at')},
    'external_id', external_id,
    'front_license_plates', front_license_plates,
    'rear_license_plates', rear_license_plates,
    'containers', containers)`;

export interface LogisticsFilter {
  /** Only passages with one of these plate numbers, front or rear (empty: no plate filter). */
  licensePlates: readonly string[];
  /** With a plate filter: only passages at one of these checkpoints too (empty: any checkpoint). */
  checkpoints: readonly string[];
}

async function items(db: Queryable, where: string, params: unknown[], limit: number): Promise<unknown[]> {
  params.push(limit);
  const rows = (
    await db.query<{ o: unknown }>(
      `SELECT ${ITEM} AS o FROM logistics.gate_passages ${where}
        ORDER BY time DESC, created_at DESC, event_id LIMIT $${params.length}`,
      params,
    )
  ).rows;
  return rows.map((r) => r.o);
}

/**
 * The newest `limit` passages, newest `time` first. As the original: with LICENSE_PLATES_FILTER set, only those
 * with a listed plate (front or rear) and, with CHECKPOINTS_FILTER set too, at a listed checkpoint.
 */
export function listGatePassages(db: Queryable, limit: number, filter: LogisticsFilter): Promise<unknown[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.licensePlates.length > 0) {
    params.push(filter.licensePlates);
    where.push(`plate_numbers && $${params.length}::text[]`);
    if (filter.checkpoints.length > 0) {
      params.push(filter.checkpoints);
      where.push(`checkpoint = ANY($${params.length}::text[])`);
    }
  }
  return items(db, where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params, limit);
}

/** `{license_plate, timestamps}`: the newest 100 passages whose front or rear plate number is exactly this one. */
export async function gatePassagesByPlate(
  db: Queryable,
  licensePlate: string,
): Promise<{ license_plate: string; timestamps: unknown[] }> {
  const timestamps = await items(db, 'WHERE plate_numbers @> ARRAY[$1]::text[]', [licensePlate], BY_LICENSE_PLATE_SIZE);
  return { license_plate: licensePlate, timestamps };
}
