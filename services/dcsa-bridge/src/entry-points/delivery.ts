// Delivery to partners (docs/dcsa.md#sending): at least once, in queue order per partner. A queued message kicks a
// pass at once and a timer every `intervalMs` catches what a restart or a retry left due; a pass takes each due
// partner's lease (one deliverer per partner across processes), sends the head of its queue, records what the
// partner said and goes on while messages are due. A failure waits longer after each attempt; one the partner will
// never take (a 400, or a retry limit reached) is set aside as refused and the next goes.

import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '@pcas/contracts';
import { type BackoffPolicy, retryDelayMs } from '@pcas/values';
import {
  credentialsOf,
  headOfQueue,
  markDelivered,
  markRefused,
  markRetry,
  partnersDue,
  releaseLease,
  takeLease,
} from '../adapters/outbox-store.ts';
import type { SendToPartner } from '../adapters/partner-client.ts';
import { partnerById } from '../adapters/store.ts';
import { DEFAULT_BACKOFF, decideSend } from '../domain/outbox.ts';

export interface DeliveryOptions {
  intervalMs?: number;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  leaseMs?: number;
}

export interface Delivery {
  kick(): void;
  stop(): Promise<void>;
}

export function startDelivery(deps: ServiceDeps, send: SendToPartner, options: DeliveryOptions = {}): Delivery {
  const { db, log } = deps;
  const holder = randomUUID();
  const maxAttempts = options.maxAttempts ?? 50;
  const leaseMs = options.leaseMs ?? 30_000;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function drain(partnerId: number): Promise<void> {
    if (!(await takeLease(db, partnerId, holder, leaseMs))) return;
    try {
      const partner = await partnerById(db, partnerId);
      if (!partner?.active) return;
      const credentials = await credentialsOf(db, partnerId);
      while (!stopped) {
        const head = await headOfQueue(db, partnerId);
        if (!head?.due) return;
        const outcome = await send({
          baseUrl: partner.base_url,
          credentials,
          method: head.method,
          path: head.path,
          body: head.body,
        });
        const decision = decideSend(outcome, head.attempts + 1, maxAttempts);
        if (decision.kind === 'delivered') await markDelivered(db, head.id);
        else if (decision.kind === 'refused') {
          log.warn({ partner: partner.name, path: head.path, error: decision.error }, 'DCSA message refused');
          await markRefused(db, head.id, decision.error);
        } else {
          await markRetry(
            db,
            head.id,
            decision.error,
            retryDelayMs(head.attempts + 1, options.backoff ?? DEFAULT_BACKOFF),
          );
          return;
        }
        await takeLease(db, partnerId, holder, leaseMs);
      }
    } finally {
      await releaseLease(db, partnerId, holder);
    }
  }

  async function passes(): Promise<void> {
    do {
      again = false;
      for (const partnerId of await partnersDue(db)) {
        if (stopped) return;
        await drain(partnerId).catch((error) => log.error({ err: error, partnerId }, 'DCSA delivery failed'));
      }
    } while (again && !stopped);
  }

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = passes()
      .catch((error) => log.error({ err: error }, 'DCSA delivery pass failed'))
      .finally(() => {
        running = undefined;
      });
  }

  const timer = setInterval(kick, options.intervalMs ?? 500);
  timer.unref();
  return {
    kick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
