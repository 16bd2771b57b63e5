// The real SocketCluster clients of the original apps, for tests and the real-time bench: socketcluster-client 15
// (the web UI) and 16 (the mobile app), installed under aliases. What they receive is recorded per channel with its
// arrival time.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Listener<T> {
  once(timeoutMs?: number): Promise<T>;
}

interface ScChannel extends AsyncIterable<unknown> {
  listener(event: 'subscribe' | 'subscribeFail'): Listener<{ error?: Error }>;
  close(): void;
}

interface ScSocket {
  id: string;
  state: string;
  authState: string;
  subscribe(channel: string): ScChannel;
  isSubscribed(channel: string, includePending?: boolean): boolean;
  authenticate(token: string): Promise<unknown>;
  invokePublish(channel: string, data: unknown): Promise<void>;
  listener(event: string): Listener<unknown>;
  disconnect(): void;
}

interface ScClientModule {
  create(options: Record<string, unknown>): ScSocket;
}

export type RealtimeClientVersion = 15 | 16;

const CLIENTS: Record<RealtimeClientVersion, ScClientModule> = {
  15: require('socketcluster-client-15') as ScClientModule,
  16: require('socketcluster-client-16') as ScClientModule,
};

export interface Received {
  data: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

export interface RealtimeClient {
  readonly socket: ScSocket;
  /** Messages received so far, per channel. */
  readonly received: Map<string, Received[]>;
  /** Subscribes and waits for the server's answer; rejects with the server's error when refused. */
  subscribe(channel: string): Promise<void>;
  /** `socket.authenticate(jwt)`, as the mobile app does; rejects when the server refuses the token. */
  authenticate(jwt: string): Promise<void>;
  /** Resolves with the first message on `channel` arriving after `since` (default: any), or rejects after `ms`. */
  next(channel: string, ms?: number, since?: number): Promise<Received>;
  close(): void;
}

/** Connects a client of that version to `<baseUrl>/socketcluster/` and waits until it is connected. */
export async function connectRealtime(
  baseUrl: string,
  version: RealtimeClientVersion,
  options: { connectTimeoutMs?: number } = {},
): Promise<RealtimeClient> {
  const url = new URL(baseUrl);
  const socket = CLIENTS[version].create({
    hostname: url.hostname,
    port: Number(url.port),
    secure: url.protocol === 'https:',
    path: '/socketcluster/',
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    // A test counts dropped sockets: one must not come back by itself.
    autoReconnect: false,
  });
  const received = new Map<string, Received[]>();
  const waiters = new Set<() => void>();
  await socket.listener('connect').once(options.connectTimeoutMs ?? 10_000);

  const client: RealtimeClient = {
    socket,
    received,
    async subscribe(channelName) {
      const channel = socket.subscribe(channelName);
      const into: Received[] = [];
      received.set(channelName, into);
      const outcome = await Promise.race([
        channel
          .listener('subscribe')
          .once(10_000)
          .then(() => null),
        channel.listener('subscribeFail').once(10_000),
      ]);
      if (outcome) {
        channel.close();
        throw outcome.error ?? new Error(`subscribe to ${channelName} failed`);
      }
      void (async () => {
        for await (const data of channel) {
          into.push({ data, at: Date.now() });
          for (const wake of waiters) wake();
        }
      })();
    },
    async authenticate(jwt) {
      await socket.authenticate(jwt);
    },
    next(channel, ms = 30_000, since = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.get(channel)?.find((r) => r.at >= since);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`nothing on ${channel} within ${ms} ms`));
        }, ms);
        if (!check()) waiters.add(check);
      });
    },
    close() {
      socket.disconnect();
    },
  };
  return client;
}
