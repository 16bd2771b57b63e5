// Joined partition batches: one handler call at a time, the batches waiting meanwhile joined into the next call,
// and a failing joined call retried part by part so only the failing part is rejected.

import { describe, expect, it } from 'vitest';
import { joinBatches } from './batch-joiner.ts';
import type { BusMessage } from './types.ts';

const msg = (id: string): BusMessage => ({ id, routingKey: 'k', body: {}, headers: {}, redelivered: false });

describe('joinBatches', () => {
  it('runs one call at a time and joins the batches that waited into the next call', async () => {
    const calls: string[][] = [];
    let active = 0;
    let most = 0;
    let release: () => void = () => {};
    const handler = joinBatches(async (messages) => {
      active++;
      most = Math.max(most, active);
      calls.push(messages.map((m) => m.id));
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
      active--;
    });
    const first = handler([msg('a1')]);
    const waiting = [handler([msg('b1'), msg('b2')]), handler([msg('c1')])];
    release();
    await Promise.all([first, ...waiting]);
    expect(calls).toEqual([['a1'], ['b1', 'b2', 'c1']]);
    expect(most).toBe(1);
  });

  it('retries a failing joined call part by part: only the part with the failing message is rejected', async () => {
    const calls: string[][] = [];
    let release: () => void = () => {};
    const handler = joinBatches(async (messages) => {
      calls.push(messages.map((m) => m.id));
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
      if (messages.some((m) => m.id === 'bad')) throw new Error('poison');
    });
    const first = handler([msg('a1')]);
    const good = handler([msg('b1')]);
    const bad = handler([msg('bad')]);
    release();
    await first;
    await expect(good).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow('poison');
    expect(calls).toEqual([['a1'], ['b1', 'bad'], ['b1'], ['bad']]);
  });
});
