// Bad input on the timestamp routes against the fleet, through the real ingest: U+0000 anywhere in a post (a
// field, the payload's values and keys, and a payload sent as JSON text, which only ingest looks into) answers 400
// naming the parameter and appends nothing; hostile values and wrong types never answer 5xx. The gateway's own
// run over every route is services/gateway/src/entry-points/malformed-input.int.test.ts.

import { openDb } from '@pcas/sql';
import { type ApiAnswer, type ApiClient, type RunningSystem, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAndDataSource, allowEstimatedArrivals, timestamp } from './timestamps.ts';

const NUL = '\u0000';

let system: RunningSystem;
let db: Awaited<ReturnType<typeof openDb>>;
let source: ApiClient;
let admin: ApiClient;

const eventCount = async () =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM eventstore.events')).rows[0].n;

/** The post is answered 400 with `error` and appends nothing. */
async function refusedAppendingNothing(post: () => Promise<ApiAnswer>, error: string): Promise<void> {
  const before = await eventCount();
  const res = await post();
  expect([res.status, res.body]).toEqual([400, { error }]);
  expect(await eventCount()).toBe(before);
}

beforeAll(async () => {
  system = await startFleet();
  db = await openDb({ url: system.env.DATABASE_URL, poolSize: 1 });
  const setup = await adminAndDataSource(system.baseUrl);
  admin = setup.admin;
  source = setup.api.withApiKey(setup.apiKey.key);
  await allowEstimatedArrivals(admin, setup.apiKey.id);
});

afterAll(async () => {
  await db?.close();
  await system?.stop();
});

describe('U+0000 in a timestamp', () => {
  it.each([
    ['vessel_name', { vessel_name: `Test${NUL}Vessel` }],
    ['payload', { payload: { source: 'e2e', note: `a${NUL}b` } }],
    ['payload', { payload: { source: 'e2e', [`key${NUL}`]: 1 } }],
    ['payload', { payload: { list: [{ deep: [NUL] }] } }],
    ['payload', { payload: '{"source":"vis","note":"a\\u0000b"}' }],
    ['payload', { payload: '{"source":"vis","key\\u0000":1}' }],
    ['payload', { payload: '{"list":[{"deep":["\\u0000"]}]}' }],
  ])('from a data source, in %s: 400, nothing appended', async (param, overrides) => {
    await refusedAppendingNothing(
      () => source.post('/agent/rest/timestamps', timestamp(overrides)),
      `${param} contains a NUL character`,
    );
  });

  it('from a person, in a payload sent as JSON text: 400, nothing appended', async () => {
    await refusedAppendingNothing(
      () => admin.post('/timestamps', timestamp({ payload: '{"source":"ui","note":"\\u0000"}' })),
      'payload contains a NUL character',
    );
  });

  it('a lone surrogate or deep nesting inside a payload sent as JSON text: 400, nothing appended', async () => {
    await refusedAppendingNothing(
      () => source.post('/agent/rest/timestamps', timestamp({ payload: '{"note":"\\ud800"}' })),
      'payload contains an invalid character',
    );
    await refusedAppendingNothing(
      () =>
        source.post(
          '/agent/rest/timestamps',
          timestamp({ payload: `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}` }),
        ),
      'payload is nested too deeply',
    );
  });

  it('the same post without it is appended (the count above can move)', async () => {
    const before = await eventCount();
    const res = await source.post('/agent/rest/timestamps', timestamp({ payload: '{"source":"vis","note":"ab"}' }));
    expect(res).toMatchObject({ status: 200, body: { result: 'OK' } });
    expect(await eventCount()).toBeGreaterThan(before);
  });
});

describe('hostile values on the timestamp routes, through the real ingest', () => {
  const HOSTILE: unknown[] = [
    "'; DROP TABLE eventstore.events; --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '\uffff',
    '\ud800',
    'x'.repeat(200_000),
    '',
    '🚢',
    -1,
    1.5,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    '99999999999999999999',
    true,
    null,
    {},
    [],
    { a: { b: [1, 'x'] } },
    JSON.parse('{"__proto__":{"polluted":true}}'),
    '{"__proto__":{"polluted":true}}',
    '[[[[[[[[[[]]]]]]]]]]',
  ];
  const FIELDS = ['imo', 'vessel_name', 'time_type', 'state', 'time', 'payload'];

  it('answer no 5xx and refuse only with JSON {"error"}', async () => {
    const failures: string[] = [];
    for (const [client, path] of [
      [source, '/agent/rest/timestamps'],
      [admin, '/timestamps'],
    ] as const) {
      for (const field of FIELDS) {
        for (const value of HOSTILE) {
          const res = await client.post(path, timestamp({ imo: 9074729, [field]: value }));
          const where = `${path} ${field}=${JSON.stringify(value).slice(0, 40)} → ${res.status} ${JSON.stringify(res.body)}`;
          if (res.status >= 500) failures.push(where);
          else if (res.status !== 200 && typeof res.body?.error !== 'string') failures.push(`${where} (no "error")`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
