// The RPC reply envelope (same shape as RpcReply in @pcas/contracts) and its mapping to and from ApiError,
// shared by the RabbitMQ and the in-process bus so both behave the same towards callers.

import { ApiError, isApiError } from '@pcas/errors';

export type RpcReply = { ok: true; result: unknown } | { ok: false; status: number; error: string };

export interface RpcRequest {
  command: string;
  payload: unknown;
}

/** ApiError keeps its status and message; anything else is an internal error the caller must not see. */
export function errorToReply(error: unknown): RpcReply & { ok: false } {
  if (isApiError(error)) return { ok: false, status: error.status, error: error.message };
  return { ok: false, status: 500, error: 'Internal error' };
}

/** The result of a successful reply; an error reply is rethrown as the ApiError the service threw. */
export function unwrapReply<T>(reply: RpcReply): T {
  if (reply.ok) return reply.result as T;
  throw new ApiError(reply.status, reply.error);
}

/** Parses a reply off the wire; a malformed one is the service's fault (500). */
export function parseReply(raw: unknown): RpcReply {
  if (raw && typeof raw === 'object' && 'ok' in raw) {
    const r = raw as Record<string, unknown>;
    if (r.ok === true) return { ok: true, result: r.result };
    if (typeof r.status === 'number' && typeof r.error === 'string')
      return { ok: false, status: r.status, error: r.error };
  }
  return { ok: false, status: 500, error: 'Internal error' };
}

export function parseRequest(raw: unknown): RpcRequest | undefined {
  if (raw && typeof raw === 'object' && typeof (raw as RpcRequest).command === 'string') {
    return { command: (raw as RpcRequest).command, payload: (raw as RpcRequest).payload };
  }
  return undefined;
}

/** Thrown by publish/consume/rpc after close(). */
export class BusClosedError extends Error {
  constructor() {
    super('Bus is closed');
    this.name = 'BusClosedError';
  }
}

export const didNotAnswer = (service: string) => new ApiError(503, `Service ${service} did not answer`);

/** What a message body looks like after crossing the wire (Dates become ISO strings, undefined disappears). */
export function wireCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
