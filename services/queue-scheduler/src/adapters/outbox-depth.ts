// The queue's outbox depths for operations (docs/operations.md#metrics-and-probes): e-mails not sent yet, and slot
// decisions whose timestamps ingest has not taken yet, counted at each scrape.

import { collectOutboxDepth } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';

/** Registers `outbox_depth{outbox="mail"}` and `{outbox="timestamp"}`; returns their removal. */
export function reportOutboxDepths(db: Queryable): () => void {
  const count = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0]?.n ?? 0;
  const removals = [
    collectOutboxDepth('mail', () => count('SELECT count(*)::int AS n FROM queue.mail_outbox WHERE sent_at IS NULL')),
    collectOutboxDepth('timestamp', () => count('SELECT count(*)::int AS n FROM queue.timestamp_outbox')),
  ];
  return () => {
    for (const remove of removals) remove();
  };
}
