import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelMessage } from './channels.ts';
import { createCoalescer } from './coalesce.ts';

describe('coalescing (at most one message per channel per 250 ms, leading and trailing edge)', () => {
  let sent: [number, ChannelMessage][];
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    sent = [];
  });
  afterEach(() => vi.useRealTimers());
  const coalescer = () => createCoalescer((m) => sent.push([Date.now(), m]), 250);
  const msg = (channel: string, n: number) => ({ channel, data: n });

  it('sends a lone message at once, and a later lone one at once again', () => {
    const c = coalescer();
    c.push(msg('portcalls-changed', 1));
    expect(sent).toEqual([[0, msg('portcalls-changed', 1)]]);
    vi.advanceTimersByTime(1_000);
    c.push(msg('portcalls-changed', 2));
    expect(sent).toEqual([
      [0, msg('portcalls-changed', 1)],
      [1_000, msg('portcalls-changed', 2)],
    ]);
  });

  it('a burst: the first at once, then one per window, the last one never lost', () => {
    const c = coalescer();
    // 100 messages, one every 10 ms (1 s of ingest).
    for (let i = 0; i < 100; i++) {
      c.push(msg('portcalls-changed', i));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(1_000);
    expect(sent.map(([at]) => at)).toEqual([0, 250, 500, 750, 1000]);
    expect(sent.at(-1)![1]).toEqual(msg('portcalls-changed', 99));
    // Never two within one window.
    for (let i = 1; i < sent.length; i++) expect(sent[i][0] - sent[i - 1][0]).toBeGreaterThanOrEqual(250);
  });

  it('keeps channels apart', () => {
    const c = coalescer();
    c.push(msg('portcalls-changed', 1));
    c.push(msg('queue-portcalls-changed', 1));
    c.push(msg('portcalls-changed', 2));
    expect(sent.map(([, m]) => m)).toEqual([msg('portcalls-changed', 1), msg('queue-portcalls-changed', 1)]);
    vi.advanceTimersByTime(250);
    expect(sent.map(([, m]) => m)).toEqual([
      msg('portcalls-changed', 1),
      msg('queue-portcalls-changed', 1),
      msg('portcalls-changed', 2),
    ]);
  });

  it('flush sends what is held and nothing later', () => {
    const c = coalescer();
    c.push(msg('portcalls-changed', 1));
    c.push(msg('portcalls-changed', 2));
    c.flush();
    vi.advanceTimersByTime(1_000);
    expect(sent.map(([, m]) => m.data)).toEqual([1, 2]);
  });
});
