// Signed links in the queue's e-mails (docs/domain.md#queue-e-mails-and-live-eta): RS256 JWTs with the original's
// lifetimes and claims: a slot request's JIT ETA form link (30 days, `data: {slot_request_id}`) and the RTA web
// form link (6 hours, `data: {port, rta, eta_min, eta_max, email, imo, vessel_name, vessel_loa, vessel_beam,
// vessel_draft, berth}`). The key pair is the configured PRIVATE_KEY_JSON / PUBLIC_KEY_JSON when given (as the
// original, whose ETA form verifies with that public key), else one pair generated once and kept in
// queue.link_keys: outside the event log, never on the bus or in a log line. Only this service signs; the gateway
// checks the links with the public key where they arrive (services/gateway/src/adapters/eta-form-links.ts).
// Not the original's: each link names its kind in `aud` (LinkAudience in libs/contracts), and a JIT ETA form link
// carries its id in `jti` (the mail's event id), so the gateway takes a link only on its own form and lets only the
// newest link of a slot request change it. Links mailed before this have neither: queue.link_kinds records when this
// version first signed, and the gateway takes a link without `aud` only if it was signed before then (they run out
// with their lifetime).

import { createPrivateKey, randomUUID, sign as signWith } from 'node:crypto';
import type { Config } from '@pcas/config';
import { LinkAudience } from '@pcas/contracts';
import type { Db } from '@pcas/sql';
import type { RtaFormClaims } from '@pcas/values';
import { newRsaKeyPair, type PemKeyPair } from '@pcas/values/key-pair';

export type LinkKeys = PemKeyPair;

export const SLOT_REQUEST_LINK_SECONDS = 30 * 24 * 3600;
export const RTA_FORM_LINK_SECONDS = 6 * 3600;

/** The table of the generated key pair (created with the outbox's, adapters/outbox.ts). */
export const LINK_KEYS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS queue.link_keys (
     id integer PRIMARY KEY,
     private_key_pem text NOT NULL,
     public_key_pem text NOT NULL
   )`,
  // One row: when links first named their kind (the first start of this version); read by the gateway.
  'CREATE TABLE IF NOT EXISTS queue.link_kinds (id integer PRIMARY KEY, since timestamptz NOT NULL)',
];

/** Records, once, that links name their kind from now on (before the first such link is signed). */
export async function recordLinkKinds(db: Db): Promise<void> {
  await db.query('INSERT INTO queue.link_kinds (id, since) VALUES (1, now()) ON CONFLICT (id) DO NOTHING');
}

const SELECT_KEYS =
  'SELECT private_key_pem AS "privateKeyPem", public_key_pem AS "publicKeyPem" FROM queue.link_keys WHERE id = 1';

export async function loadLinkKeys(db: Db, config: Pick<Config, 'privateKeyPem' | 'publicKeyPem'>): Promise<LinkKeys> {
  if (config.privateKeyPem && config.publicKeyPem) {
    return { privateKeyPem: config.privateKeyPem, publicKeyPem: config.publicKeyPem };
  }
  const stored = await db.query<LinkKeys>(SELECT_KEYS);
  if (stored.rows[0]) return stored.rows[0];
  // Processes starting together may each generate a pair; the first insert wins and all read it back.
  const fresh = await newRsaKeyPair();
  await db.query(
    'INSERT INTO queue.link_keys (id, private_key_pem, public_key_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [fresh.privateKeyPem, fresh.publicKeyPem],
  );
  return (await db.query<LinkKeys>(SELECT_KEYS)).rows[0];
}

export interface SignedLinks {
  /**
   * The token of a slot request's JIT ETA form link, when it expires (epoch ms) and its id (`jti`: `linkId` when
   * given, else a new one).
   */
  slotRequest(slotRequestId: number, now?: number, linkId?: string): { token: string; expires: number; id: string };
  rtaForm(claims: RtaFormClaims, now?: number): { token: string; expires: number };
}

// The JWS header of every link: RS256, as the original's.
const HEADER = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');

export function signedLinks(keys: LinkKeys): SignedLinks {
  // Parsed once: reading the PEM again for every link cost about as much as the signature.
  const privateKey = createPrivateKey(keys.privateKeyPem);
  // A compact JWS made here (RFC 7515: header.payload.RS256 signature, each base64url) rather than by jsonwebtoken,
  // whose checks of options we never vary cost a fifth of a link's signing; any JWT library verifies it.
  const sign = (data: object, seconds: number, now: number | undefined, claims: { aud: string; jti?: string }) => {
    const iat = Math.floor((now ?? Date.now()) / 1000);
    const payload = Buffer.from(JSON.stringify({ iat, nbf: iat, exp: iat + seconds, ...claims, data })).toString(
      'base64url',
    );
    const signed = `${HEADER}.${payload}`;
    const signature = signWith('sha256', Buffer.from(signed), privateKey).toString('base64url');
    return { token: `${signed}.${signature}`, expires: (iat + seconds) * 1000 };
  };
  return {
    slotRequest(slotRequestId, now, linkId = randomUUID()) {
      const claims = { aud: LinkAudience.etaForm, jti: linkId };
      return { ...sign({ slot_request_id: slotRequestId }, SLOT_REQUEST_LINK_SECONDS, now, claims), id: linkId };
    },
    rtaForm: (claims, now) => sign(claims, RTA_FORM_LINK_SECONDS, now, { aud: LinkAudience.rtaForm }),
  };
}
