// The gateway signs two kinds of token with one key (signing-key.ts): each verifier takes only its own kind.

import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { signResetToken, verifyResetToken } from './reset-token.ts';
import { signSocketToken, socketTokenClaims, verifySocketToken } from './signing-key.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const keys = { publicKeyPem: publicKey, privateKeyPem: privateKey };

describe('token kinds', () => {
  it('a socket token verifies as one, naming its user, session and expiry', () => {
    const token = signSocketToken(keys, 7, 'digest-of-the-session');
    const claims = socketTokenClaims(verifySocketToken(keys, token));
    expect(claims).toMatchObject({ userId: 7, sessionDigest: 'digest-of-the-session' });
    expect(claims!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 86_000);
  });

  it('a reset token is not a socket token, and a socket token is not a reset token', () => {
    const reset = signResetToken(keys, { email: 'a@example.com', port: 'FIGAV', pwf: 'x' }).token;
    expect(() => verifySocketToken(keys, reset)).toThrow(/audience/);
    expect(verifyResetToken(keys, signSocketToken(keys, 7, 'd'))).toBeNull();
  });

  it("the original's token (no kind, no session) is not a socket token", () => {
    const original = jwt.sign({ data: { user_id: 7 } }, privateKey, { algorithm: 'RS256', expiresIn: 86_400 });
    expect(() => verifySocketToken(keys, original)).toThrow(/audience/);
    const noSession = jwt.sign({ data: { user_id: 7 } }, privateKey, {
      algorithm: 'RS256',
      expiresIn: 86_400,
      audience: 'socket',
    });
    expect(() => verifySocketToken(keys, noSession)).toThrow(/not a socket token/);
  });
});
