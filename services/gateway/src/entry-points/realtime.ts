// The real-time edge (docs/architecture.md#real-time): a SocketCluster (protocol v2) endpoint at /socketcluster/
// on the gateway's own HTTP server, which the original web UI (socketcluster-client 15) and mobile app (16) connect
// to unchanged. Sockets subscribe to channels by name; the notifier's channel messages arrive as broadcasts (every
// gateway process gets each once) and go to the sockets of this process subscribed to that channel.
//
// `socket.authenticate(jwt)` (the mobile app) takes the `jwt` of the login/session payload, checked against the
// gateway's RS256 public key; any other token is refused. Clients never publish.

import type { Server } from 'node:http';
import type { ServiceDeps } from '@pcas/contracts';
import type { Consumer } from '@pcas/messaging';
import jwt from 'jsonwebtoken';
import { attach } from 'socketcluster-server';
import { readSettings } from '../adapters/settings.ts';
import type { SigningKeys } from '../adapters/signing-key.ts';
import { subscribeRefusal } from '../domain/realtime.ts';

export const REALTIME_PATH = '/socketcluster/';

export interface RealtimeEdge {
  /** Sockets connected to this process. */
  clientsCount(): number;
  /** Ends every socket and stops receiving channel messages. */
  stop(): Promise<void>;
}

interface ChannelMessage {
  channel: string;
  data: unknown;
}

const isChannelMessage = (body: unknown): body is ChannelMessage =>
  typeof body === 'object' && body !== null && typeof (body as ChannelMessage).channel === 'string';

/** The signed-in user of a socket: `data.user_id` of its verified token (the original's claims). */
const socketUserId = (authToken: unknown): number | null => {
  const userId = (authToken as { data?: { user_id?: unknown } } | null | undefined)?.data?.user_id;
  return typeof userId === 'number' ? userId : null;
};

export async function startRealtime(
  deps: Pick<ServiceDeps, 'db' | 'bus' | 'log'> & {
    server: Server;
    signingKeys: () => Promise<SigningKeys>;
    /** Called with each channel message's channel; the message goes to the sockets once what it returns settles. */
    beforeSending?: (channel: string) => Promise<void> | undefined;
  },
): Promise<RealtimeEdge> {
  const { db, bus, log, server, signingKeys, beforeSending } = deps;
  const authEngine = {
    // Only our own session JWTs: RS256 with the gateway's key (loaded on first use). What this returns becomes the
    // socket's authToken (the token's payload; the package's types call it a Jwt).
    async verifyToken(signedToken: string | null) {
      if (typeof signedToken !== 'string') throw new jwt.JsonWebTokenError('jwt must be a string');
      const { publicKeyPem } = await signingKeys();
      return jwt.verify(signedToken, publicKeyPem, { algorithms: ['RS256'] }) as unknown as jwt.Jwt;
    },
    // The gateway issues tokens over HTTP only; a socket never gets one from here.
    async signToken(): Promise<string> {
      throw new Error('the real-time edge issues no tokens');
    },
  };
  const agServer = attach(server, {
    path: REALTIME_PATH,
    allowClientPublish: false,
    authEngine,
  });

  agServer.setMiddleware(agServer.MIDDLEWARE_INBOUND, async (stream) => {
    for await (const action of stream) {
      if (action.type !== action.SUBSCRIBE) {
        action.allow();
        continue;
      }
      try {
        // Read on every subscribe, as module switches are: a change applies to every later subscribe, in every
        // gateway process (sockets already subscribed keep their channels until they reconnect).
        const { realtime_anonymous } = await readSettings(db, ['realtime_anonymous']);
        const refusal = subscribeRefusal(
          String(action.channel),
          socketUserId(action.socket.authToken),
          realtime_anonymous !== 'disabled',
        );
        if (refusal) {
          const error = new Error(refusal);
          error.name = 'SubscribeRefusedError';
          action.block(error);
        } else action.allow();
      } catch (error) {
        log.warn({ err: error }, 'real-time subscribe check failed');
        action.block(new Error('Subscription could not be checked'));
      }
    }
  });

  void (async () => {
    for await (const { error } of agServer.listener('error')) log.warn({ err: error }, 'real-time server error');
  })();

  const receiver: Consumer = await bus.receiveBroadcasts((_key, body) => {
    if (!isChannelMessage(body)) return;
    const send = () => agServer.exchange.transmitPublish(body.channel, body.data);
    const ready = beforeSending?.(body.channel);
    if (!ready) return send();
    ready.then(send, (error) => {
      log.warn({ err: error, channel: body.channel }, 'preparing for a channel message failed; sent anyway');
      send();
    });
  });

  return {
    clientsCount: () => agServer.clientsCount,
    async stop() {
      await receiver.stop();
      await agServer.close();
      agServer.closeAllListeners();
    },
  };
}
