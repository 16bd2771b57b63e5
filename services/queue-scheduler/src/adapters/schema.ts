// The queue schema: the queue-scheduler service's read models, served by the gateway (docs/architecture.md#services). The
// statements run in order under one advisory lock, so several processes may start together.

import type { Db } from '@pcas/sql';
import { QUEUE_DDL } from './queue-store.ts';

const DDL: string[] = ['CREATE SCHEMA IF NOT EXISTS queue', ...QUEUE_DDL];

/** Creates the schema if missing; idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('pcas.schema.queue'))");
    for (const statement of DDL) await tx.query(statement);
  });
}
