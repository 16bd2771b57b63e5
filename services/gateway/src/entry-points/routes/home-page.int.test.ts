// GET /status over HTTP: a page for a browser (service, version, health, projection lag, the API's description, the
// first administrator's login in embedded mode), and the original's 404 {"error"} for API clients.

import { ensureMessagingSchema } from '@pcas/messaging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import gatewayPackage from '../../../package.json' with { type: 'json' };
import { EMBEDDED_ADMIN_PASSWORD } from '../about.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let gw: TestGateway;

const get = (accept?: string, path = '/status') =>
  fetch(`${gw.baseUrl}${path}`, { headers: accept ? { Accept: accept } : {} });

beforeAll(async () => {
  // As `pnpm start` with nothing set: the first administrator has the embedded mode's default password.
  gw = await startTestGateway('gw_home', { adminPassword: EMBEDDED_ADMIN_PASSWORD });
  // A projection that has recorded its progress, as the port-call projector does.
  await ensureMessagingSchema(gw.db);
  await gw.db.query(
    `INSERT INTO messaging.consumer_progress (consumer, last_global_position, categories, routing_pattern)
     VALUES ('portcall-projector', 0, '{vessel}', '.*')`,
  );
});

afterAll(async () => {
  await gw?.stop();
});

describe('GET / in a browser', () => {
  it('is a page with the service, its version, the health of each dependency and the projection lag', async () => {
    const res = await get(BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<title>Port Call Activity Service</title>');
    expect(page).toContain(`Version ${gatewayPackage.version}`);
    expect(page).toMatch(/<th>Database \(PGlite, in this process\)<\/th><td class="ok">ok<\/td>/);
    expect(page).toMatch(/<th>Message broker \(RabbitMQ\)<\/th><td class="unused">not used<\/td>/);
    // The harness keeps sessions in Redis when it can (the embedded launcher in the database: "not used").
    expect(page).toMatch(/<th>Sessions \(Redis\)<\/th><td class="(ok|unused)">(ok|not used)<\/td>/);
    expect(page).toMatch(/<th>portcall-projector<\/th><td>(up to date|[\d.]+ s behind)<\/td>/);
    expect(page).toContain('<a href="/api/v1/openapi.json">');
    // The web UI (built by `pnpm install`) is at /, and this page leads to it.
    expect(await (await get(BROWSER, '/')).text()).toContain('<div id="root"></div>');
    expect(page).toContain('<a href="/">Open the web UI</a>');
  });

  it('tells how to log in in embedded mode, that the password is the default (never which) only while it is', async () => {
    const before = await (await get(BROWSER)).text();
    expect(before).toContain(`Log in as <strong>${gw.config.adminEmail}</strong>`);
    expect(before).toContain('still the default one printed at start-up: change it on <a href="/profile">');
    expect(before).not.toContain(EMBEDDED_ADMIN_PASSWORD);

    const chosen = `Chosen-${Date.now()}-pw!`;
    const admin = await gw.as(gw.adminId);
    const changed = await admin.post('/change-password', { email: gw.config.adminEmail, password: chosen });
    expect(changed.status).toBe(200);
    const after = await (await get(BROWSER)).text();
    expect(after).toContain(`Log in as <strong>${gw.config.adminEmail}</strong>`);
    expect(after).not.toContain(EMBEDDED_ADMIN_PASSWORD);
    expect(after).not.toContain(chosen);
  });

  it('has no login hint outside embedded mode', async () => {
    gw.config.mode = 'fleet';
    try {
      const page = await (await get(BROWSER)).text();
      expect(page).not.toContain('Log in as');
      expect(page).toContain('Database (PostgreSQL)');
    } finally {
      gw.config.mode = 'embedded';
    }
  });
});

describe('GET / for an API client', () => {
  it('keeps the original\'s 404 {"error": "Not found"}', async () => {
    for (const [accept, path] of ['application/json', '*/*', undefined].flatMap((a) => [
      [a, '/'],
      [a, '/status'],
    ])) {
      const res = await get(accept, path);
      expect(res.status, `${accept} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: 'Not found' });
    }
  });
});
