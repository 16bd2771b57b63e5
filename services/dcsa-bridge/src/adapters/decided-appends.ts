// The appends of concurrent decisions leave together (docs/dcsa.md#benchmark): one transaction, one multi-stream
// append and the rows, where each would otherwise be a transaction of its own. A decision holds only while its
// stream is at the version it was decided at: should one stream in a batch have moved on (or the batch fail at
// all), the batch is rolled back and each decision goes alone with its expected version, so the one that moved
// gets its conflict (and is decided again by its command) and the others are stored as they would have been.

import { createBatcher, type ItemOutcome } from '@pcas/batching';
import type { EventStore } from '@pcas/eventstore';
import type { Db } from '@pcas/sql';
import { appendAllDecided, appendDecided, type DecidedAppend } from './store.ts';

/** Appends a decision's events and rows, gathered with the decisions appended at the same time. */
export type AppendDecision = (decided: DecidedAppend) => Promise<void>;

export function createDecidedAppends(db: Db, store: EventStore, options: { maxItems: number }): AppendDecision {
  const alone = async (decided: DecidedAppend): Promise<ItemOutcome<void>> => {
    try {
      return { ok: true, value: await db.transaction((tx) => appendDecided(tx, store, decided)) };
    } catch (error) {
      return { ok: false, error };
    }
  };
  return createBatcher<DecidedAppend, void>(
    async (batch) => {
      const distinct = new Set(batch.map((d) => d.streamId)).size === batch.length;
      if (batch.length === 1 || !distinct) return Promise.all(batch.map(alone));
      try {
        await db.transaction((tx) => appendAllDecided(tx, store, batch));
        return batch.map(() => ({ ok: true, value: undefined }));
      } catch {
        return Promise.all(batch.map(alone));
      }
    },
    { maxItems: options.maxItems, maxInFlight: 2, sameTurn: true },
  );
}
