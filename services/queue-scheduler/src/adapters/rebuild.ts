// The queue's rows rebuilt from its streams (docs/queue.md#why-the-rows-are-a-cache-of-the-streams): the berths,
// their calendars, the nominations and the slot requests dropped and written again by the same projection the
// commands use (read-models.ts), each event at its stream position, so every row's version is its stream's again.
// For an operator with the queue-scheduler stopped (its commands would decide on half-written rows meanwhile).

import type { BerthEvent, NominationEvent, SlotRequestEvent } from '@pcas/contracts';
import type { Checkpoint, EventStore, RecordedEvent } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { projectBerth, projectNomination, projectSlotRequest } from './read-models.ts';

const PAGE = 1000;

async function replay(tx: Queryable, event: RecordedEvent): Promise<boolean> {
  const actor = event.metadata.user_id ?? null;
  const category = event.streamId.slice(0, event.streamId.indexOf('-'));
  const id = Number(event.streamId.slice(category.length + 1));
  switch (category) {
    case 'berth':
      await projectBerth(tx, id, [event as unknown as BerthEvent], event.streamPosition, actor);
      return true;
    case 'nomination':
      await projectNomination(tx, [event as unknown as NominationEvent], event.streamPosition, actor);
      return true;
    case 'slotrequest':
      await projectSlotRequest(tx, [event as unknown as SlotRequestEvent], event.streamPosition, actor);
      return true;
    case 'liveetaalert': {
      // The live ETA alert's columns of a slot request (adapters/live-eta.ts recordAlert).
      const change = event.data as { slot_request_id: number; state: string; discrepancy_time: string | null };
      await tx.query(
        'UPDATE queue.slot_reservations SET jit_eta_alert_state = $2, jit_eta_discrepancy_time = $3 WHERE id = $1',
        [change.slot_request_id, change.state, change.discrepancy_time],
      );
      return true;
    }
    default:
      return false;
  }
}

/** Drops the queue's rows and writes them again from the log, in one transaction; returns the events replayed. */
export async function rebuildQueueRows(db: Db, store: EventStore): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('TRUNCATE queue.berths, queue.berth_reservations, queue.nominations, queue.slot_reservations');
    let replayed = 0;
    let after: Checkpoint | null = null;
    for (;;) {
      const page = await store.readAll(after, PAGE);
      for (const event of page.events) if (await replay(tx, event)) replayed++;
      if (page.events.length < PAGE) return replayed;
      after = page.checkpoint;
    }
  });
}
