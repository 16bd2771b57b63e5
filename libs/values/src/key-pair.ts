// A new RS256 signing key pair (the gateway's session JWT, the queue's signed links) when none is configured or
// stored. Node only (node:crypto), hence its own entry point (`@pcas/values/key-pair`).

import { generateKeyPair } from 'node:crypto';

export interface PemKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

/** A fresh 2048-bit RSA pair as PEM: the private key PKCS#8, the public key SPKI. */
export function newRsaKeyPair(): Promise<PemKeyPair> {
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
