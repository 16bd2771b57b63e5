// A fresh database opened for a test: on the test PostgreSQL server (infra.ts), or on an embedded PGlite in memory
// where no server can be had outside CI.

import { type Db, type OpenDbOptions, openDb } from '@pcas/sql';
import { freshPostgres } from './infra.ts';

export interface DatabaseForTest {
  /** postgres:// URL of the database; undefined when it runs on PGlite. */
  url: string | undefined;
  db: Db;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

/** `pool`: the pool's options on a real server (PGlite has one connection). */
export async function freshDatabase(
  prefix: string,
  pool: Pick<OpenDbOptions, 'applicationName' | 'poolSize'> = {},
): Promise<DatabaseForTest> {
  const pg = await freshPostgres(prefix);
  const db = await openDb(pg.url ? { url: pg.url, ...pool } : { dataDir: 'memory://' });
  return {
    url: pg.url,
    db,
    async close() {
      await db.close();
      await pg.drop();
    },
  };
}
