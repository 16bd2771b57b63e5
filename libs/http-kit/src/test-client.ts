// A raw HTTP client for the kit's tests: full control over method, headers and body (fetch would add a body
// or Content-Length where the original web UI sends none).

import type { Server } from 'node:http';
import { type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthContext } from './types.ts';

/** A caller without credentials, for tests whose authenticate lets everyone in. */
export const ANONYMOUS_AUTH: AuthContext = {
  kind: 'anonymous',
  sessionId: null,
  userId: null,
  apiKeyId: null,
  role: null,
  permissions: new Set(),
};

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
