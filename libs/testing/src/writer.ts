// A session that holds a writing transaction open (it has taken a transaction id), as another application, a
// migration or a `psql` left open would: what holds the event log's commit-order readers back
// (docs/architecture.md#the-event-store).

import { openDb } from '@pcas/sql';

export interface HeldWriter {
  /** The backend's process id (pg_stat_activity's `pid`). */
  pid: number;
  /** Commits and closes the session; safe to call more than once. */
  end(): Promise<void>;
}

/** Opens a session on `url` named `applicationName` and begins a transaction that holds a transaction id. */
export async function holdWritingTransaction(url: string, applicationName: string): Promise<HeldWriter> {
  const session = await openDb({ url, poolSize: 1, applicationName });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let done: Promise<unknown> = Promise.resolve();
  const pid = await new Promise<number>((began, failed) => {
    done = session
      .transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_current_xact_id()');
        began(rows[0].pid);
        await released;
      })
      .catch(failed);
  });
  let closing: Promise<void> | undefined;
  return {
    pid,
    end() {
      release();
      closing ??= done.then(() => session.close());
      return closing;
    },
  };
}
