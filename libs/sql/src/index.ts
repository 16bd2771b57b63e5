import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db, OpenDbOptions } from './types.ts';

export { equalities, whereAll } from './conditions.ts';
export { type PageQuery, pageWithTotal } from './paging.ts';
export { pgTimestampText } from './pg-text.ts';
export { AUDIT_COLUMNS, advisoryLockKey, advisoryLockKeySql, lockForTransaction, setUpSchema } from './schema-setup.ts';
export { together, togetherText } from './together.ts';
export type { Db, OpenDbOptions, Queryable, QueryResult } from './types.ts';

/** PostgreSQL when `url` is given (the fleet), else PGlite in `dataDir` (embedded). */
export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.url) return openPostgres({ ...options, url: options.url });
  if (options.dataDir) return openPglite({ ...options, dataDir: options.dataDir });
  throw new Error('openDb needs a url (PostgreSQL) or a dataDir (PGlite)');
}
