// Adaptive batching of independent calls to one command: the first call goes out at once; calls made while
// `maxInFlight` batches are on their way wait and leave together (up to `maxItems`) when one returns. No timer:
// a lone call pays no extra latency, and under load many calls share one message, one transaction and one
// reply. Each caller gets its own item's outcome. Where calls come in bursts (the items of one batch handled
// each on its own, requests read in one turn of the event loop), `sameTurn` makes the first wait for the rest of
// the turn, so the burst leaves as one batch rather than its first call alone and the others after it.

export type ItemOutcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface BatcherOptions {
  /** Most items in one batch. */
  maxItems?: number;
  /** Most batches on their way at once; more calls queue meanwhile. */
  maxInFlight?: number;
  /** Calls made in the same turn of the event loop leave together, even the first (it waits for the turn's end). */
  sameTurn?: boolean;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<I, O>(
  send: (items: I[]) => Promise<ItemOutcome<O>[]>,
  options: BatcherOptions = {},
): (item: I) => Promise<O> {
  const maxItems = options.maxItems ?? 64;
  const maxInFlight = options.maxInFlight ?? 2;
  let queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let turnScheduled = false;

  function pump() {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, maxItems);
      queue = queue.slice(batch.length);
      inFlight++;
      void dispatch(batch);
    }
  }

  async function dispatch(batch: Waiting<I, O>[]) {
    try {
      const outcomes = await send(batch.map((w) => w.item));
      if (outcomes.length !== batch.length) {
        throw new Error(`batch of ${batch.length} answered with ${outcomes.length} outcomes`);
      }
      batch.forEach((w, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) w.resolve(outcome.value);
        else w.reject(outcome.error);
      });
    } catch (error) {
      // The whole batch failed (timeout, broker down): every caller gets that error.
      for (const w of batch) w.reject(error);
    } finally {
      inFlight--;
      pump();
    }
  }

  function pumpAfterTurn() {
    if (turnScheduled) return;
    turnScheduled = true;
    setImmediate(() => {
      turnScheduled = false;
      pump();
    });
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (options.sameTurn) pumpAfterTurn();
      else pump();
    });
}
