// The VIS outbox's depth for operations (docs/operations.md#metrics-and-probes): messages to peers not yet
// delivered nor refused, counted at each scrape.

import { collectOutboxDepth } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';

/** Registers the `outbox_depth{outbox="vis"}` gauge; returns its removal. */
export function reportOutboxDepth(db: Queryable): () => void {
  return collectOutboxDepth('vis', async () => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM vis.outbox WHERE delivered_at IS NULL AND failed_at IS NULL',
    );
    return rows[0]?.n ?? 0;
  });
}
