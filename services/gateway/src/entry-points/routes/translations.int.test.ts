// Translations over HTTP, on real PostgreSQL: the public read with the S-211 defaults, the API key's missing
// keys, the admin's update and full upload, and bad input.

import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeSnapshot, startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

let gw: TestGateway;
let admin: ApiClient;
let secondAdmin: ApiClient;
let apiKey: ApiClient;
let apiKeyId: number;

const ANCHORAGE = 'Actual Arrival Vessel AnchorageArea';

beforeAll(async () => {
  gw = await startTestGateway('gw_translations');
  admin = await gw.as(gw.adminId);
  secondAdmin = await gw.as(await gw.createUser('second_admin'));
  const key = await gw.createApiKey('translations agent');
  apiKeyId = key.id;
  apiKey = gw.anonymous.withApiKey(key.key);
});

afterAll(async () => {
  await gw?.stop();
});

describe('GET /translations/:ns/:lng (public)', () => {
  it('serves the S-211 timestamp names as English defaults in every namespace', async () => {
    for (const ns of ['common', 'gavle', 'rauma']) {
      const res = await gw.anonymous.get(`/translations/${ns}/en`);
      expect(res.status).toBe(200);
      expect(res.body['Estimated Arrival Vessel PortArea']).toBe('Estimated Arrival Vessel Port Area');
      expect(res.body[ANCHORAGE]).toBe('Actual Arrival Vessel Anchoring Area');
    }
  });

  it('answers {} for a language without texts', async () => {
    expect(await gw.anonymous.get('/translations/common/fi')).toMatchObject({ status: 200, body: {} });
  });
});

describe('POST /translation/:ns/:lng (API key: missing keys)', () => {
  it('adds keys that have no text, records who added them, and leaves defaults alone', async () => {
    const res = await apiKey.post('/translation/common/en', {
      missing: { 'Send notification': 'Send notification', [ANCHORAGE]: ANCHORAGE },
    });
    expect(res).toMatchObject({ status: 200, body: null });
    const texts = (await gw.anonymous.get('/translations/common/en')).body;
    expect(texts['Send notification']).toBe('Send notification');
    expect(texts[ANCHORAGE]).toBe('Actual Arrival Vessel Anchoring Area');
    const events = await gw.store.readStream('translations-common-en');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'TranslationsAdded',
      data: {
        namespace: 'common',
        language: 'en',
        translations: [{ key: 'Send notification', value: 'Send notification' }],
      },
      metadata: { api_key_id: apiKeyId },
    });
    // Posting them again adds nothing and records nothing.
    await apiKey.post('/translation/common/en', { missing: { 'Send notification': 'other' } });
    expect(await gw.store.readStream('translations-common-en')).toHaveLength(1);
    expect((await gw.anonymous.get('/translations/common/en')).body['Send notification']).toBe('Send notification');
  });

  it('is for API keys only', async () => {
    expect(await admin.post('/translation/common/en', { missing: { A: 'A' } })).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect(await gw.anonymous.post('/translation/common/en', { missing: { A: 'A' } })).toMatchObject({ status: 403 });
  });
});

describe('PUT and POST /translations/:ns/:lng (manage_translation)', () => {
  it('a port stores a short name, which wins over the S-211 default in its namespace only', async () => {
    const res = await admin.put('/translations/gavle/en', { updated: [{ key: ANCHORAGE, value: 'ATA Anchorage' }] });
    expect(res).toMatchObject({ status: 200, body: null });
    expect((await gw.anonymous.get('/translations/gavle/en')).body[ANCHORAGE]).toBe('ATA Anchorage');
    expect((await gw.anonymous.get('/translations/rauma/en')).body[ANCHORAGE]).toBe(
      'Actual Arrival Vessel Anchoring Area',
    );
    const events = await gw.store.readStream('translations-gavle-en');
    expect(events.at(-1)).toMatchObject({
      type: 'TranslationsUpdated',
      data: { translations: [{ key: ANCHORAGE, value: 'ATA Anchorage' }] },
      metadata: { user_id: gw.adminId },
    });
  });

  it('an unknown key refuses the whole update (the original crashed)', async () => {
    const before = await changeSnapshot(gw.db);
    const res = await admin.put('/translations/gavle/en', {
      updated: [
        { key: ANCHORAGE, value: 'Anchored' },
        { key: 'No such text', value: 'x' },
      ],
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'Unknown translation key: No such text' } });
    expect(await changeSnapshot(gw.db)).toBe(before);
    expect((await gw.anonymous.get('/translations/gavle/en')).body[ANCHORAGE]).toBe('ATA Anchorage');
  });

  it('a full upload replaces the stored texts; defaults show again where nothing is stored', async () => {
    const res = await admin.post('/translations/gavle/en', {
      translations: [
        { key: 'Logout', value: 'Log out' },
        { key: 'Actual Arrival Vessel Berth', value: 'ATA Berth' },
      ],
    });
    expect(res).toMatchObject({ status: 200, body: null });
    const texts = (await gw.anonymous.get('/translations/gavle/en')).body;
    expect(texts.Logout).toBe('Log out');
    expect(texts['Actual Arrival Vessel Berth']).toBe('ATA Berth');
    expect(texts[ANCHORAGE]).toBe('Actual Arrival Vessel Anchoring Area');
    const stored = await gw.db.query('SELECT key FROM gateway.translations WHERE namespace = $1 ORDER BY key', [
      'gavle',
    ]);
    expect(stored.rows.map((r) => r.key)).toEqual(['Actual Arrival Vessel Berth', 'Logout']);
    expect((await gw.store.readStream('translations-gavle-en')).at(-1)?.type).toBe('TranslationsReplaced');
  });

  it('second_admin cannot manage translations (spec, Authentication 5)', async () => {
    expect(await secondAdmin.put('/translations/gavle/en', { updated: [] })).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect(await secondAdmin.post('/translations/gavle/en', { translations: [] })).toMatchObject({ status: 403 });
    expect(await apiKey.post('/translations/gavle/en', { translations: [] })).toMatchObject({ status: 403 });
  });
});

