// Keeps the notifier's copies of users, translations and vessel names (adapters/copies.ts) from their owners'
// events: a projection (queue `projection.notifier-copies`, whose inbox and the streams' versions make a redelivery
// change nothing), and once per database a fill from the log for what happened before the queue existed. The queue
// is bound first, so whatever the fill does not read reaches the queue; both apply each stream in its order, so
// meeting in the middle changes nothing twice.

import { RELAY_POLICY, type RunningService, type ServiceDeps } from '@pcas/contracts';
import type { Checkpoint } from '@pcas/eventstore';
import { startProjection } from '@pcas/messaging';
import { applyCopies, COPY_BINDINGS } from '../adapters/copies.ts';

const FILLED = 'copies-from-the-log';
const PAGE = 5_000;

export interface CopiesOptions {
  /** Projection name (tests run several notifiers on one server). */
  name?: string;
}

export interface Copies extends RunningService {
  /** Resolves once the fill from the log is done (at once when an earlier start did it). */
  filled: Promise<void>;
}

export async function startCopies(deps: ServiceDeps, options: CopiesOptions = {}): Promise<Copies> {
  const { bus, db, store, log } = deps;
  const name = options.name ?? 'notifier-copies';
  const projection = await startProjection({
    bus,
    db,
    name,
    bindings: COPY_BINDINGS,
    apply: (tx, events) => applyCopies(tx, store, events),
    log: log.child({ projection: name }),
  });
  let stopping = false;
  const filled = (async () => {
    const { rows } = await db.query('SELECT 1 FROM notifier.migrations WHERE name = $1', [FILLED]);
    if (rows.length > 0) return;
    let checkpoint: Checkpoint | null = null;
    let read = 0;
    while (!stopping) {
      const page = await store.readAll(checkpoint, PAGE, { skipStreamPrefixes: RELAY_POLICY.skipStreamPrefixes });
      if (page.events.length > 0) await db.transaction((tx) => applyCopies(tx, store, page.events));
      read += page.events.length;
      const moved =
        page.checkpoint !== null &&
        (checkpoint === null ||
          page.checkpoint.globalPosition !== checkpoint.globalPosition ||
          page.checkpoint.transactionId !== checkpoint.transactionId);
      if (!moved) {
        await db.query('INSERT INTO notifier.migrations (name) VALUES ($1) ON CONFLICT DO NOTHING', [FILLED]);
        log.info({ read }, 'copies of users, translations and vessel names filled from the log');
        return;
      }
      checkpoint = page.checkpoint;
    }
  })().catch((error) => {
    // Tried again at the next start; the queue keeps the copies current meanwhile.
    log.error({ err: error }, 'copies not filled from the log');
  });
  return {
    filled,
    async stop() {
      stopping = true;
      await filled;
      await projection.stop();
    },
  };
}
