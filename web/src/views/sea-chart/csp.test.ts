import { describe, expect, it, vi } from 'vitest';
import { WEB_UI_CONTENT_SECURITY_POLICY, webUiContentSecurityPolicy } from '../../../output.ts';

// The policy is built in Node, where the gateway imports it; under jsdom the build's folder cannot be a file URL.
vi.mock('node:url', () => {
  const fileURLToPath = () => '/web/dist';
  return { default: { fileURLToPath }, fileURLToPath };
});

const imgSrc = (policy: string) => policy.split('; ').find((part) => part.startsWith('img-src'));

describe('the web UI Content-Security-Policy and the tile server', () => {
  it("allows images from the tile server's origin, and nothing else new", () => {
    const policy = webUiContentSecurityPolicy({ mapTileServer: 'https://tiles.port.example:8443/osm' });
    expect(imgSrc(policy)).toBe("img-src 'self' data: blob: https://tiles.port.example:8443");
    expect(policy.replace(' https://tiles.port.example:8443', '')).toBe(WEB_UI_CONTENT_SECURITY_POLICY);
  });

  it('needs nothing for a path on this origin or no tile server at all', () => {
    for (const mapTileServer of ['/tile', 'tile', '', '   ', null, undefined]) {
      expect(webUiContentSecurityPolicy({ mapTileServer })).toBe(WEB_UI_CONTENT_SECURITY_POLICY);
    }
    expect(imgSrc(WEB_UI_CONTENT_SECURITY_POLICY)).toBe("img-src 'self' data: blob:");
  });

  it('reads a tile template, a scheme-relative address and a subdomain placeholder', () => {
    expect(imgSrc(webUiContentSecurityPolicy({ mapTileServer: 'http://127.0.0.1:9911/{z}/{x}/{y}.png' }))).toBe(
      "img-src 'self' data: blob: http://127.0.0.1:9911",
    );
    expect(imgSrc(webUiContentSecurityPolicy({ mapTileServer: '//tiles.example/osm' }))).toBe(
      "img-src 'self' data: blob: tiles.example",
    );
    expect(imgSrc(webUiContentSecurityPolicy({ mapTileServer: 'https://{s}.tile.example' }))).toBe(
      "img-src 'self' data: blob: https://*.tile.example",
    );
    // Never a way to widen the policy: what is not an http(s) address adds nothing.
    expect(webUiContentSecurityPolicy({ mapTileServer: "javascript:alert(1); script-src 'unsafe-inline'" })).toBe(
      WEB_UI_CONTENT_SECURITY_POLICY,
    );
  });
});
