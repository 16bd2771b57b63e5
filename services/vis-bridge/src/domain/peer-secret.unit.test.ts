import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { peerSecretProblem } from './peer-secret.ts';

const TOO_EASY =
  'Peer secret is too easy to guess: use at least 10 different characters of at least two kinds (lower case, ' +
  'upper case, digits, others), e.g. 32 random bytes in hex or base64';

describe('peerSecretProblem', () => {
  it('takes what a generator makes: random bytes in hex or base64, a long passphrase', () => {
    expect(peerSecretProblem(randomBytes(32).toString('hex'))).toBeUndefined();
    expect(peerSecretProblem(randomBytes(32).toString('base64'))).toBeUndefined();
    expect(peerSecretProblem('port-a-and-port-b-share-this-secret-2026')).toBeUndefined();
  });

  it('refuses a secret shorter than 32 characters or longer than 128', () => {
    const message = 'Peer secret must be 32 to 128 characters';
    expect(peerSecretProblem('port-a-and-port-b-share-this')).toBe(message);
    expect(peerSecretProblem(randomBytes(15).toString('hex'))).toBe(message);
    expect(peerSecretProblem('a'.repeat(129))).toBe(message);
  });

  it('refuses a long secret with few different characters, or of one kind only', () => {
    expect(peerSecretProblem('ab12'.repeat(10))).toBe(TOO_EASY);
    expect(peerSecretProblem('x'.repeat(40))).toBe(TOO_EASY);
    expect(peerSecretProblem('abcdefghijklmnopqrstuvwxyzabcdefgh')).toBe(TOO_EASY);
    expect(peerSecretProblem('1234567890'.repeat(4))).toBe(TOO_EASY);
    // Ten different characters of two kinds is enough.
    expect(peerSecretProblem('abcdefghi1'.repeat(4))).toBeUndefined();
  });
});
