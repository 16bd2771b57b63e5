// The form links checked at the gateway: the queue-scheduler's public key (configured or read from its table), the
// original's claims and the link's kind (`aud`) and id (`jti`); altered, foreign-key, unsigned, expired and
// wrong-kind tokens refused in words; links from before links named their kind taken only if signed before then.

import { generateKeyPairSync } from 'node:crypto';
import { LinkAudience } from '@pcas/contracts';
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
const NOW_S = Math.floor(Date.now() / 1000);

/** The queue-scheduler's tables as the gateway reads them: the public key, and since when links name their kind. */
const db = (pem: string | undefined, typedSinceMs: number | null = (NOW_S - 600) * 1000): Queryable =>
  ({
    query: async (sql: string) => {
      if (sql.includes('queue.link_kinds'))
        return { rows: typedSinceMs === null ? [] : [{ since: String(typedSinceMs) }] };
      return { rows: pem ? [{ pem }] : [] };
    },
  }) as unknown as Queryable;

const sign = (
  data: object,
  seconds = 3600,
  key = queue.privateKey,
  claims: { aud?: string; jti?: string; iat?: number } = {},
) => {
  const iat = claims.iat ?? NOW_S;
  return jwt.sign({ iat, nbf: iat, exp: iat + seconds, ...claims, data }, key, { algorithm: 'RS256' });
};
const etaLink = (id: number, seconds = 3600, key = queue.privateKey, jti = `link-${id}`) =>
  sign({ slot_request_id: id }, seconds, key, { aud: LinkAudience.etaForm, jti });
const rtaLink = (claims: object) => sign(claims, 3600, queue.privateKey, { aud: LinkAudience.rtaForm });

const links = etaFormLinks(db(queue.publicKey), { privateKeyPem: undefined, publicKeyPem: undefined });
const refused = { status: 403, message: 'This link is not valid' };

describe('eta-form links', () => {
  it('names the slot request, the link’s id and when the link expires', async () => {
    const link = await links.slotRequest(etaLink(42));
    expect(link).toMatchObject({ slot_request_id: 42, link_id: 'link-42' });
    expect(Date.parse(link.expires) - Date.now()).toBeGreaterThan(3500_000);
  });

  it('gives the RTA form its claims', async () => {
    const claims = { port: 'Gävle', rta: '2024-06-11T12:00:00+00:00', imo: 9074729, berth: 'B1' };
    expect(await links.rtaForm(rtaLink(claims))).toMatchObject(claims);
  });

  it('refuses expired, altered, foreign, unsigned and wrong-kind tokens', async () => {
    await expect(links.slotRequest(etaLink(1, -60))).rejects.toMatchObject({
      status: 403,
      message: 'This link has expired',
    });
    await expect(links.slotRequest(etaLink(1, 3600, pair().privateKey))).rejects.toMatchObject(refused);
    const [h, , s] = etaLink(1).split('.');
    const body = Buffer.from(
      JSON.stringify({ aud: LinkAudience.etaForm, jti: 'x', data: { slot_request_id: 2 }, exp: 9_999_999_999 }),
    ).toString('base64url');
    await expect(links.slotRequest(`${h}.${body}.${s}`)).rejects.toMatchObject(refused);
    const none = jwt.sign({ aud: LinkAudience.etaForm, data: { slot_request_id: 1 } }, '', { algorithm: 'none' });
    await expect(links.slotRequest(none)).rejects.toMatchObject(refused);
    await expect(links.slotRequest('')).rejects.toMatchObject(refused);
  });

  it('takes a link only on the form of its kind, whatever its claims', async () => {
    // An RTA form link's kind on the JIT ETA form, even with a slot request's claims, and the other way round.
    const rtaKind = sign({ slot_request_id: 1 }, 3600, queue.privateKey, { aud: LinkAudience.rtaForm, jti: 'x' });
    await expect(links.slotRequest(rtaKind)).rejects.toMatchObject(refused);
    const etaKind = sign({ rta: 'x', imo: 1 }, 3600, queue.privateKey, { aud: LinkAudience.etaForm, jti: 'x' });
    await expect(links.rtaForm(etaKind)).rejects.toMatchObject(refused);
    // Another audience signed with the same key (a session-like token) is no link at all.
    await expect(
      links.slotRequest(sign({ slot_request_id: 1 }, 3600, queue.privateKey, { aud: 'other', jti: 'x' })),
    ).rejects.toMatchObject(refused);
    // A JIT ETA form link without its id is not one this queue signs.
    await expect(
      links.slotRequest(sign({ slot_request_id: 1 }, 3600, queue.privateKey, { aud: LinkAudience.etaForm })),
    ).rejects.toMatchObject(refused);
  });

  it('takes a link without a kind until it expires only if signed before links named their kind', async () => {
    const before = NOW_S - 3600;
    const old = sign({ slot_request_id: 5 }, 30 * 24 * 3600, queue.privateKey, { iat: before });
    expect(await links.slotRequest(old)).toMatchObject({ slot_request_id: 5, link_id: null });
    const oldRta = sign({ rta: '2024-06-11T12:00:00+00:00', imo: 9074729 }, 6 * 3600, queue.privateKey, {
      iat: before,
    });
    expect(await links.rtaForm(oldRta)).toMatchObject({ imo: 9074729 });
    // The kinds still apart by their claims.
    await expect(links.rtaForm(old)).rejects.toMatchObject(refused);
    await expect(links.slotRequest(oldRta)).rejects.toMatchObject(refused);
    // Signed after: refused, as is one with no signing time.
    await expect(links.slotRequest(sign({ slot_request_id: 5 }))).rejects.toMatchObject(refused);
    const noIat = jwt.sign({ exp: NOW_S + 3600, data: { slot_request_id: 5 } }, queue.privateKey, {
      algorithm: 'RS256',
      noTimestamp: true,
    });
    await expect(links.slotRequest(noIat)).rejects.toMatchObject(refused);
    // Before any queue-scheduler of this version started, every link is one of those.
    const earlier = etaFormLinks(db(queue.publicKey, null), { privateKeyPem: undefined, publicKeyPem: undefined });
    expect(await earlier.slotRequest(sign({ slot_request_id: 5 }))).toMatchObject({ link_id: null });
  });

  it('uses the configured key pair when there is one, and says so when no key exists yet', async () => {
    const configured = pair();
    const withConfig = etaFormLinks(db(undefined), {
      privateKeyPem: configured.privateKey,
      publicKeyPem: configured.publicKey,
    });
    expect((await withConfig.slotRequest(etaLink(3, 3600, configured.privateKey))).slot_request_id).toBe(3);
    const early = etaFormLinks(db(undefined), { privateKeyPem: undefined, publicKeyPem: undefined });
    await expect(early.slotRequest(etaLink(3))).rejects.toMatchObject({ status: 503 });
  });
});
