// Who holds commit-order reads back (docs/architecture.md#the-event-store). A reader passes an event only once
// every transaction of our database that was running when the event committed has ended, so one writer left
// open stops the relay and every projection behind it. This names such writers for /health-check and the log.

import type { Logger } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';

/** A session (or prepared transaction) of our database whose open writing transaction holds readers back. */
export interface HorizonHolder {
  /** The backend's process id; null for a prepared transaction, which has none. */
  pid: number | null;
  /** Its `application_name` (our services name themselves), or `prepared: <gid>`. */
  application_name: string;
  /** How long its transaction has been open, in whole seconds. */
  age_seconds: number;
}

interface HolderRow {
  pid: number | null;
  application_name: string | null;
  xid: string;
  age_ms: number | null;
}

// `xact_start` is shown only for sessions of our own role (or to pg_read_all_stats); a writer of another role has
// its age counted from when this process first saw it. Our own session holds nothing while it reads.
const HOLDERS_SQL = `SELECT a.pid, a.application_name, a.backend_xid::text AS xid,
         (EXTRACT(EPOCH FROM clock_timestamp() - a.xact_start) * 1000)::float8 AS age_ms
    FROM pg_stat_activity a
   WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL AND a.pid <> pg_backend_pid()
  UNION ALL
  SELECT NULL, 'prepared: ' || p.gid, p.transaction::text,
         (EXTRACT(EPOCH FROM clock_timestamp() - p.prepared) * 1000)::float8
    FROM pg_prepared_xacts p
   WHERE p.database = current_database()`;

export interface HorizonWatch {
  /** The writers holding readers back for longer than the threshold, oldest first; each is logged once. */
  check(): Promise<HorizonHolder[]>;
}

export function createHorizonWatch(db: Queryable, options: { thresholdMs: number; log: Logger; now?: () => number }) {
  const now = options.now ?? Date.now;
  /** Transaction (pid and xid) → when first seen, and whether it has been logged. */
  const seen = new Map<string, { since: number; logged: boolean }>();
  const watch: HorizonWatch = {
    async check() {
      const { rows } = await db.query<HolderRow>(HOLDERS_SQL);
      const at = now();
      const current = new Set<string>();
      const holders: HorizonHolder[] = [];
      for (const row of rows) {
        const key = `${row.pid}:${row.xid}`;
        current.add(key);
        let entry = seen.get(key);
        if (!entry) {
          entry = { since: at - (row.age_ms ?? 0), logged: false };
          seen.set(key, entry);
        }
        const ageMs = row.age_ms ?? at - entry.since;
        if (ageMs < options.thresholdMs) continue;
        const holder = {
          pid: row.pid,
          application_name: row.application_name ?? '',
          age_seconds: Math.floor(ageMs / 1000),
        };
        holders.push(holder);
        if (!entry.logged) {
          entry.logged = true;
          options.log.warn(
            holder,
            'a transaction open in this database holds back the event log: the relay, projections and live views wait for it to end',
          );
        }
      }
      for (const key of seen.keys()) if (!current.has(key)) seen.delete(key);
      return holders.sort((a, b) => b.age_seconds - a.age_seconds);
    },
  };
  return watch;
}
