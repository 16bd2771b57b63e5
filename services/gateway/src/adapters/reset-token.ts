// Password reset tokens (docs/domain.md#password-reset): an RS256 JWT valid 24 h with `data: {email,
// port}`, signed with the gateway's key (signing-key.ts). Two additions over the original: an audience, so the
// socket token of the login payload is never accepted as a reset token, and a fingerprint of the current
// password hash, so a token works once: after the reset the hash, and with it the fingerprint, changes.

import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { SigningKeys } from './signing-key.ts';

const AUDIENCE = 'password-reset';
export const RESET_TOKEN_SECONDS = 24 * 3600;

export interface ResetClaims {
  email: string;
  port: string;
  /** passwordFingerprint() of the user when the token was issued. */
  pwf: string;
}

/** Short, one-way digest of the stored hash (never the hash itself). */
export function passwordFingerprint(userId: number, passwordHash: string): string {
  return createHash('sha256').update(`${userId}:${passwordHash}`).digest('base64url').slice(0, 22);
}

export function signResetToken(keys: SigningKeys, claims: ResetClaims): { token: string; expiresAt: Date } {
  const token = jwt.sign({ data: claims }, keys.privateKeyPem, {
    algorithm: 'RS256',
    expiresIn: RESET_TOKEN_SECONDS,
    notBefore: 0,
    audience: AUDIENCE,
  });
  const { exp } = jwt.decode(token) as { exp: number };
  return { token, expiresAt: new Date(exp * 1000) };
}

/** The claims of a valid, unexpired token of ours; null for anything else. */
export function verifyResetToken(keys: SigningKeys, token: string): ResetClaims | null {
  try {
    const payload = jwt.verify(token, keys.publicKeyPem, { algorithms: ['RS256'], audience: AUDIENCE }) as {
      data?: Partial<ResetClaims>;
    };
    const data = payload.data;
    if (typeof data?.email !== 'string' || typeof data.port !== 'string' || typeof data.pwf !== 'string') return null;
    return { email: data.email, port: data.port, pwf: data.pwf };
  } catch {
    return null;
  }
}
