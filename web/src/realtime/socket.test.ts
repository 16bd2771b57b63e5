// useChannels shares one subscription per channel among the components using it: one unmounting must not end
// it for the others (the notification pop-ups of every page and the notifications view use the same channel).

import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

/** A stand-in for the socket's channels: per name, the consumers reading it, and what was done to it. */
const channels = vi.hoisted(() => {
  type Consumer = { id: number; queue: unknown[]; wake: (() => void) | null; killed: boolean };
  const byName = new Map<string, { consumers: Map<number, Consumer>; unsubscribed: number }>();
  let nextId = 1;
  const of = (name: string) => {
    let channel = byName.get(name);
    if (!channel) {
      channel = { consumers: new Map(), unsubscribed: 0 };
      byName.set(name, channel);
    }
    return channel;
  };
  const socket = {
    listener: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) }),
    subscribe(name: string) {
      const channel = of(name);
      return {
        [Symbol.asyncIterator]() {
          return this.createConsumer();
        },
        createConsumer() {
          const consumer: Consumer = { id: nextId++, queue: [], wake: null, killed: false };
          channel.consumers.set(consumer.id, consumer);
          return {
            // As the library's: the consumer leaves the stream; a read waiting on it is never answered.
            return() {
              channel.consumers.delete(consumer.id);
            },
            async next() {
              while (consumer.queue.length === 0 && !consumer.killed) {
                await new Promise<void>((resolve) => {
                  consumer.wake = resolve;
                });
              }
              if (consumer.killed) return { value: undefined, done: true };
              return { value: consumer.queue.shift(), done: false };
            },
          };
        },
        unsubscribe() {
          channel.unsubscribed++;
        },
        close() {
          for (const consumer of channel.consumers.values()) {
            consumer.killed = true;
            consumer.wake?.();
          }
          channel.consumers.clear();
        },
      };
    },
  };
  return {
    socket,
    publish(name: string, data: unknown) {
      for (const consumer of of(name).consumers.values()) {
        consumer.queue.push(data);
        consumer.wake?.();
      }
    },
    unsubscribed: (name: string) => of(name).unsubscribed,
  };
});

vi.mock('socketcluster-client', () => ({ create: () => channels.socket }));

const { useChannels } = await import('./socket.ts');

describe('useChannels', () => {
  it('keeps a channel for the components still using it when another unmounts', async () => {
    const popups: unknown[] = [];
    const view: unknown[] = [];
    const first = renderHook(() => useChannels(['notifications-changed'], (data) => popups.push(data)));
    const second = renderHook(() => useChannels(['notifications-changed'], (data) => view.push(data)));
    channels.publish('notifications-changed', 1);
    await waitFor(() => expect([popups, view]).toEqual([[1], [1]]));

    second.unmount();
    expect(channels.unsubscribed('notifications-changed')).toBe(0);
    channels.publish('notifications-changed', 2);
    await waitFor(() => expect(popups).toEqual([1, 2]));
    expect(view).toEqual([1]);

    first.unmount();
    expect(channels.unsubscribed('notifications-changed')).toBe(1);
  });
});
