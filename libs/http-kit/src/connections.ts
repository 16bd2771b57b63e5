// The HTTP server's open sockets as gauges of the process's metrics (libs/observability).

import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { collectGauge } from '@pcas/observability';

/**
 * The server's sockets for the metrics (docs/operations.md#metrics-and-probes): `http_connections` (open TCP
 * connections) and `websocket_connections` (upgraded ones: the real-time channel's), read at each scrape.
 */
export function countConnections(server: Server): void {
  let upgraded = 0;
  server.on('upgrade', (_req, socket: Duplex) => {
    // Counting only: the real-time edge takes the socket; with no one else listening, it is refused as Node would.
    if (server.listenerCount('upgrade') === 1) {
      socket.destroy();
      return;
    }
    upgraded++;
    socket.once('close', () => upgraded--);
  });
  const removals = [
    collectGauge(
      'http_connections',
      'Open HTTP connections of this process (keep-alive and upgraded included)',
      [],
      (set) =>
        new Promise<void>((resolve) => {
          server.getConnections((error, count) => {
            if (!error) set({}, count);
            resolve();
          });
        }),
    ),
    collectGauge(
      'websocket_connections',
      'Open WebSocket connections (the real-time channel) of this process',
      [],
      (set) => set({}, upgraded),
    ),
  ];
  server.once('close', () => {
    for (const remove of removals) remove();
  });
}
