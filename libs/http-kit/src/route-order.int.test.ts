// Which route answers a path: literal paths are looked up directly (app.ts, directRoutes), and that must give the
// same route express's walk would: the first listed that matches, whatever the spelling of the path.

import { describe, expect, it } from 'vitest';
import { appForTests, rawRequest } from './test-client.ts';
import type { Route } from './types.ts';

const answer =
  (name: string): Route['handle'] =>
  async ({ params }) => ({ route: name, params });

const routes: Route[] = [
  // A parameterised path listed first takes the literal one after it.
  {
    method: 'GET',
    path: '/things/:id',
    permission: 'public',
    params: { id: { type: 'string' } },
    handle: answer('thing'),
  },
  { method: 'GET', path: '/things/me', permission: 'public', params: {}, handle: answer('my thing') },
  // A literal path listed first wins over the parameterised one after it.
  { method: 'GET', path: '/stuff/me', permission: 'public', params: {}, handle: answer('my stuff') },
  { method: 'POST', path: '/stuff/me', permission: 'public', params: { x: { type: 'int' } }, handle: answer('post') },
  {
    method: 'GET',
    path: '/stuff/:id',
    permission: 'public',
    params: { id: { type: 'string' } },
    handle: answer('stuff'),
  },
  // The same method and path twice: the first.
  { method: 'GET', path: '/twice', permission: 'public', params: {}, handle: answer('first') },
  { method: 'GET', path: '/twice', permission: 'public', params: {}, handle: answer('second') },
];

const app = appForTests({ routes });

const routeOf = async (method: string, path: string, body?: string) => {
  const res = await rawRequest(
    app.server,
    method,
    path,
    body ? { body, headers: { 'content-type': 'application/json' } } : {},
  );
  return res.status === 200 ? res.json().route : `${res.status} ${res.text}`;
};

describe('the route a path reaches', () => {
  it('is the first listed that matches', async () => {
    expect(await routeOf('GET', '/things/me')).toBe('thing');
    expect(await routeOf('GET', '/things/7')).toBe('thing');
    expect(await routeOf('GET', '/stuff/me')).toBe('my stuff');
    expect(await routeOf('GET', '/stuff/7')).toBe('stuff');
    expect(await routeOf('GET', '/twice')).toBe('first');
  });

  it('is the same whatever the spelling: case, a trailing slash, the API prefix, a query string', async () => {
    for (const path of ['/Stuff/ME', '/stuff/me/', '/api/v1/stuff/me', '/stuff/me?a=1']) {
      expect(await routeOf('GET', path), path).toBe('my stuff');
    }
    expect((await rawRequest(app.server, 'HEAD', '/stuff/me')).status).toBe(200);
  });

  it('reads the JSON body of a literal path, and refuses a broken one', async () => {
    const res = await rawRequest(app.server, 'POST', '/stuff/me', {
      body: '{"x": "5"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.json()).toEqual({ route: 'post', params: { x: 5 } });
    expect(await routeOf('POST', '/stuff/me', '{"x":')).toBe('400 {"error":"Invalid JSON body"}');
    expect(await routeOf('PUT', '/stuff/me', '{}')).toBe('405 {"error":"Method not allowed"}');
  });
});
