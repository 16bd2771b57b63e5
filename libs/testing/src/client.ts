// A small HTTP client for black-box tests and benchmarks: JSON in, {status, body} out.

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
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
      headers['Content-Type'] = 'application/json;charset=utf-8';
      body = JSON.stringify(params);
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
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
