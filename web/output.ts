// Where `pnpm --filter @pcas/web build` puts the web UI (the gateway serves it from there), and the
// Content-Security-Policy it is served with: its own scripts only, the API and the real-time channel on the same
// origin, map tiles from the port's tile server.

import { fileURLToPath } from 'node:url';

export const BUILT_WEB_UI_DIR = fileURLToPath(new URL('./dist', import.meta.url));

/**
 * The policy, with the origin of the sea chart's tile server (MAP_TILE_SERVER) allowed for images when it is on
 * another host; a path on this origin (the original's `/tile`) needs nothing more.
 */
export function webUiContentSecurityPolicy(options: { mapTileServer?: string | null } = {}): string {
  const tiles = tileSource(options.mapTileServer);
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine sets some styles inline (CSS variables of a component).
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${tiles}` : ''}`,
    "connect-src 'self' ws: wss:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const WEB_UI_CONTENT_SECURITY_POLICY = webUiContentSecurityPolicy();

/**
 * The CSP source of a tile server URL: its origin (`https://tiles.example:8080`), its host for `//host/…`, and a
 * wildcard for Leaflet's subdomain placeholder (`https://{s}.tile.example` → `https://*.tile.example`).
 */
function tileSource(tileServer: string | null | undefined): string | null {
  const value = tileServer?.trim();
  if (!value || !/^(https?:)?\/\//i.test(value)) return null;
  const SUBDOMAIN = 'subdomain-placeholder';
  try {
    const url = new URL(value.replace('{s}', SUBDOMAIN), 'https://this-origin.invalid');
    const source = value.startsWith('//') ? url.host : url.origin;
    return source.replace(SUBDOMAIN, '*');
  } catch {
    return null;
  }
}
