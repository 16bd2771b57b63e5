// Checks the signed links of the queue's e-mails (docs/domain.md#queue-e-mails-and-live-eta) where they arrive, so a
// link's token never travels further (no broker message, no log line): RS256 with the queue-scheduler's public key,
// which is PUBLIC_KEY_JSON when the key pair is configured (as the queue-scheduler signs with it then), else the one
// the queue-scheduler generated (its `queue.link_keys`, whose public half only its queries read). The claims are the
// original's: `data.slot_request_id` for the JIT ETA form, the RTA form's `data.{port, rta, …}`; ours besides: `aud`,
// the link's kind (LinkAudience in libs/contracts), taken only on its own form, and a JIT ETA form link's id `jti`
// (whether it is the newest link is the route's question: domain/eta-form-links.ts).
// Links mailed before links named their kind have no `aud`: such a link is taken until it expires (30 days, 6 hours)
// only if it was signed before the queue-scheduler first signed typed links (its `queue.link_kinds`), and only where its
// claims fit the form (the two kinds' `data` differ); it has no id, so any typed link mailed since supersedes it.

import type { Config } from '@pcas/config';
import { ApiError, LinkAudience } from '@pcas/contracts';
import { linkPublicKey, linksTypedSince as linksTypedSinceOf } from '@pcas/queue-scheduler/queries';
import type { Queryable } from '@pcas/sql';
import jwt from 'jsonwebtoken';

export interface SlotRequestLink {
  slot_request_id: number;
  /** When the link stops working (ISO). */
  expires: string;
  /** The link's id (`jti`); null for a link mailed before links had one. */
  link_id: string | null;
}

export type RtaFormLink = Record<string, unknown> & { rta: string; imo: number; expires: string };

export interface EtaFormLinks {
  /** The slot request a JIT ETA form link names; 403 `This link has expired` / `This link is not valid`. */
  slotRequest(token: string): Promise<SlotRequestLink>;
  /** The RTA form link's claims; the same 403s. */
  rtaForm(token: string): Promise<RtaFormLink>;
}

const expired = () => ApiError.forbidden('This link has expired');
const invalid = () => ApiError.forbidden('This link is not valid');

type Audience = (typeof LinkAudience)[keyof typeof LinkAudience];

export function etaFormLinks(db: Queryable, config: Pick<Config, 'privateKeyPem' | 'publicKeyPem'>): EtaFormLinks {
  let publicKey = config.privateKeyPem && config.publicKeyPem ? config.publicKeyPem : undefined;
  let typedSince: number | undefined;

  async function key(): Promise<string> {
    if (publicKey) return publicKey;
    const found = await linkPublicKey(db);
    // Until the queue-scheduler has made its key no link can be checked (and none has been sent).
    if (!found) throw ApiError.unavailable('Links cannot be checked yet; try again shortly');
    publicKey = found;
    return publicKey;
  }

  /**
   * When links began to name their kind (epoch ms); undefined while no queue-scheduler of this version has started,
   * when every link there is was signed without (kept once known: it never changes).
   */
  async function linksTypedSince(): Promise<number | undefined> {
    if (typedSince !== undefined) return typedSince;
    typedSince = await linksTypedSinceOf(db);
    return typedSince;
  }

  async function verify(
    token: string,
    audience: Audience,
  ): Promise<{ data: Record<string, unknown>; expires: string; id: string | null }> {
    if (typeof token !== 'string' || token === '' || token.length > 8192) throw invalid();
    // What is not a signed token at all is refused without the key (there may be none yet).
    if (jwt.decode(token, { complete: true })?.header.alg !== 'RS256') throw invalid();
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, await key(), { algorithms: ['RS256'] });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw error instanceof jwt.TokenExpiredError ? expired() : invalid();
    }
    const data = typeof payload === 'object' ? payload.data : undefined;
    if (!data || typeof data !== 'object' || typeof payload !== 'object' || typeof payload.exp !== 'number') {
      throw invalid();
    }
    if (payload.aud === undefined) {
      // A link from before links named their kind (see the top of this file).
      const since = await linksTypedSince();
      if (since !== undefined && !(typeof payload.iat === 'number' && payload.iat * 1000 < since)) throw invalid();
    } else if (payload.aud !== audience) throw invalid();
    const id = payload.aud === undefined ? null : payload.jti;
    if (audience === LinkAudience.etaForm && id !== null && (typeof id !== 'string' || id === '')) throw invalid();
    return {
      data: data as Record<string, unknown>,
      expires: new Date(payload.exp * 1000).toISOString(),
      id: typeof id === 'string' ? id : null,
    };
  }

  return {
    async slotRequest(token) {
      const { data, expires, id: link_id } = await verify(token, LinkAudience.etaForm);
      const id = data.slot_request_id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw invalid();
      return { slot_request_id: id, expires, link_id };
    },
    async rtaForm(token) {
      const { data, expires } = await verify(token, LinkAudience.rtaForm);
      if (typeof data.rta !== 'string' || typeof data.imo !== 'number') throw invalid();
      return { ...data, rta: data.rta, imo: data.imo, expires };
    },
  };
}
