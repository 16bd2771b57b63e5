// The real-time edge (docs/architecture.md#real-time): a SocketCluster (protocol v2) endpoint at /socketcluster/
// on the gateway's own HTTP server, which the original web UI (socketcluster-client 15) and mobile app (16) connect
// to unchanged. Sockets subscribe to channels by name; the notifier's channel messages arrive as broadcasts (every
// gateway process gets each once) and go to the sockets of this process subscribed to that channel.
//
// `socket.authenticate(jwt)` takes the `jwt` of the login/session payload (a socket token: signing-key.ts), checked
// against the gateway's RS256 key, its kind, its session and its user; any other token is refused. Who may subscribe
// to what is the channel table's (routes/channels.ts) under `realtime_anonymous` (domain/realtime.ts), checked on
// every subscribe and again every REALTIME_RECHECK_MS for every open socket: a session that ended, a user suspended,
// locked or deleted loses its sign-in, and channels a lost permission or a stricter setting no longer allows are
// left (the socket is told with #kickOut). Clients never publish.

import type { Server } from 'node:http';
import type { PasswordRules } from '@pcas/config';
import type { ServiceDeps } from '@pcas/contracts';
import type { Consumer } from '@pcas/messaging';
import jwt from 'jsonwebtoken';
import { type AGServer, type AGServerSocket, attach } from 'socketcluster-server';
import type { SessionStore } from '../adapters/session-store.ts';
import { readSettings } from '../adapters/settings.ts';
import { type SigningKeys, socketTokenClaims, verifySocketToken } from '../adapters/signing-key.ts';
import { type AccountBlock, loadUsers, type UserWithPermissions } from '../adapters/users.ts';
import { rulesForRole } from '../domain/passwords.ts';
import {
  type ChannelRules,
  keepsSignIn,
  type RealtimeAnonymous,
  realtimeAnonymousMode,
  type SocketCaller,
  subscribeRefusal,
} from '../domain/realtime.ts';
import { ANONYMOUS } from '../domain/roles.ts';
import { signInHolds } from '../domain/sign-in.ts';

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

const callerOf = (user: { id: number; permissions: readonly string[] }): SocketCaller => ({
  kind: 'session',
  userId: Number(user.id),
  permissions: new Set(user.permissions),
});

/** What re-checking the open sockets reads, and the callers it updates (startRealtime's). */
interface Rechecking {
  db: ServiceDeps['db'];
  sessions: Pick<SessionStore, 'endedAmong'>;
  channels: ChannelRules;
  mode: () => Promise<RealtimeAnonymous>;
  holds: (user: (UserWithPermissions & AccountBlock) | null) => boolean;
  callers: WeakMap<AGServerSocket, SocketCaller>;
}

/** Every open socket checked again: its sign-in kept or ended, each channel kept or left. */
async function recheck(agServer: AGServer, { db, sessions, channels, mode, holds, callers }: Rechecking) {
  const sockets = Object.values(agServer.clients) as AGServerSocket[];
  if (sockets.length === 0) return;
  const signedIn = sockets.flatMap((socket) => {
    const claims = socket.authToken ? socketTokenClaims(socket.authToken) : null;
    return claims ? [{ socket, claims }] : [];
  });
  const [current, users, ended] = await Promise.all([
    mode(),
    loadUsers(db, [...new Set(signedIn.map(({ claims }) => claims.userId))]),
    sessions.endedAmong([...new Set(signedIn.map(({ claims }) => claims.sessionDigest))]),
  ]);
  const now = Date.now() / 1000;
  for (const { socket, claims } of signedIn) {
    const user = users.get(claims.userId) ?? null;
    const state = {
      expiresAt: claims.expiresAt,
      sessionEnded: ended.has(claims.sessionDigest),
      userSignedIn: holds(user),
    };
    if (user && keepsSignIn(state, now)) callers.set(socket, callerOf(user));
    else {
      callers.delete(socket);
      void socket.deauthenticate().catch(() => {});
    }
  }
  for (const socket of sockets) {
    const caller = (socket.authToken && callers.get(socket)) || ANONYMOUS;
    for (const channel of socket.subscriptions()) {
      const refusal = subscribeRefusal(channel, caller, current, channels);
      if (refusal) void socket.kickOut(channel, refusal).catch(() => {});
    }
  }
}

