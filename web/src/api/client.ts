// The one way the web UI calls the API: every call goes to /api/v1 (the same routes as the root paths), with the
// session as a Bearer token and the browser's time zone (the original's ClientTimeZone header). Any answer that is
// not a success becomes an ApiError carrying the API's own words; a 440 also tells the session it has ended.

export const API_BASE = '/api/v1';

const SESSION_KEY = 'sessionId';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Params = Record<string, string | number | boolean | null | undefined | unknown[] | object>;

let onSessionExpired: () => void = () => {};

/** Set by the session provider: what happens when the API answers 440 (the session has ended). */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

export function storedSessionId(): string | null {
  return localStorage.getItem(SESSION_KEY);
}

export function storeSessionId(sessionId: string | null): void {
  if (sessionId === null) localStorage.removeItem(SESSION_KEY);
  else localStorage.setItem(SESSION_KEY, sessionId);
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `?a=1&b=x` from the defined parameters; arrays as `k[]=v`, the original's PHP style. */
export function queryString(params: Params | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const item of value) search.append(`${key}[]`, String(item));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function headers(json: boolean): Headers {
  const result = new Headers({ Accept: 'application/json', ClientTimeZone: browserTimeZone() });
  const sessionId = storedSessionId();
  if (sessionId) result.set('Authorization', `Bearer ${sessionId}`);
  if (json) result.set('Content-Type', 'application/json');
  return result;
}

async function errorOf(response: Response): Promise<ApiError> {
  let message = `The server answered ${response.status} ${response.statusText}`.trim();
  try {
    const body = await response.json();
    if (body && typeof body.error === 'string' && body.error) message = body.error;
    else if (body && typeof body.message === 'string' && body.message) message = body.message;
  } catch {
    // Not JSON (a proxy's page): keep the status line.
  }
  return new ApiError(response.status, message);
}

/** The raw response of a call, after the session and error handling; for downloads. */
export async function apiFetch(method: string, path: string, params?: Params): Promise<Response> {
  const hasBody = method !== 'GET' && params !== undefined;
  const url = `${API_BASE}/${path.replace(/^\//, '')}${method === 'GET' ? queryString(params) : ''}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: headers(hasBody),
      body: hasBody ? JSON.stringify(params) : undefined,
    });
  } catch {
    throw new ApiError(0, 'The service cannot be reached. Check the connection and try again.');
  }
  if (response.status === 440) {
    onSessionExpired();
    throw new ApiError(440, 'Your session has ended. Please sign in again.');
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

/** Calls the API and returns its JSON answer. A 200 `{result: "ERROR", message}` (some original routes) throws. */
export async function api<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params?: Params) {
  const response = await apiFetch(method, path, params);
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  if (body && typeof body === 'object' && body.result === 'ERROR') {
    throw new ApiError(200, typeof body.message === 'string' ? body.message : 'The request was refused');
  }
  return body as T;
}

/** A paginated list as the API returns it. */
export interface Page<T> {
  data: T[];
  pagination: { start: number; limit: number; total: number };
}
