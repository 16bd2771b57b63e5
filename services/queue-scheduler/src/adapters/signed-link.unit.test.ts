// Signed links as the queue signs them: RS256 with the original's claims and lifetimes, verifiable with the
// public key alone, each naming its kind in `aud` and a JIT ETA form link its id in `jti`. (Checking them, forged,
// expired, wrong-kind and superseded ones included: the gateway's eta-form-links tests.)

import { generateKeyPairSync } from 'node:crypto';
import { LinkAudience } from '@pcas/contracts';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { type LinkKeys, RTA_FORM_LINK_SECONDS, SLOT_REQUEST_LINK_SECONDS, signedLinks } from './signed-link.ts';

const pair = (): LinkKeys => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
};
const keys = pair();
const links = signedLinks(keys);

describe('signed links', () => {
  it('slot request: RS256, 30 days, data.slot_request_id', () => {
    const now = Date.now();
    const { token, expires, id } = links.slotRequest(42, now, 'event-1');
    expect(jwt.decode(token, { complete: true })!.header.alg).toBe('RS256');
    const payload = jwt.verify(token, keys.publicKeyPem, { algorithms: ['RS256'] }) as jwt.JwtPayload;
    expect(payload.data).toEqual({ slot_request_id: 42 });
    expect(payload.aud).toBe(LinkAudience.etaForm);
    expect(payload.jti).toBe('event-1');
    expect(id).toBe('event-1');
    // Without an id given, each link gets its own.
    const [a, b] = [links.slotRequest(42, now), links.slotRequest(42, now)];
    expect(a.id).not.toBe(b.id);
    expect((jwt.decode(a.token) as jwt.JwtPayload).jti).toBe(a.id);
    expect(payload.exp! - payload.iat!).toBe(SLOT_REQUEST_LINK_SECONDS);
    expect(payload.nbf).toBe(payload.iat);
    expect(expires).toBe(payload.exp! * 1000);
    // Another key pair's public key does not verify it.
    expect(() => jwt.verify(token, pair().publicKeyPem, { algorithms: ['RS256'] })).toThrow();
  });

  it('RTA form: 6 hours, its claims', () => {
    const claims = {
      port: 'Gävle',
      rta: '2024-06-11T12:00:00+00:00',
      eta_min: '2024-06-11T11:30:00+00:00',
      eta_max: '2024-06-11T12:30:00+00:00',
      email: 'master@ship.example',
      imo: 9074729,
      vessel_name: 'Ship One',
      vessel_loa: 120,
      vessel_beam: 20,
      vessel_draft: 7.5,
      berth: 'B1',
    };
    const { token } = links.rtaForm(claims);
    const payload = jwt.verify(token, keys.publicKeyPem, { algorithms: ['RS256'] }) as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(RTA_FORM_LINK_SECONDS);
    expect(payload.data).toEqual(claims);
    expect(payload.aud).toBe(LinkAudience.rtaForm);
    // A JIT ETA form link is not an RTA form link to a verifier that asks for the kind.
    const eta = links.slotRequest(1).token;
    expect(() => jwt.verify(eta, keys.publicKeyPem, { algorithms: ['RS256'], audience: LinkAudience.rtaForm })).toThrow(
      /audience/,
    );
  });
});
