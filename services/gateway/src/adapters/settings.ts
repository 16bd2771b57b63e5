// Reads of gateway.settings (seeded by the schema; written by the settings routes of a later issue).

import type { ModuleName } from '@pcas/http-kit';
import type { Queryable } from '@pcas/sql';

export async function readSettings(db: Queryable, names: readonly string[]): Promise<Record<string, string>> {
  const { rows } = await db.query<{ name: string; value: string }>(
    'SELECT name, value FROM gateway.settings WHERE name = ANY($1::text[])',
    [names],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

/** One indexed read per call, so toggling a module takes effect at once in every gateway process. */
export async function isModuleEnabled(db: Queryable, module: ModuleName): Promise<boolean> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM gateway.settings WHERE name = $1', [
    `${module}_module`,
  ]);
  return rows[0]?.value === 'enabled';
}
