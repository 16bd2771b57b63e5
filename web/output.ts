// Where `pnpm --filter @pcas/web build` puts the web UI (the gateway serves it from there), and the
// Content-Security-Policy it is served with: its own scripts only, the API and the real-time channel on the same
// origin.

import { fileURLToPath } from 'node:url';

export const BUILT_WEB_UI_DIR = fileURLToPath(new URL('./dist', import.meta.url));

export const WEB_UI_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets some styles inline (CSS variables of a component).
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
