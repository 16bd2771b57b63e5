// A local stand-in for Expo's push service (its two endpoints, `/--/api/v2/push/send` and `…/getReceipts`), for
// tests of push notifications: never the internet. It records what it received and answers as Expo does, with
// switches for a server that is down and for devices Expo no longer knows.

import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message as the push endpoint received it. */
export interface ExpoMessageReceived {
  to: string;
  title: string;
  body: string;
  data: { id: string; type: string; data?: any; vessel_id?: number };
  sound: string;
  channelId: string;
  priority: string;
}

export interface ExpoServerForTest {
  /** Set as `EXPO_PUSH_URL` (the receipts URL is beside it). */
  pushUrl: string;
  receiptsUrl: string;
  /** Every push request: its messages and the status answered. */
  pushes: { status: number; messages: ExpoMessageReceived[] }[];
  /** The receipt ids of every receipts request. */
  receiptRequests: string[][];
  /** Answers 500 to this many push requests before answering normally. */
  failNext: number;
  /** While true every push request gets 500. */
  down: boolean;
  /** Tokens answered DeviceNotRegistered in their ticket, and in their receipt. */
  goneAtSend: Set<string>;
  goneAtReceipt: Set<string>;
  /** The messages of the requests answered 200. */
  delivered(): ExpoMessageReceived[];
  /** Forgets what was received and turns the switches off. */
  reset(): void;
  close(): Promise<void>;
}

const notRegistered = { status: 'error', message: 'not registered', details: { error: 'DeviceNotRegistered' } };

export async function startExpoServer(): Promise<ExpoServerForTest> {
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return answer(400, { errors: [{ code: 'VALIDATION_ERROR', message: 'not JSON' }] });
    }
    if (req.url === '/--/api/v2/push/send') {
      const messages = body as ExpoMessageReceived[];
      if (expo.down || expo.failNext > 0) {
        expo.failNext = Math.max(0, expo.failNext - 1);
        expo.pushes.push({ status: 500, messages });
        return answer(500, { errors: [{ code: 'INTERNAL_SERVER_ERROR', message: 'down' }] });
      }
      expo.pushes.push({ status: 200, messages });
      return answer(200, {
        data: messages.map((m) =>
          expo.goneAtSend.has(m.to) ? notRegistered : { status: 'ok', id: `receipt:${m.to}` },
        ),
      });
    }
    if (req.url === '/--/api/v2/push/getReceipts') {
      const ids = (body as { ids: string[] }).ids;
      expo.receiptRequests.push(ids);
      return answer(200, {
        data: Object.fromEntries(
          ids.map((id) => [id, expo.goneAtReceipt.has(id.slice('receipt:'.length)) ? notRegistered : { status: 'ok' }]),
        ),
      });
    }
    answer(404, { errors: [{ code: 'NOT_FOUND' }] });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/--/api/v2/push`;
  const expo: ExpoServerForTest = {
    pushUrl: `${base}/send`,
    receiptsUrl: `${base}/getReceipts`,
    pushes: [],
    receiptRequests: [],
    failNext: 0,
    down: false,
    goneAtSend: new Set(),
    goneAtReceipt: new Set(),
    delivered: () => expo.pushes.filter((p) => p.status === 200).flatMap((p) => p.messages),
    reset() {
      expo.pushes = [];
      expo.receiptRequests = [];
      expo.failNext = 0;
      expo.down = false;
      expo.goneAtSend.clear();
      expo.goneAtReceipt.clear();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return expo;
}
