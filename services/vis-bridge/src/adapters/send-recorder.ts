// Records a send with its going out (see SendOptions): in direct mode the peer's outbox row and the event commit
// together, so a send is neither lost nor recorded without going out; in agent mode the agent takes it first,
// outside any transaction, and only a send it took is recorded. Direct-mode sends made at the same moment share one
// transaction (the outbox's batcher).

import { createBatcher, type ItemOutcome } from '@pcas/batching';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Db } from '@pcas/sql';
import type { SendOptions, VisTransport } from './transport.ts';
import { appendAndProject, appendManyAndProject, type VisEvent, withStreamLock } from './vis-store.ts';

/** One send: its event on its message stream, and the transport's sending of it. */
export interface RecordedSend {
  stream: string;
  event: VisEvent;
  metadata: EventMetadata;
  send: (options: SendOptions) => Promise<void>;
}

export type SendRecorder = (t: VisTransport, send: RecordedSend) => Promise<void>;

const settle = async (fn: () => Promise<void>): Promise<ItemOutcome<void>> => {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
};

export function createSendRecorder(db: Db, store: EventStore, transport: () => VisTransport): SendRecorder {
  /**
   * Direct-mode sends recorded together: the events (each a new message's first, so no state is read to decide)
   * appended first, as a transaction's first write must be, then each message queued for its peer; one commit, and
   * the deliveries kicked after it. Should the transaction fail (say, one send refused), each goes again alone, so
   * every caller gets its own outcome and nothing was stored of the failed one.
   */
  async function recordSends(items: readonly RecordedSend[]): Promise<void> {
    const t = transport();
    const batch = await db.transaction(async (tx) => {
      await appendManyAndProject(
        tx,
        store,
        items.map((i) => ({ streamId: i.stream, events: [i.event], metadata: i.metadata })),
      );
      const batch = t.batch?.(tx);
      for (const item of items) await item.send({ tx, batch });
      await batch?.flush();
      return batch;
    });
    batch?.committed();
  }
  const sendTogether = createBatcher<RecordedSend, void>(
    async (items) => {
      if (items.length === 1) return [await settle(() => recordSends(items))];
      const together = await settle(() => recordSends(items));
      if (together.ok) return items.map(() => together);
      return Promise.all(items.map((item) => settle(() => recordSends([item]))));
    },
    // Two transactions on their way at most: the sends arriving meanwhile wait and share the next. With one, a
    // steady load settled into alternating batches (one send, then the fifteen that came back meanwhile), each
    // waiting out the other's commit: half the throughput a commit's latency allows.
    { maxItems: 64, maxInFlight: 2 },
  );

  return async (t, item) => {
    if (t.mode === 'agent') {
      await item.send({});
      const { stream, event, metadata } = item;
      await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, [event], metadata));
      return;
    }
    await sendTogether(item);
  };
}
