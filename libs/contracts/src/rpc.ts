// Commands the gateway sends to the owning service over RPC (queue `cmd.<service>`). A reply is either
// `{ ok: true, result }` or `{ ok: false, status, error }`; the messaging lib turns the latter back into an
// ApiError so the gateway answers with the original's status and message.

import type { Actor } from './events.ts';

/** What the gateway sends as the RPC payload: the validated input and who is acting. */
export interface CommandBody<P = unknown> {
  actor: Actor;
  input: P;
}

export type RpcReply<R = unknown> = { ok: true; result: R } | { ok: false; status: number; error: string };

/** One item's reply inside a batch command's reply: the same shape as a whole RPC's. */
export type ItemReply<R = unknown> = RpcReply<R>;

export const INGEST = 'ingest';
export const PORTCALL_PROJECTOR = 'portcall-projector';

/** Raw timestamp as posted (already parameter-checked by the gateway: types only). */
export interface PostTimestampCommand {
  imo: unknown;
  vessel_name: unknown;
  time_type: unknown;
  state: unknown;
  time: unknown;
  payload: unknown;
  /** true for POST /timestamps (people), false for POST /agent/rest/timestamps (data sources) */
  manual: boolean;
}

/**
 * Many timestamp posts in one RPC (the gateway gathers concurrent posts): each item carries its own actor and
 * trace headers and gets its own reply, in item order.
 */
export interface PostTimestampsCommand {
  items: { body: CommandBody<PostTimestampCommand>; headers?: Record<string, string> }[];
}

/** The most posts one postTimestamps command may carry. */
export const MAX_TIMESTAMP_BATCH = 256;

export interface TimestampIdCommand {
  id: number;
}

/** Ordered API key ids, highest priority first (already checked by the gateway: distinct, existing keys). */
export interface SetTimestampApiKeyWeightsCommand {
  time_type: string;
  state: string;
  api_key_ids: number[];
}

export interface SetPayloadKeyApiKeyWeightsCommand {
  payload_key: string;
  api_key_ids: number[];
}

export const IngestCommands = {
  postTimestamp: 'postTimestamp',
  postTimestamps: 'postTimestamps',
  deleteTimestamp: 'deleteTimestamp',
  restoreTimestamp: 'restoreTimestamp',
  setTimestampApiKeyWeights: 'setTimestampApiKeyWeights',
  setPayloadKeyApiKeyWeights: 'setPayloadKeyApiKeyWeights',
} as const;
