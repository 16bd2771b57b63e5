// The one database access interface, implemented over node-postgres (fleet) and PGlite (embedded).

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<R>>;
}

export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn in one transaction (BEGIN ... COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; returns a function that stops listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Runs fn while holding a session-level advisory lock on a dedicated connection; resolves false at once
   * when another session holds it. Used for single-active workers (the relay). `lockKey`: from advisoryLockKey.
   */
  tryWithAdvisoryLock<T>(
    lockKey: string,
    fn: (lost: AbortSignal) => Promise<T>,
  ): Promise<{ acquired: boolean; result?: T }>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** postgres:// URL: real PostgreSQL through a pg Pool. */
  url?: string;
  /** PGlite data directory (embedded mode); 'memory://' for a throw-away database. */
  dataDir?: string;
  poolSize?: number;
  applicationName?: string;
  /** PostgreSQL only: `statement_timeout` of every connection, in ms (unset or 0: the server's). */
  statementTimeoutMs?: number;
  /** PostgreSQL only: `idle_in_transaction_session_timeout` of every connection, in ms (unset or 0: the server's). */
  idleInTransactionTimeoutMs?: number;
}
