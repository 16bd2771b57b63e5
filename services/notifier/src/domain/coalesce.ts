// At most one message per channel per window (docs/architecture.md#real-time): a burst of ingest changes hundreds of
// port calls a second, and each `portcalls-changed` makes every browser refetch its port calls. The first message
// of a quiet channel goes out at once (leading edge); messages arriving within the window after it are held, and
// the latest goes out when the window ends (trailing edge), which starts a new window. So the last change is never
// lost, and a lone change is never delayed.

import type { ChannelMessage } from './channels.ts';

export interface Coalescer {
  push(message: ChannelMessage): void;
  /** Sends every held message now and forgets the windows (on shutdown). */
  flush(): void;
}

interface Window {
  timer: ReturnType<typeof setTimeout>;
  held: ChannelMessage | null;
}

export function createCoalescer(send: (message: ChannelMessage) => void, windowMs = 250): Coalescer {
  const windows = new Map<string, Window>();

  const open = (channel: string) => {
    const window: Window = {
      held: null,
      timer: setTimeout(() => {
        const { held } = window;
        if (!held) {
          windows.delete(channel);
          return;
        }
        open(channel);
        send(held);
      }, windowMs),
    };
    windows.set(channel, window);
  };

  return {
    push(message) {
      const window = windows.get(message.channel);
      if (window) {
        window.held = message;
        return;
      }
      open(message.channel);
      send(message);
    },
    flush() {
      for (const window of windows.values()) {
        clearTimeout(window.timer);
        if (window.held) send(window.held);
      }
      windows.clear();
    },
  };
}
