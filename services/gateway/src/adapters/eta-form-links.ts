// Checks the signed links of the queue's e-mails (docs/domain.md#queue-e-mails-and-live-eta) where they arrive, so a
// link's token never travels further (no broker message, no log line): RS256 with the queue-scheduler's public key,
// which is PUBLIC_KEY_JSON when the key pair is configured (as the queue-scheduler signs with it then), else the one
// the queue-scheduler generated (`queue.link_keys`, read here for its public half only). The claims are the
// original's: `data.slot_request_id` for the JIT ETA form, the RTA form's `data.{port, rta, …}`.

import type { Config } from '@pcas/config';
import { ApiError } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';
import jwt from 'jsonwebtoken';

export interface SlotRequestLink {
  slot_request_id: number;
  /** When the link stops working (ISO). */
  expires: string;
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

export function etaFormLinks(db: Queryable, config: Pick<Config, 'privateKeyPem' | 'publicKeyPem'>): EtaFormLinks {
  let publicKey = config.privateKeyPem && config.publicKeyPem ? config.publicKeyPem : undefined;

  async function key(): Promise<string> {
    if (publicKey) return publicKey;
    const { rows: table } = await db.query<{ ok: boolean }>("SELECT to_regclass('queue.link_keys') IS NOT NULL AS ok");
    const found = table[0]?.ok
      ? (await db.query<{ pem: string }>('SELECT public_key_pem AS pem FROM queue.link_keys WHERE id = 1')).rows[0]
      : undefined;
    // Until the queue-scheduler has made its key no link can be checked (and none has been sent).
    if (!found) throw ApiError.unavailable('Links cannot be checked yet; try again shortly');
    publicKey = found.pem;
    return publicKey;
  }

  async function verify(token: string): Promise<{ data: Record<string, unknown>; expires: string }> {
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
    return { data: data as Record<string, unknown>, expires: new Date(payload.exp * 1000).toISOString() };
  }

  return {
    async slotRequest(token) {
      const { data, expires } = await verify(token);
      const id = data.slot_request_id;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw invalid();
      return { slot_request_id: id, expires };
    },
    async rtaForm(token) {
      const { data, expires } = await verify(token);
      if (typeof data.rta !== 'string' || typeof data.imo !== 'number') throw invalid();
      return { ...data, rta: data.rta, imo: data.imo, expires };
    },
  };
}
