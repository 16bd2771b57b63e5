// What the crash tests' child processes (relay-child.ts, projection-child.ts) share: their settings come from the
// environment their test passes, each opens its own logger and database session under its name, and a SIGTERM
// (the test's orderly stop, as opposed to the SIGKILL crash) shuts it down cleanly.

import { createLogger, type Logger } from '@pcas/observability';
import { type Db, openDb } from '@pcas/sql';
import type { Bus } from '../types.ts';

/** A setting the test must pass in the environment. */
export const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

/** The child's logger and database session, both named `name` (the session as its application name). */
export async function openChild(name: string): Promise<{ log: Logger; db: Db }> {
  const log = createLogger(name, process.env.LOG_LEVEL ?? 'warn');
  const db = await openDb({ url: env('DATABASE_URL'), applicationName: name });
  return { log, db };
}

/** On SIGTERM: stops `worker` (the relay or projection), closes the bus and the database session, and exits. */
export function exitOnSigterm(worker: { stop(): Promise<void> }, bus: Bus, db: Db): void {
  process.on('SIGTERM', async () => {
    await worker.stop();
    await bus.close();
    await db.close();
    process.exit(0);
  });
}
