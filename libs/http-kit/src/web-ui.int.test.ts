// A web UI served beside the API on one origin: its files, the history fallback for browsers, pages before the
// fallback, the API under /api/v1 as at its root, and API clients unchanged on the same paths.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from './app.ts';
import { ANONYMOUS_AUTH, rawRequest, SILENT_LOGGER } from './test-client.ts';
import { HttpResponse, type Route } from './types.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CSP = "default-src 'self'";

const routes: Route[] = [
  { method: 'GET', path: '/port-calls', permission: 'public', params: {}, handle: async () => ({ data: [] }) },
  {
    method: 'POST',
    path: '/port-calls',
    permission: 'public',
    params: { name: { type: 'string' } },
    handle: async (ctx) => ({ posted: ctx.params.name }),
  },
  {
    method: 'GET',
    path: '/status',
    permission: 'public',
    params: {},
    accept: 'text/html',
    handle: async () => new HttpResponse(200, '<p>status</p>', { 'Content-Type': 'text/html; charset=utf-8' }),
  },
];

let dir: string;
let server: Server;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'web-ui-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *');
  await writeFile(path.join(dir, 'assets', 'big-5678.js'), `const x = ${JSON.stringify('ship '.repeat(2000))};`);
  const app = createHttpApp({
    routes,
    logger: SILENT_LOGGER,
    authenticate: async () => ANONYMOUS_AUTH,
    authorize: async () => {},
    webUi: { dir, contentSecurityPolicy: CSP },
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('the web UI beside the API', () => {
  it("gives a browser the app's index.html on any path that is not a file, API paths included", async () => {
    for (const at of ['/', '/port-calls', '/port-calls/12', '/no/such/view?x=1']) {
      const res = await rawRequest(server, 'GET', at, { headers: { Accept: BROWSER } });
      expect(res.status, at).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(CSP);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe('<!doctype html><div id="root"></div>');
    }
  });

  it('serves its files, hashed assets cached for good, and a missing asset is a 404', async () => {
    const asset = await rawRequest(server, 'GET', '/assets/app-1234.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.pragma).toBeUndefined();
    expect(asset.text).toBe('console.log(1)');
    const robots = await rawRequest(server, 'GET', '/robots.txt', { headers: { Accept: BROWSER } });
    expect(robots.text).toBe('User-agent: *');
    expect(robots.headers['cache-control']).toBe('no-cache');
    const missing = await rawRequest(server, 'GET', '/assets/gone.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(missing.json()).toEqual({ error: 'Not found' });
  });

  it('sends its files compressed to a client that takes gzip, and API answers as before', async () => {
    const big = await rawRequest(server, 'GET', '/assets/big-5678.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(big.headers['content-encoding']).toBe('gzip');
    const api = await rawRequest(server, 'GET', '/port-calls', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(api.headers['content-encoding']).toBeUndefined();
    expect(api.json()).toEqual({ data: [] });
  });

  it('answers API clients as before on the same paths', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const headers = accept ? { Accept: accept } : undefined;
      const list = await rawRequest(server, 'GET', '/port-calls', { headers });
      expect(list.status).toBe(200);
      expect(list.json()).toEqual({ data: [] });
      const root = await rawRequest(server, 'GET', '/', { headers });
      expect(root.status).toBe(404);
      expect(root.json()).toEqual({ error: 'Not found' });
    }
    // A browser's POST is an API call whatever it accepts.
    const posted = await rawRequest(server, 'POST', '/port-calls', {
      headers: { Accept: BROWSER, 'Content-Type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(posted.json()).toEqual({ posted: 'x' });
  });

  it('serves the API again under /api/v1, never the app there', async () => {
    for (const accept of [BROWSER, 'application/json']) {
      const list = await rawRequest(server, 'GET', '/api/v1/port-calls', { headers: { Accept: accept } });
      expect(list.status).toBe(200);
      expect(list.json()).toEqual({ data: [] });
      const unknown = await rawRequest(server, 'GET', '/api/v1/nothing', { headers: { Accept: accept } });
      expect(unknown.status).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Not found' });
      const file = await rawRequest(server, 'GET', '/api/v1/assets/app-1234.js', { headers: { Accept: accept } });
      expect(file.status).toBe(404);
    }
    const posted = await rawRequest(server, 'POST', '/api/v1/port-calls', {
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"y"}',
    });
    expect(posted.json()).toEqual({ posted: 'y' });
    const query = await rawRequest(server, 'GET', '/api/v1?x=1');
    expect(query.status).toBe(404);
    // Only the exact prefix: /api/v10 is not it.
    const other = await rawRequest(server, 'GET', '/api/v10/port-calls', { headers: { Accept: 'application/json' } });
    expect(other.status).toBe(404);
  });

  it('lets a page route answer its path before the fallback', async () => {
    const res = await rawRequest(server, 'GET', '/status', { headers: { Accept: BROWSER } });
    expect(res.text).toBe('<p>status</p>');
    const api = await rawRequest(server, 'GET', '/status', { headers: { Accept: 'application/json' } });
    expect(api.status).toBe(404);
  });

  it('refuses to start with a folder that has no index.html', async () => {
    expect(() =>
      createHttpApp({
        routes,
        logger: SILENT_LOGGER,
        authenticate: async () => ANONYMOUS_AUTH,
        authorize: async () => {},
        webUi: { dir: path.join(dir, 'assets') },
      }),
    ).toThrow(/has no index.html/);
  });
});
