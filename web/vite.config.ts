// Builds the web UI to static files (dist/) that the gateway serves at / (docs/web-ui.md). `pnpm --filter
// @pcas/web dev` serves it with hot reload against a service started by `pnpm start` on port 8000.

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.PCAS_API ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
  // The first view's size is watched by `pnpm bench:web` (gzipped), not by this warning on one raw chunk.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1000 },
  server: {
    proxy: {
      '/api/v1': api,
      '/socketcluster': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
});
