// Which web UI the gateway serves at /: our own build by default (with its Content-Security-Policy), or the one
// in WEB_UI_DIR (e.g. the original web UI, same-origin with the API and /socketcluster/); a WEB_UI_DIR without
// an index.html stops the start with a clear error.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

let dir: string;
let ours: TestGateway;
let theirs: TestGateway;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'original-web-'));
  await mkdir(path.join(dir, 'static'));
  await writeFile(path.join(dir, 'index.html'), '<html><body>original web UI</body></html>');
  await writeFile(path.join(dir, 'static', 'main.js'), 'void 0');
  [ours, theirs] = await Promise.all([
    startTestGateway('gw_webui_ours'),
    startTestGateway('gw_webui_theirs', { webUiDir: dir }),
  ]);
});

afterAll(async () => {
  await Promise.all([ours?.stop(), theirs?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

describe('the web UI at /', () => {
  it('is our own build by default, with its Content-Security-Policy', async () => {
    const res = await fetch(`${ours.baseUrl}/activity/anything`, { headers: { Accept: BROWSER } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' ws: wss:");
    expect(await res.text()).toContain('<div id="root"></div>');
  });

  it('is the build in WEB_UI_DIR when set, its files included, the API unchanged beside it', async () => {
    const page = await fetch(`${theirs.baseUrl}/admin/port-calls/5`, { headers: { Accept: BROWSER } });
    expect(await page.text()).toBe('<html><body>original web UI</body></html>');
    // Another project's build may need what our policy forbids (its tile server, say): none is imposed.
    expect(page.headers.get('content-security-policy')).toBeNull();
    expect(await (await fetch(`${theirs.baseUrl}/static/main.js`)).text()).toBe('void 0');
    const api = await fetch(`${theirs.baseUrl}/api/v1/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: theirs.config.adminEmail, password: theirs.config.adminPassword }),
    });
    expect(api.status).toBe(200);
    expect(typeof (await api.json()).session_id).toBe('string');
  });

  it('refuses to start with a WEB_UI_DIR that holds no index.html', async () => {
    await expect(startTestGateway('gw_webui_bad', { webUiDir: path.join(dir, 'static') })).rejects.toThrow(
      /WEB_UI_DIR .*static has no index.html/,
    );
  });
});
