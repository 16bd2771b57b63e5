// The RS256 key pair for the `jwt` in the login/session payload (the original's PRIVATE_KEY_JSON /
// PUBLIC_KEY_JSON). Without configured keys one pair is generated once and kept in the database, so every
// gateway process signs with the same key.

import type { Config } from '@pcas/config';
import type { Db } from '@pcas/sql';
import { newRsaKeyPair, type PemKeyPair } from '@pcas/values/key-pair';
import jwt from 'jsonwebtoken';

export type SigningKeys = PemKeyPair;

export async function loadSigningKeys(db: Db, config: Pick<Config, 'privateKeyPem' | 'publicKeyPem'>) {
  if (config.privateKeyPem && config.publicKeyPem) {
    return { privateKeyPem: config.privateKeyPem, publicKeyPem: config.publicKeyPem };
  }
  const stored = await db.query<SigningKeys>(
    'SELECT private_key_pem AS "privateKeyPem", public_key_pem AS "publicKeyPem" FROM gateway.signing_keys WHERE id = 1',
  );
  if (stored.rows[0]) return stored.rows[0];
  // Processes starting together may each generate a pair; the first insert wins and all read it back.
  const fresh = await newRsaKeyPair();
  await db.query(
    'INSERT INTO gateway.signing_keys (id, private_key_pem, public_key_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [fresh.privateKeyPem, fresh.publicKeyPem],
  );
  const winner = await db.query<SigningKeys>(
    'SELECT private_key_pem AS "privateKeyPem", public_key_pem AS "publicKeyPem" FROM gateway.signing_keys WHERE id = 1',
  );
  return winner.rows[0];
}

/** What a socket token says it is (`aud`): each verifier of this key accepts only its own kind. */
export const SOCKET_TOKEN_AUDIENCE = 'socket';
/** A socket token's lifetime, as the original's JWT (24 h). */
export const SOCKET_TOKEN_SECONDS = 86_400;

/**
 * The `jwt` of the login/session payload, which signs a real-time socket in: the original's claims (iat, nbf,
 * exp = iat + 24 h, data: {user_id}), plus its kind (`aud`) and its session's digest (`sid`), so the socket's
 * sign-in ends with the session.
 */
export function signSocketToken(keys: SigningKeys, userId: number, sessionDigest: string): string {
  return jwt.sign({ data: { user_id: userId }, sid: sessionDigest }, keys.privateKeyPem, {
    algorithm: 'RS256',
    audience: SOCKET_TOKEN_AUDIENCE,
    expiresIn: SOCKET_TOKEN_SECONDS,
    notBefore: 0,
  });
}

export interface SocketToken {
  userId: number;
  sessionDigest: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** The claims of a socket token as it verifies (signature, kind, time), or null when it is not one. */
export function socketTokenClaims(payload: unknown): SocketToken | null {
  const claims = payload as { data?: { user_id?: unknown }; sid?: unknown; exp?: unknown } | null;
  const userId = claims?.data?.user_id;
  if (typeof userId !== 'number' || typeof claims?.sid !== 'string' || typeof claims.exp !== 'number') return null;
  return { userId, sessionDigest: claims.sid, expiresAt: claims.exp };
}

/** Verifies a socket token: our key, RS256, its kind, its time. Throws as jsonwebtoken does when it fails. */
export function verifySocketToken(keys: SigningKeys, token: string): jwt.JwtPayload {
  const payload = jwt.verify(token, keys.publicKeyPem, { algorithms: ['RS256'], audience: SOCKET_TOKEN_AUDIENCE });
  if (typeof payload === 'string' || !socketTokenClaims(payload)) {
    throw new jwt.JsonWebTokenError('not a socket token');
  }
  return payload;
}
