// A route that answers another media type than JSON (`accept`): only clients that prefer it get it; every other
// request is answered as if the route did not exist.

import { describe, expect, it } from 'vitest';
import { appForTests, rawRequest } from './test-client.ts';
import { HttpResponse, type Route } from './types.ts';

const page = (text: string) => async () =>
  new HttpResponse(200, `<p>${text}</p>`, { 'Content-Type': 'text/html; charset=utf-8' });

const routes: Route[] = [
  { method: 'GET', path: '/', permission: 'public', params: {}, accept: 'text/html', handle: page('home') },
  { method: 'GET', path: '/both', permission: 'public', params: {}, accept: 'text/html', handle: page('both') },
  { method: 'GET', path: '/both', permission: 'public', params: {}, handle: async () => ({ json: true }) },
];

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const app = appForTests({ routes });

describe('a route with accept', () => {
  it('answers a client that prefers its media type', async () => {
    for (const accept of [BROWSER, 'text/html', 'application/json;q=0.5, text/html']) {
      const res = await rawRequest(app.server, 'GET', '/', { headers: { Accept: accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toBe('<p>home</p>');
    }
  });

  it('leaves every other client the 404 of an unknown path', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0.5, application/json', 'text/plain']) {
      const res = await rawRequest(app.server, 'GET', '/', { headers: accept === undefined ? {} : { Accept: accept } });
      expect(res.status, String(accept)).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found' });
    }
  });

  it('does not claim its path for other methods: they get 404, not 405', async () => {
    const res = await rawRequest(app.server, 'POST', '/', { headers: { Accept: BROWSER } });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
  });

  it('lets a JSON route of the same path answer the other clients', async () => {
    const html = await rawRequest(app.server, 'GET', '/both', { headers: { Accept: BROWSER } });
    expect(html.text).toBe('<p>both</p>');
    const json = await rawRequest(app.server, 'GET', '/both', { headers: { Accept: 'application/json' } });
    expect(json.status).toBe(200);
    expect(json.json()).toEqual({ json: true });
  });
});
