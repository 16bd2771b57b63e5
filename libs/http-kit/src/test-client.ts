// A raw HTTP client for the kit's tests: full control over method, headers and body (fetch would add a body
// or Content-Length where the original web UI sends none).

import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@pcas/observability';
import { afterAll, beforeAll } from 'vitest';
import { createHttpApp } from './app.ts';
import type { AuthContext, HttpAppOptions } from './types.ts';

/** A caller without credentials, for tests whose authenticate lets everyone in. */
export const ANONYMOUS_AUTH: AuthContext = {
  kind: 'anonymous',
  sessionId: null,
  userId: null,
  apiKeyId: null,
  role: null,
  permissions: new Set(),
};

/** A logger that writes nothing. */
export const SILENT_LOGGER = {
  child: () => SILENT_LOGGER,
  info() {},
  warn() {},
  error() {},
  debug() {},
} as unknown as Logger;

/**
 * The kit's app serving `options.routes` on a free local port: silent, and letting every caller in as anonymous
 * unless `options` say otherwise.
 */
async function serveApp(options: Partial<HttpAppOptions> & Pick<HttpAppOptions, 'routes'>): Promise<Server> {
  const server = createServer(
    createHttpApp({
      logger: SILENT_LOGGER,
      authenticate: async () => ANONYMOUS_AUTH,
      authorize: async () => {},
      ...options,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** serveApp for the tests of one file: started before them, closed after them. */
export function appForTests(options: Parameters<typeof serveApp>[0]): { server: Server } {
  const served = {} as { server: Server };
  beforeAll(async () => {
    served.server = await serveApp(options);
  });
  afterAll(() => closeServer(served.server));
  return served;
}

const closeServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): any;
}

export function rawRequest(
  server: Server,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const { port } = server.address() as AddressInfo;
  const headers: Record<string, string> = { ...options.headers };
  // Node frames a DELETE body only when told its length, as browsers and axios do.
  if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
