import { describe, expect, it } from 'vitest';
import { createBatcher, type ItemOutcome } from './batcher.ts';

/** A send whose batches the test releases by hand. */
function manualSend<I>() {
  const batches: { items: I[]; answer: (outcomes: ItemOutcome<string>[]) => void; fail: (e: Error) => void }[] = [];
  const send = (items: I[]) =>
    new Promise<ItemOutcome<string>[]>((resolve, reject) => {
      batches.push({ items, answer: resolve, fail: reject });
    });
  return { batches, send };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('createBatcher', () => {
  it('sends a lone call at once, and gathers calls made while batches are on their way', async () => {
    const { batches, send } = manualSend<number>();
    const call = createBatcher(send, { maxInFlight: 1, maxItems: 3 });
    const first = call(1);
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    const rest = [2, 3, 4, 5].map((n) => call(n));
    const settledAll = Promise.allSettled(rest);
    expect(batches).toHaveLength(1);

    batches[0].answer([{ ok: true, value: 'one' }]);
    expect(await first).toBe('one');
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1].answer([
      { ok: true, value: 'two' },
      { ok: false, error: new Error('bad three') },
      { ok: true, value: 'four' },
    ]);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4], [5]]);
    batches[2].answer([{ ok: true, value: 'five' }]);
    const settled = await settledAll;
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'two',
      'bad three',
      'four',
      'five',
    ]);
  });

  it('with sameTurn, sends the calls of one turn together, the first too, and gathers the next turns as before', async () => {
    const { batches, send } = manualSend<number>();
    const call = createBatcher(send, { maxInFlight: 1, maxItems: 3, sameTurn: true });
    const burst = [1, 2].map((n) => call(n));
    expect(batches).toHaveLength(0);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1, 2]]);
    const later = [3, 4, 5, 6].map((n) => call(n));
    await tick();
    expect(batches).toHaveLength(1);
    batches[0].answer([
      { ok: true, value: 'one' },
      { ok: true, value: 'two' },
    ]);
    expect(await Promise.all(burst)).toEqual(['one', 'two']);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    batches[1].answer(['three', 'four', 'five'].map((value) => ({ ok: true, value })));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1, 2], [3, 4, 5], [6]]);
    batches[2].answer([{ ok: true, value: 'six' }]);
    expect(await Promise.all(later)).toEqual(['three', 'four', 'five', 'six']);
  });

  it('keeps up to maxInFlight batches going', () => {
    const { batches, send } = manualSend<number>();
    const call = createBatcher(send, { maxInFlight: 2 });
    for (const n of [1, 2, 3]) void call(n).catch(() => {});
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
  });

  it('fails every call of a batch whose send fails, and goes on with the next', async () => {
    const { batches, send } = manualSend<number>();
    const call = createBatcher(send, { maxInFlight: 1 });
    const a = call(1);
    const b = call(2);
    const c = call(3);
    batches[0].fail(new Error('broker down'));
    await expect(a).rejects.toThrow('broker down');
    await tick();
    batches[1].fail(new Error('timeout'));
    await expect(b).rejects.toThrow('timeout');
    await expect(c).rejects.toThrow('timeout');
  });

  it('rejects all when the answer does not match the batch', async () => {
    const { batches, send } = manualSend<number>();
    const call = createBatcher(send, { maxInFlight: 1 });
    const a = call(1);
    batches[0].answer([]);
    await expect(a).rejects.toThrow(/1 .*0 outcomes/);
  });
});
