import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newRsaKeyPair } from './key-pair.ts';

describe('a new RSA key pair', () => {
  it('is 2048-bit RSA in PEM, PKCS#8 and SPKI, and signs RS256', async () => {
    const { privateKeyPem, publicKeyPem } = await newRsaKeyPair();
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const key = createPrivateKey(privateKeyPem);
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const signature = sign('sha256', Buffer.from('x'), key);
    expect(verify('sha256', Buffer.from('x'), createPublicKey(publicKeyPem), signature)).toBe(true);
  });
});
