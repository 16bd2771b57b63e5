// The real-time channel: one SocketCluster socket per page to /socketcluster/ on the page's own origin (the
// gateway), signed in with the session's socket token (the payload's `jwt`), so the channels that need a sign-in or a
// permission work whatever `realtime_anonymous` says (docs/architecture.md#real-time). The token goes with the
// handshake, and a signed-in page's subscriptions wait for the sign-in, so none is refused for coming first.
// Views subscribe by channel name and refetch what a signal says has changed (docs/web-ui.md#rules-the-views-follow).

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { create } from 'socketcluster-client';
import { refresh } from '../api/queries.ts';

type Socket = ReturnType<typeof create>;

let socket: Socket | null = null;
let token: string | null = null;
let connected = false;
const watchers = new Set<() => void>();

function announce(next: boolean) {
  if (connected === next) return;
  connected = next;
  for (const watcher of watchers) watcher();
}

function theSocket(): Socket {
  if (socket) return socket;
  const { protocol, hostname, port } = window.location;
  const secure = protocol === 'https:';
  const created = create({
    // The token lives in this module, not in localStorage: the session's own storage is the session id.
    authEngine: {
      saveToken: async (_name: string, saved: string) => {
        token = saved;
        return saved;
      },
      removeToken: async () => {
        const removed = token;
        token = null;
        return removed;
      },
      loadToken: async () => token,
    },
    hostname,
    port: port ? Number(port) : secure ? 443 : 80,
    secure,
    path: '/socketcluster/',
    // The original's back-off: 1 s ±1 s, ×1.5, at most 6 s.
    autoReconnectOptions: { initialDelay: 1000, randomness: 1000, multiplier: 1.5, maxDelay: 6000 },
  });
  socket = created;
  void (async () => {
    for await (const _ of created.listener('connect')) announce(true);
  })();
  void (async () => {
    for await (const _ of created.listener('disconnect')) announce(false);
  })();
  return created;
}

/**
 * Signs the socket in with the session's socket token (at sign-in, on reload and when the session is read again
 * for a fresh token), or out with null. Call it before the views of a signed-in page mount, so that their
 * subscriptions wait for the sign-in.
 */
export function setRealtimeToken(jwt: string | null): void {
  if (jwt === token) return;
  token = jwt;
  const current = socket;
  if (!current) return;
  if (jwt) void current.authenticate(jwt).catch(() => {});
  else void current.deauthenticate().catch(() => {});
}

/** Whether the live channel is connected, for the indicator in the header. */
export function useRealtimeConnected(): boolean {
  return useSyncExternalStore(
    (watch) => {
      theSocket();
      watchers.add(watch);
      return () => watchers.delete(watch);
    },
    () => connected,
  );
}

/**
 * How many mounted components use each channel. A channel is one subscription of the socket, shared by name:
 * unsubscribing or closing it ends it for every component, so it is left only when the last one unmounts (the
 * notification pop-ups of every page and the notifications view listen on the same channel).
 */
const users = new Map<string, number>();

function join(channel: string) {
  // Signed in: sent once the socket is signed in (a channel may need it); signed out: at once.
  const subscription = theSocket().subscribe(channel, { waitForAuth: token !== null });
  users.set(channel, (users.get(channel) ?? 0) + 1);
  return subscription;
}

function leave(channel: string, subscription: ReturnType<Socket['subscribe']>) {
  const left = (users.get(channel) ?? 1) - 1;
  if (left > 0) {
    users.set(channel, left);
    return;
  }
  users.delete(channel);
  subscription.unsubscribe();
  subscription.close();
}

/** Calls `onMessage` with each message published on any of `channels` while the component is mounted. */
export function useChannels(channels: Array<string | null>, onMessage: (data: unknown, channel: string) => void) {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const names = channels.filter((name): name is string => Boolean(name)).join('\n');
  useEffect(() => {
    if (!names) return;
    // Each component reads through a consumer of its own, which it ends alone when it unmounts.
    const subscriptions = names.split('\n').map((channel) => {
      const subscription = join(channel);
      return { channel, subscription, consumer: subscription.createConsumer() };
    });
    for (const { channel, consumer } of subscriptions) {
      void (async () => {
        for (;;) {
          const { value, done } = await consumer.next();
          if (done) break;
          try {
            handler.current(value, channel);
          } catch (error) {
            // One bad message must not end the subscription (the original's loop stopped for good).
            console.warn(`real-time message on ${channel} not handled`, error);
          }
        }
      })();
    }
    return () => {
      for (const { channel, subscription, consumer } of subscriptions) {
        // Ends this consumer alone: it leaves the channel's stream, and its pending read with it.
        consumer.return();
        leave(channel, subscription);
      }
    };
  }, [names]);
}

/** Refetches the queries of `paths` when a message arrives on any of `channels`, at most every 300 ms. */
export function useLiveRefresh(channels: Array<string | null>, paths: string[]): void {
  const client = useQueryClient();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const key = paths.join('\n');
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useChannels(channels, () => {
    // A burst of signals (a data source posting a batch) becomes one refetch, not one per signal.
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void refresh(client, ...key.split('\n'));
    }, 300);
  });
}
