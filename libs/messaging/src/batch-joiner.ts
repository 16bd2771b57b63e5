// The partitions one process holds share one handler call at a time: batches that arrive from several partition
// queues while a call runs are joined into the next call. One transaction for many partitions' batches costs the
// database what the unpartitioned queue cost it (16 partitions' small transactions at once cost about a fifth of
// the ingest rate). Each partition's order holds, since its loop hands over its next batch only once this one is
// settled. A joined call that fails is retried part by part, so one partition's failing message never counts as an
// attempt against another partition's messages.

import type { BusMessage } from './types.ts';

type Handler = (messages: BusMessage[]) => Promise<void>;

interface Part {
  messages: BusMessage[];
  resolve(): void;
  reject(error: unknown): void;
}

export function joinBatches(handler: Handler): Handler {
  let waiting: Part[] = [];
  let running = false;

  const settle = async (part: Part) => {
    try {
      await handler(part.messages);
      part.resolve();
    } catch (error) {
      part.reject(error);
    }
  };

  const run = async () => {
    running = true;
    while (waiting.length > 0) {
      const parts = waiting;
      waiting = [];
      if (parts.length === 1) {
        await settle(parts[0]);
        continue;
      }
      try {
        await handler(parts.flatMap((p) => p.messages));
        for (const part of parts) part.resolve();
      } catch {
        for (const part of parts) await settle(part);
      }
    }
    running = false;
  };

  return (messages) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ messages, resolve, reject });
      if (!running) void run();
    });
}
