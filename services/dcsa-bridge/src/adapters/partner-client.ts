// The HTTP client of a partner's DCSA JIT endpoints: one request per message, with the partner's credentials as
// its Authorization header and the standard's API-Version header. Answers are handed back as they are; what they
// mean is src/domain/outbox.ts's decideSend.

import type { SendOutcome } from '../domain/outbox.ts';

export type SendToPartner = (request: {
  baseUrl: string;
  credentials?: string;
  method: string;
  path: string;
  body: unknown;
}) => Promise<SendOutcome>;

export function partnerClient(timeoutMs = 10_000): SendToPartner {
  return async ({ baseUrl, credentials, method, path, body }) => {
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          'Content-Type': 'application/json',
          'API-Version': '2',
          ...(credentials ? { Authorization: credentials } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { kind: 'answered', status: res.status, body: await res.text() };
    } catch (error) {
      return { kind: 'unreachable', error: error instanceof Error ? error.message : String(error) };
    }
  };
}
