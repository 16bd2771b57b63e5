// The RS256 key pair for the `jwt` in the login/session payload (the original's PRIVATE_KEY_JSON /
// PUBLIC_KEY_JSON). Without configured keys one pair is generated once and kept in the database, so every
// gateway process signs with the same key.

import { generateKeyPair } from 'node:crypto';
import type { Config } from '@pcas/config';
import type { Db } from '@pcas/sql';
import jwt from 'jsonwebtoken';

export interface SigningKeys {
  privateKeyPem: string;
  publicKeyPem: string;
}

function newKeyPair(): Promise<SigningKeys> {
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

export async function loadSigningKeys(db: Db, config: Pick<Config, 'privateKeyPem' | 'publicKeyPem'>) {
  if (config.privateKeyPem && config.publicKeyPem) {
    return { privateKeyPem: config.privateKeyPem, publicKeyPem: config.publicKeyPem };
  }
  const stored = await db.query<SigningKeys>(
    'SELECT private_key_pem AS "privateKeyPem", public_key_pem AS "publicKeyPem" FROM gateway.signing_keys WHERE id = 1',
  );
  if (stored.rows[0]) return stored.rows[0];
  // Processes starting together may each generate a pair; the first insert wins and all read it back.
  const fresh = await newKeyPair();
  await db.query(
    'INSERT INTO gateway.signing_keys (id, private_key_pem, public_key_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [fresh.privateKeyPem, fresh.publicKeyPem],
  );
  const winner = await db.query<SigningKeys>(
    'SELECT private_key_pem AS "privateKeyPem", public_key_pem AS "publicKeyPem" FROM gateway.signing_keys WHERE id = 1',
  );
  return winner.rows[0];
}

/** The original's claims: iat, nbf, exp = iat + 24 h, data: {user_id}. */
export function signSessionJwt(keys: SigningKeys, userId: number): string {
  return jwt.sign({ data: { user_id: userId } }, keys.privateKeyPem, {
    algorithm: 'RS256',
    expiresIn: 86_400,
    notBefore: 0,
  });
}
