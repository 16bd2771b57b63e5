// Expo's push service over HTTP (the protocol is two JSON POSTs: messages → tickets, receipt ids → receipts).
// Plain fetch: no client library to add, and retries belong to the push jobs, not to a second layer here.

export interface ExpoEndpoints {
  pushUrl: string;
  receiptsUrl: string;
  /** Sent as a bearer token when set; never logged. */
  accessToken?: string;
  /** Per request (default 15 s). */
  timeoutMs?: number;
}

/** Expo did not answer with a usable reply (network, timeout, non-2xx): the job tries again later. */
export class ExpoUnavailableError extends Error {
  constructor(
    readonly endpoint: 'push' | 'receipts',
    readonly status: number | null,
    detail: string,
  ) {
    super(`Expo ${endpoint} endpoint: ${detail}`);
    this.name = 'ExpoUnavailableError';
  }
}

export interface ExpoClient {
  /** POST the messages (at most 100); resolves with the parsed reply. */
  send(messages: readonly unknown[]): Promise<unknown>;
  /** POST `{ids}`; resolves with the parsed reply. */
  receipts(ids: readonly string[]): Promise<unknown>;
}

export function createExpoClient(endpoints: ExpoEndpoints): ExpoClient {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'gzip, deflate',
    'content-type': 'application/json',
  };
  if (endpoints.accessToken) headers.authorization = `Bearer ${endpoints.accessToken}`;
  const post = async (endpoint: 'push' | 'receipts', url: string, body: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(endpoints.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new ExpoUnavailableError(endpoint, null, (error as Error).message);
    }
    const text = await res.text();
    if (!res.ok) throw new ExpoUnavailableError(endpoint, res.status, `HTTP ${res.status}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new ExpoUnavailableError(endpoint, res.status, 'the reply is not JSON');
    }
  };
  return {
    send: (messages) => post('push', endpoints.pushUrl, messages),
    receipts: (ids) => post('receipts', endpoints.receiptsUrl, { ids }),
  };
}
