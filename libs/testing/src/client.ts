// A small HTTP client for black-box tests and benchmarks: JSON in, {status, body} out. It speaks node:http over
// keep-alive connections rather than fetch: fetch costs about three times the CPU per request, and a benchmark's
// client shares the machine with the services it measures.

import http from 'node:http';
import https from 'node:https';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

// One pool of kept-alive connections per protocol for every client of the process.
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
} as const;

interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

function headersOf(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined): Promise<RawAnswer> {
  const client = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as keyof typeof agents];
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: headersOf(res.headers),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection that the server closed while it was idle fails before the request reaches the
      // server, so the request is sent again once, on a fresh connection.
      if (req.reusedSocket && error.code === 'ECONNRESET') {
        send(url, method, { ...headers, Connection: 'close' }, body).then(resolve, reject);
      } else reject(error);
    });
    req.end(body);
  });
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private authorization?: string,
  ) {}

  withSession(sessionId: string): ApiClient {
    return new ApiClient(this.baseUrl, `Bearer ${sessionId}`);
  }

  withApiKey(key: string): ApiClient {
    return new ApiClient(this.baseUrl, `ApiKey ${key}`);
  }

  anonymous(): ApiClient {
    return new ApiClient(this.baseUrl);
  }

  async call<T = any>(method: string, path: string, params?: Record<string, unknown>): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.authorization) headers.Authorization = this.authorization;
    let url = `${this.baseUrl}${path}`;
    let body: string | undefined;
    if (method === 'GET' && params) {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, String(v));
      url += `?${query}`;
    } else if (params !== undefined) {
      body = JSON.stringify(params);
      headers['Content-Type'] = 'application/json;charset=utf-8';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const res = await send(new URL(url), method, headers, body);
    let parsed: unknown = res.text;
    try {
      parsed = res.text === '' ? undefined : JSON.parse(res.text);
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string, params?: Record<string, unknown>) {
    return this.call<T>('GET', path, params);
  }
  post<T = any>(path: string, params?: Record<string, unknown>) {
    return this.call<T>('POST', path, params ?? {});
  }
  put<T = any>(path: string, params?: Record<string, unknown>) {
    return this.call<T>('PUT', path, params ?? {});
  }
  delete<T = any>(path: string, params?: Record<string, unknown>) {
    return this.call<T>('DELETE', path, params ?? {});
  }

  /** Logs in and returns a client carrying the session. */
  async login(email: string, password: string): Promise<ApiClient> {
    const res = await this.anonymous().post('/login', { email, password });
    if (res.status !== 200 || !res.body?.session_id) {
      throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return this.withSession(res.body.session_id);
  }
}