/** The socket server's auth engine: our own socket tokens checked, none issued. */
function authEngineOf(
  signingKeys: () => Promise<SigningKeys>,
  signedInCaller: (payload: unknown) => Promise<SocketCaller | null>,
) {
  return {
    // Only our own socket tokens. What this returns becomes the socket's authToken (the token's payload; the
    // package's types call it a Jwt).
    async verifyToken(signedToken: string | null) {
      if (typeof signedToken !== 'string') throw new jwt.JsonWebTokenError('jwt must be a string');
      const payload = verifySocketToken(await signingKeys(), signedToken);
      if (!(await signedInCaller(payload))) throw new jwt.JsonWebTokenError('the session of this token has ended');
      return payload as unknown as jwt.Jwt;
    },
    // The gateway issues tokens over HTTP only; a socket never gets one from here.
    async signToken(): Promise<string> {
      throw new Error('the real-time edge issues no tokens');
    },
  };
}

export async function startRealtime(
  deps: Pick<ServiceDeps, 'db' | 'bus' | 'log'> & {
    server: Server;
    sessions: Pick<SessionStore, 'endedAmong'>;
    signingKeys: () => Promise<SigningKeys>;
    /** The channel table (routes/channels.ts), resolved against the route table. */
    channels: ChannelRules;
    /** How often every open socket's sign-in and subscriptions are checked again. */
    recheckMs: number;
    /** Per role, how long a suspension lasts (domain/sign-in.ts). */
    passwordRules: PasswordRules;
    /** Called with each channel message's channel; the message goes to the sockets once what it returns settles. */
    beforeSending?: (channel: string) => Promise<void> | undefined;
  },
): Promise<RealtimeEdge> {
  const { db, bus, log, server, sessions, signingKeys, channels, recheckMs, passwordRules, beforeSending } = deps;
  const holds = (user: (UserWithPermissions & AccountBlock) | null) =>
    user !== null && signInHolds(user, rulesForRole(passwordRules, user.role), new Date());
  const mode = async (): Promise<RealtimeAnonymous> =>
    realtimeAnonymousMode((await readSettings(db, ['realtime_anonymous'])).realtime_anonymous);

  // A socket token is refused once its session ended or its user is not active, whatever its signature says.
  async function signedInCaller(payload: unknown): Promise<SocketCaller | null> {
    const claims = socketTokenClaims(payload);
    if (!claims) return null;
    const [users, ended] = await Promise.all([
      loadUsers(db, [claims.userId]),
      sessions.endedAmong([claims.sessionDigest]),
    ]);
    const user = users.get(claims.userId) ?? null;
    const state = { expiresAt: claims.expiresAt, sessionEnded: ended.size > 0, userSignedIn: holds(user) };
    return user && keepsSignIn(state, Date.now() / 1000) ? callerOf(user) : null;
  }

  // What each signed-in socket may do, as last looked up (at sign-in, then by every re-check).
  const callers = new WeakMap<AGServerSocket, SocketCaller>();
  async function callerOfSocket(socket: AGServerSocket): Promise<SocketCaller> {
    if (!socket.authToken) return ANONYMOUS;
    const known = callers.get(socket);
    if (known) return known;
    const caller = await signedInCaller(socket.authToken);
    if (!caller) return ANONYMOUS;
    callers.set(socket, caller);
    return caller;
  }

  const authEngine = authEngineOf(signingKeys, signedInCaller);
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
        // Read on every subscribe, as module switches are: a change applies to every later subscribe in every
        // gateway process, and to channels already subscribed at the next re-check.
        const [current, caller] = await Promise.all([mode(), callerOfSocket(action.socket)]);
        const refusal = subscribeRefusal(String(action.channel), caller, current, channels);
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

  void (async () => {
    for await (const { socket } of agServer.listener('authentication')) callers.delete(socket);
  })();

  let rechecking = false;
  const rechecks = setInterval(() => {
    if (rechecking) return;
    rechecking = true;
    recheck(agServer, { db, sessions, channels, mode, holds, callers })
      .catch((error) => log.warn({ err: error }, 'real-time re-check failed'))
      .finally(() => {
        rechecking = false;
      });
  }, recheckMs);
  rechecks.unref();

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
      clearInterval(rechecks);
      await receiver.stop();
      await agServer.close();
      agServer.closeAllListeners();
    },
  };
}
