// Signed links: the original's claims and lifetimes; a forged, altered or expired token is refused.

import { generateKeyPairSync } from 'node:crypto';
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
    const { token, expires } = links.slotRequest(42, now);
    const decoded = jwt.decode(token, { complete: true })!;
    expect(decoded.header.alg).toBe('RS256');
    const payload = decoded.payload as jwt.JwtPayload;
    expect(payload.data).toEqual({ slot_request_id: 42 });
    expect(payload.exp! - payload.iat!).toBe(SLOT_REQUEST_LINK_SECONDS);
    expect(payload.nbf).toBe(payload.iat);
    expect(expires).toBe(payload.exp! * 1000);
    expect(links.checkSlotRequest(token)).toEqual({ ok: true, data: { slot_request_id: 42 }, expires });
  });

  it('RTA form: 6 hours, its claims; not taken as a slot request link', () => {
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
    const payload = jwt.decode(token) as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(RTA_FORM_LINK_SECONDS);
    expect(links.checkRtaForm(token)).toMatchObject({ ok: true, data: claims });
    expect(links.checkSlotRequest(token)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses expired, forged and altered tokens', () => {
    const old = links.slotRequest(1, Date.now() - (SLOT_REQUEST_LINK_SECONDS + 60) * 1000);
    expect(links.checkSlotRequest(old.token)).toEqual({ ok: false, reason: 'expired' });
    const forged = signedLinks(pair()).slotRequest(1).token;
    expect(links.checkSlotRequest(forged)).toEqual({ ok: false, reason: 'invalid' });
    const [h, , s] = links.slotRequest(1).token.split('.');
    const body = Buffer.from(JSON.stringify({ data: { slot_request_id: 2 }, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect(links.checkSlotRequest(`${h}.${body}.${s}`)).toEqual({ ok: false, reason: 'invalid' });
    const none = jwt.sign({ data: { slot_request_id: 1 } }, '', { algorithm: 'none' });
    expect(links.checkSlotRequest(none)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.checkSlotRequest('')).toEqual({ ok: false, reason: 'invalid' });
  });
});
