// Db over PGlite (embedded mode): one in-process PostgreSQL, i.e. one connection. Everything takes turns on a
// mutex, so a query from another caller never runs inside someone's open transaction; it waits for COMMIT.

import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { Mutex } from './mutex.ts';
import { INT8_OID, parseInt8 } from './parsers.ts';
import type { Db, OpenDbOptions, Queryable, QueryResult } from './types.ts';

type PgliteResults = { rows: unknown[]; affectedRows?: number };

const toResult = <R>(r: PgliteResults): QueryResult<R> => ({
  rows: r.rows as R[],
  rowCount: r.affectedRows || r.rows.length,
});

const isPath = (dataDir: string) => !/^[a-z]+:\/\//.test(dataDir);

export async function openPglite(options: OpenDbOptions & { dataDir: string }): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (isPath(options.dataDir)) mkdirSync(options.dataDir, { recursive: true });
  // int8[] parsers are derived from the element parser by PGlite itself.
  const pglite: PGlite = await PGlite.create(options.dataDir, { parsers: { [INT8_OID]: parseInt8 } });
  const mutex = new Mutex();
  // Waiting for the mutex from inside a transaction callback would wait for ourselves forever: fail instead.
  const openTx = new AsyncLocalStorage<{ open: boolean }>();
  const assertOutsideTx = (what: string) => {
    if (openTx.getStore()?.open) {
      throw new Error(`PGlite: ${what} called inside a transaction callback; use the tx it was given`);
    }
  };
  const heldLocks = new Set<string>();
  const lockControllers = new Set<AbortController>();

  return {
    kind: 'pglite',

    query<R>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
      assertOutsideTx('db.query');
      return mutex.run(async () => toResult<R>(await pglite.query(text, params)));
    },

    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      assertOutsideTx('db.transaction');
      return mutex.run(() =>
        pglite.transaction((t) => {
          const tx: Queryable = {
            query: async <R>(text: string, params?: unknown[]) => toResult<R>(await t.query(text, params)),
          };
          const state = { open: true };
          return openTx
            .run(state, () => fn(tx))
            .finally(() => {
              state.open = false;
            });
        }),
      );
    },

    async listen(channel, onNotify) {
      assertOutsideTx('db.listen');
      const unlisten = await mutex.run(() => pglite.listen(channel, onNotify));
      return () => mutex.run(() => unlisten());
    },

    // One process owns the database, so an in-process registry gives the same exclusion as a session lock.
    async tryWithAdvisoryLock(lockId, fn) {
      if (heldLocks.has(lockId)) return { acquired: false };
      heldLocks.add(lockId);
      const lost = new AbortController();
      lockControllers.add(lost);
      try {
        return { acquired: true, result: await fn(lost.signal) };
      } finally {
        heldLocks.delete(lockId);
        lockControllers.delete(lost);
      }
    },

    async close() {
      for (const c of lockControllers) c.abort(new Error('database closed'));
      await mutex.run(() => pglite.close());
    },
  };
}
