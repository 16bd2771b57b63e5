// The real-time channel: one SocketCluster socket per page to /socketcluster/ on the page's own origin (the
// gateway), signed in with the session's JWT so per-user channels work where anonymous subscriptions are off.
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
    hostname,
    port: port ? Number(port) : secure ? 443 : 80,
    secure,
    path: '/socketcluster/',
    // The original's back-off: 1 s ±1 s, ×1.5, at most 6 s.
    autoReconnectOptions: { initialDelay: 1000, randomness: 1000, multiplier: 1.5, maxDelay: 6000 },
  });
  socket = created;
  void (async () => {
    for await (const _ of created.listener('connect')) {
      announce(true);
      if (token) void created.authenticate(token).catch(() => {});
    }
  })();
  void (async () => {
    for await (const _ of created.listener('disconnect')) announce(false);
  })();
  return created;
}

/** Signs the socket in (or out, with null) with the session's JWT; subscriptions already made stay. */
export function setRealtimeToken(jwt: string | null): void {
  token = jwt;
  const current = socket;
  if (!current) return;
  if (jwt) void current.authenticate(jwt).catch(() => {});
  else void current.deauthenticate();
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

/** Calls `onMessage` with each message published on any of `channels` while the component is mounted. */
export function useChannels(channels: Array<string | null>, onMessage: (data: unknown, channel: string) => void) {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const names = channels.filter((name): name is string => Boolean(name)).join('\n');
  useEffect(() => {
    if (!names) return;
    const subscriptions = names
      .split('\n')
      .map((channel) => ({ channel, subscription: theSocket().subscribe(channel) }));
    let active = true;
    for (const { channel, subscription } of subscriptions) {
      void (async () => {
        for await (const data of subscription) {
          if (!active) break;
          try {
            handler.current(data, channel);
          } catch (error) {
            // One bad message must not end the subscription (the original's loop stopped for good).
            console.warn(`real-time message on ${channel} not handled`, error);
          }
        }
      })();
    }
    return () => {
      active = false;
      for (const { subscription } of subscriptions) {
        subscription.unsubscribe();
        subscription.close();
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
