// The form links checked at the gateway: the queue-scheduler's public key (configured or read from its table), the
// original's claims; altered, foreign-key, unsigned, expired and wrong-kind tokens refused in words.

import { generateKeyPairSync } from 'node:crypto';
import type { Queryable } from '@pcas/sql';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { etaFormLinks } from './eta-form-links.ts';

const pair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const queue = pair();

/** The queue-scheduler's table, as the gateway reads it. */
const db = (pem: string | undefined): Queryable =>
  ({
    query: async (sql: string) =>
      sql.includes('to_regclass') ? { rows: [{ ok: true }] } : { rows: pem ? [{ pem }] : [] },
  }) as unknown as Queryable;

const sign = (data: object, seconds = 3600, key = queue.privateKey) => {
  const iat = Math.floor(Date.now() / 1000);
  return jwt.sign({ iat, nbf: iat, exp: iat + seconds, data }, key, { algorithm: 'RS256' });
};

const links = etaFormLinks(db(queue.publicKey), { privateKeyPem: undefined, publicKeyPem: undefined });

describe('eta-form links', () => {
  it('names the slot request and when the link expires', async () => {
    const token = sign({ slot_request_id: 42 });
    const link = await links.slotRequest(token);
    expect(link.slot_request_id).toBe(42);
    expect(Date.parse(link.expires) - Date.now()).toBeGreaterThan(3500_000);
  });

  it('gives the RTA form its claims', async () => {
    const claims = { port: 'Gävle', rta: '2024-06-11T12:00:00+00:00', imo: 9074729, berth: 'B1' };
    expect(await links.rtaForm(sign(claims))).toMatchObject(claims);
  });

  it('refuses expired, altered, foreign, unsigned and wrong-kind tokens', async () => {
    const expired = sign({ slot_request_id: 1 }, -60);
    await expect(links.slotRequest(expired)).rejects.toMatchObject({ status: 403, message: 'This link has expired' });
    const refused = { status: 403, message: 'This link is not valid' };
    await expect(links.slotRequest(sign({ slot_request_id: 1 }, 3600, pair().privateKey))).rejects.toMatchObject(
      refused,
    );
    const [h, , s] = sign({ slot_request_id: 1 }).split('.');
    const body = Buffer.from(JSON.stringify({ data: { slot_request_id: 2 }, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    await expect(links.slotRequest(`${h}.${body}.${s}`)).rejects.toMatchObject(refused);
    const none = jwt.sign({ data: { slot_request_id: 1 } }, '', { algorithm: 'none' });
    await expect(links.slotRequest(none)).rejects.toMatchObject(refused);
    await expect(links.slotRequest(sign({ rta: 'x', imo: 1 }))).rejects.toMatchObject(refused);
    await expect(links.rtaForm(sign({ slot_request_id: 1 }))).rejects.toMatchObject(refused);
    await expect(links.slotRequest('')).rejects.toMatchObject(refused);
  });

  it('uses the configured key pair when there is one, and says so when no key exists yet', async () => {
    const configured = pair();
    const withConfig = etaFormLinks(db(undefined), {
      privateKeyPem: configured.privateKey,
      publicKeyPem: configured.publicKey,
    });
    expect(
      (await withConfig.slotRequest(sign({ slot_request_id: 3 }, 3600, configured.privateKey))).slot_request_id,
    ).toBe(3);
    const early = etaFormLinks(db(undefined), { privateKeyPem: undefined, publicKeyPem: undefined });
    await expect(early.slotRequest(sign({ slot_request_id: 3 }))).rejects.toMatchObject({ status: 503 });
  });
});
