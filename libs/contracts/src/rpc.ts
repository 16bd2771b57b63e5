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
  deleteTimestamp: 'deleteTimestamp',
  restoreTimestamp: 'restoreTimestamp',
  setTimestampApiKeyWeights: 'setTimestampApiKeyWeights',
  setPayloadKeyApiKeyWeights: 'setPayloadKeyApiKeyWeights',
} as const;