describe('bad input changes nothing', () => {
  const cases: [string, string, () => ApiClient, unknown, string][] = [
    ['PUT', '/translations/gavle/en', () => admin, {}, 'Missing parameter: updated'],
    [
      'PUT',
      '/translations/gavle/en',
      () => admin,
      { updated: 'x' },
      "Wrong parameter type: updated should be array but got 'x'",
    ],
    [
      'PUT',
      '/translations/gavle/en',
      () => admin,
      { updated: [5] },
      'Invalid updated: each item must be an object with key and value',
    ],
    [
      'PUT',
      '/translations/gavle/en',
      () => admin,
      { updated: [{ key: 'Logout', value: 1 }] },
      'Invalid translation value for key: Logout',
    ],
    [
      'PUT',
      '/translations/gavle/en',
      () => admin,
      { updated: [{ key: 'Logout' }] },
      'Invalid translation value for key: Logout',
    ],
    ['PUT', '/translations/gav-le/en', () => admin, { updated: [] }, 'Invalid namespace: gav-le'],
    ['PUT', '/translations/gavle/e%20n', () => admin, { updated: [] }, 'Invalid language: e n'],
    ['POST', '/translations/gavle/en', () => admin, {}, 'Missing parameter: translations'],
    [
      'POST',
      '/translations/gavle/en',
      () => admin,
      { translations: 7 },
      "Wrong parameter type: translations should be array but got '7'",
    ],
    [
      'POST',
      '/translations/gavle/en',
      () => admin,
      { translations: [{ key: '', value: 'x' }] },
      'Invalid translation key in translations: (empty)',
    ],
    [
      'POST',
      '/translations/gavle/en',
      () => admin,
      { translations: [{ key: 'k', value: 'v'.repeat(10_001) }] },
      'Invalid translation value for key: k',
    ],
    [
      'POST',
      '/translations/gavle/en',
      () => admin,
      { ns: ['x'], translations: [] },
      'Wrong parameter type: ns should be string but got \'["x"]\'',
    ],
    ['POST', `/translations/${'n'.repeat(101)}/en`, () => admin, { translations: [] }, 'Parameter too long: ns'],
    [
      'POST',
      '/translation/common/en',
      () => apiKey,
      { missing: 'Hello' },
      "Wrong parameter type: missing should be array but got 'Hello'",
    ],
    [
      'POST',
      '/translation/common/en',
      () => apiKey,
      { missing: { Hello: { nested: true } } },
      'Invalid translation value for key: Hello',
    ],
    [
      'POST',
      '/translation/common/en',
      () => apiKey,
      { missing: [{ value: 'no key' }] },
      'Invalid translation key in missing: undefined',
    ],
    ['POST', '/translation/com.mon/en', () => apiKey, { missing: {} }, 'Invalid namespace: com.mon'],
  ];

  it.each(cases)('%s %s, case %#', async (method, path, client, body, error) => {
    const before = await changeSnapshot(gw.db);
    const res = await client().call(method, path, body as Record<string, unknown>);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(await changeSnapshot(gw.db)).toBe(before);
  });

  it('GET with a bad namespace or language answers 400', async () => {
    expect(await gw.anonymous.get('/translations/a-b/en')).toMatchObject({
      status: 400,
      body: { error: 'Invalid namespace: a-b' },
    });
    expect(await gw.anonymous.get(`/translations/common/${'e'.repeat(40)}`)).toMatchObject({ status: 400 });
  });
});
