// What a command handler receives: the RPC body the gateway sent (`CommandBody`: who is acting and the input)
// and the message headers. Decoded here once for every service, so each handler starts from the same facts.

import { type Actor, ApiError, type CommandBody } from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';

/** An input whose field types the service still has to check (values that crossed the wire as sent). */
export type Unchecked<P> = { [K in keyof P]?: unknown };

const idOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : null;

/** Who is acting, as sent; an id that is not a whole number counts as absent (anonymous). */
export function decodeActor(value: unknown): Actor {
  const actor = value as Partial<Actor> | null | undefined;
  return { user_id: idOrNull(actor?.user_id), api_key_id: idOrNull(actor?.api_key_id) };
}

/**
 * The RPC body: its actor and its input. An input that is not an object is refused (400); its fields are the
 * handler's to check (`P` is what the gateway promises; use `Unchecked<P>` to check each field).
 */
export function decodeCommand<P>(payload: unknown): CommandBody<P> {
  const { actor, input } = (payload ?? {}) as Partial<CommandBody<P>>;
  if (input === null || typeof input !== 'object') throw ApiError.badRequest('Invalid command');
  return { actor: decodeActor(actor), input };
}

const TRACED_HEADERS = ['correlation_id', 'causation_id', 'traceparent', 'tracestate'] as const;

/**
 * The metadata of the events a command appends: who (user, API key) and, when the headers carry them, the
 * correlation and causation ids and the W3C trace context. The event store fills what is missing (a correlation
 * id shared by one append, the causation id from it, the current trace).
 */
export function eventMetadata(actor: Actor, headers: Record<string, unknown>): EventMetadata {
  const metadata: EventMetadata = { user_id: actor.user_id, api_key_id: actor.api_key_id };
  for (const key of TRACED_HEADERS) {
    const value = headers[key];
    if (typeof value === 'string') metadata[key] = value;
  }
  return metadata;
}

/** A positive whole number, or its decimal digits (surrounding blanks ignored); undefined otherwise. */
export function positiveId(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A timestamp's id (the global position of its TimestampReceived event) as sent; else the original's 400. */
export function parseTimestampId(value: unknown): number {
  const id = positiveId(value);
  if (id === undefined) throw invalidTimestampId(value);
  return id;
}

export const invalidTimestampId = (value: unknown): ApiError =>
  ApiError.badRequest(`Invalid timestamp id: ${String(value)}`);
