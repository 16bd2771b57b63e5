// Checks a peer's request before anything else is done with it (docs/architecture.md#vis-direct-mode): the gateway's
// /vis/* routes call this in process, so a request not signed, signed wrongly, for another port or seen before is
// answered there, without a broker call or a write; only a verified request goes on to cmd.vis-bridge.
//
// The keys are every peer's inbound key (derived from its secret for the direction peer → us; the secrets
// themselves are not kept), in memory: an unknown service id is a map miss. They are reloaded when a request that
// passed the checks needing no key finds them older than `refreshMs`, one load at a time, so a flood of requests
// costs at most one load per interval, and a peer linked or given a new secret is known everywhere within it.

import type { Queryable } from '@pcas/sql';
import { forgetExpiredPeerRequests, peerSecrets, rememberPeerRequest } from '../adapters/peer-store.ts';
import { directionKey, SIGNATURE_VERSION, verifyPeerRequest } from '../domain/signature.ts';

export interface PeerRequest {
  method: string;
  /** The operation's path as signed, e.g. `/batch`. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as the route hands it on (its declared fields). */
  body: unknown;
}

export type PeerCheck =
  /** Verified, and not seen before: from `sender`, checked with signature version `version`. */
  | { ok: true; sender: string; version: string }
  /** 401 not signed so we can check it, 403 signed wrongly or for another port, 409 seen before. */
  | { ok: false; status: 401 | 403 | 409; reason: string };

export interface PeerVerifier {
  verify(request: PeerRequest): Promise<PeerCheck>;
  /** Forgets the keys, so the next request loads them: after a peer was linked through this process. */
  invalidate(): void;
}

export interface PeerVerifierOptions {
  /** Our own service id (VIS_SERVICE_INSTANCE_URN): the only recipient requests are taken for. */
  ownServiceId: string;
  /** VIS_PEER_CLOCK_SKEW_SECONDS. */
  skewSeconds: number;
  /** How old the keys may get before a request reloads them (default 2 s). */
  refreshMs?: number;
  now?: () => number;
}

/** Where the verifier reads the peers' secrets and remembers the requests it took (the database, in use). */
export interface PeerRequestStore {
  secrets(): Promise<{ service_id: string; secret: string }[]>;
  /** False when the request was remembered before (by any process). */
  remember(signature: string, untilSeconds: number): Promise<boolean>;
  forgetExpired(): Promise<void>;
}

export const REPLAY_REFUSAL = 'VIS peer request was received before: a replayed request is refused';

/**
 * The verifier on the database the vis-bridge keeps its peers in (vis.peer_secrets), remembering requests in
 * vis.peer_requests_seen, shared by every gateway process.
 */
export function createPeerVerifier(db: Queryable, options: PeerVerifierOptions): PeerVerifier {
  return peerVerifierOver(
    {
      secrets: () => peerSecrets(db),
      remember: (signature, until) => rememberPeerRequest(db, signature, until),
      forgetExpired: () => forgetExpiredPeerRequests(db),
    },
    options,
  );
}

export function peerVerifierOver(store: PeerRequestStore, options: PeerVerifierOptions): PeerVerifier {
  const now = options.now ?? Date.now;
  const refreshMs = options.refreshMs ?? 2_000;
  let keys = new Map<string, Buffer>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | undefined;
  // Bumped by invalidate: a load that began before it does not count as fresh.
  let generation = 0;

  const load = (): Promise<void> => {
    loading ??= (async () => {
      const startedAt = now();
      const startedIn = generation;
      const next = new Map<string, Buffer>();
      for (const { service_id, secret } of await store.secrets()) {
        next.set(service_id, directionKey(secret, { sender: service_id, recipient: options.ownServiceId }));
      }
      keys = next;
      if (startedIn === generation) loadedAt = startedAt;
      // Piggybacks on the load's interval: the table holds only the requests of the last window or so.
      await store.forgetExpired();
    })().finally(() => {
      loading = undefined;
    });
    return loading;
  };

  const check = (request: PeerRequest) => {
    let keyed = false;
    const verdict = verifyPeerRequest(request, {
      ownServiceId: options.ownServiceId,
      inboundKey: (sender) => {
        keyed = true;
        return keys.get(sender);
      },
      nowMs: now(),
      skewSeconds: options.skewSeconds,
    });
    return { verdict, keyed };
  };

  return {
    async verify(request) {
      let { verdict, keyed } = check(request);
      // Only a request that got as far as its key may cost a load, and then only with keys older than refreshMs.
      if (keyed && now() - loadedAt >= refreshMs) {
        await load();
        ({ verdict } = check(request));
      }
      if (!verdict.ok) return verdict;
      if (!(await store.remember(verdict.replayKey, verdict.rememberUntil))) {
        return { ok: false, status: 409, reason: REPLAY_REFUSAL };
      }
      return { ok: true, sender: verdict.sender, version: SIGNATURE_VERSION };
    },
    invalidate() {
      generation++;
      loadedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
