// Signed links in the queue's e-mails (docs/domain.md#queue-e-mails-and-live-eta): RS256 JWTs with the original's
// lifetimes and claims: a slot request's JIT ETA form link (30 days, `data: {slot_request_id}`) and the RTA web
// form link (6 hours, `data: {port, rta, eta_min, eta_max, email, imo, vessel_name, vessel_loa, vessel_beam,
// vessel_draft, berth}`). The key pair is the configured PRIVATE_KEY_JSON / PUBLIC_KEY_JSON when given (as the
// original, whose ETA form verifies with that public key), else one pair generated once and kept in
// queue.link_keys: outside the event log, never on the bus or in a log line. Only this service signs; the gateway
// checks the links with the public key where they arrive (services/gateway/src/adapters/eta-form-links.ts).

import { createPrivateKey, generateKeyPair, sign as signWith } from 'node:crypto';
import type { Config } from '@pcas/config';
import type { Db } from '@pcas/sql';

export interface LinkKeys {
  privateKeyPem: string;
  publicKeyPem: string;
}

export const SLOT_REQUEST_LINK_SECONDS = 30 * 24 * 3600;
export const RTA_FORM_LINK_SECONDS = 6 * 3600;

export interface RtaFormClaims {
  port: string;
  rta: string;
  eta_min: string;
  eta_max: string;
  email: string;
  imo: number;
  vessel_name: string;
  vessel_loa: number | string;
  vessel_beam: number | string;
  vessel_draft: number | string;
  berth: string;
}

/** The table of the generated key pair (created with the outbox's, adapters/outbox.ts). */
export const LINK_KEYS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS queue.link_keys (
     id integer PRIMARY KEY,
     private_key_pem text NOT NULL,
     public_key_pem text NOT NULL
   )`,
];

function newKeyPair(): Promise<LinkKeys> {
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (error, publicKeyPem, privateKeyPem) => (error ? reject(error) : resolve({ privateKeyPem, publicKeyPem })),
    );
  });
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
  const fresh = await newKeyPair();
  await db.query(
    'INSERT INTO queue.link_keys (id, private_key_pem, public_key_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [fresh.privateKeyPem, fresh.publicKeyPem],
  );
  return (await db.query<LinkKeys>(SELECT_KEYS)).rows[0];
}

export interface SignedLinks {
  /** The token of a slot request's JIT ETA form link, and when it expires (epoch ms). */
  slotRequest(slotRequestId: number, now?: number): { token: string; expires: number };
  rtaForm(claims: RtaFormClaims, now?: number): { token: string; expires: number };
}

// The JWS header of every link: RS256, as the original's.
const HEADER = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');

export function signedLinks(keys: LinkKeys): SignedLinks {
  // Parsed once: reading the PEM again for every link cost about as much as the signature.
  const privateKey = createPrivateKey(keys.privateKeyPem);
  // A compact JWS made here (RFC 7515: header.payload.RS256 signature, each base64url) rather than by jsonwebtoken,
  // whose checks of options we never vary cost a fifth of a link's signing; any JWT library verifies it.
  const sign = (data: object, seconds: number, now = Date.now()) => {
    const iat = Math.floor(now / 1000);
    const payload = Buffer.from(JSON.stringify({ iat, nbf: iat, exp: iat + seconds, data })).toString('base64url');
    const signed = `${HEADER}.${payload}`;
    const signature = signWith('sha256', Buffer.from(signed), privateKey).toString('base64url');
    return { token: `${signed}.${signature}`, expires: (iat + seconds) * 1000 };
  };
  return {
    slotRequest: (slotRequestId, now) => sign({ slot_request_id: slotRequestId }, SLOT_REQUEST_LINK_SECONDS, now),
    rtaForm: (claims, now) => sign(claims, RTA_FORM_LINK_SECONDS, now),
  };
}
