import { isApiError } from '@pcas/errors';
import { createLogger } from '@pcas/observability';
import { expect, it } from 'vitest';
import { gatheredRpc } from './gathered-rpc.ts';
import { createInProcessBus } from './in-process-bus.ts';

it('sends concurrent calls together and answers each with its own result or refusal', async () => {
  const bus = createInProcessBus({ log: createLogger('gathered-rpc-test', 'silent') });
  const batches: number[][] = [];
  await bus.serveRpc('doubler', async (_command, payload) => {
    const { items } = payload as { items: number[] };
    batches.push(items);
    return items.map((n) =>
      n < 0 ? { ok: false, status: 400, error: `${n} is negative` } : { ok: true, result: n * 2 },
    );
  });
  const double = gatheredRpc<number, number>(bus, 'doubler', 'double', { maxItems: 3 });

  const outcomes = await Promise.allSettled([1, 2, -3, 4, 5, 6].map((n) => double(n)));

  // The first went at once; the calls made meanwhile left together, at most three to a batch.
  expect(batches).toEqual([[1], [2, -3, 4], [5, 6]]);
  expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'refused'))).toEqual([2, 4, 'refused', 8, 10, 12]);
  const refusal = (outcomes[2] as PromiseRejectedResult).reason;
  expect(isApiError(refusal) && refusal.status === 400 && refusal.message === '-3 is negative').toBe(true);
  await bus.close();
});
