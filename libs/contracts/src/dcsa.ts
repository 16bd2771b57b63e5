// The DCSA Just-in-Time Port Call 2.0.0 bridge (services/dcsa-bridge, docs/dcsa.md): its RPC name and commands.
// The gateway's /dcsa/jit/v2/ routes send each DCSA request on as it came (the body unchecked: the bridge
// validates it against the standard's schemas) with the calling partner's API key as the actor.

import type { BatchCommand } from './rpc.ts';

export const DCSA_BRIDGE = 'dcsa-bridge';

export const DcsaCommands = {
  // Received from a partner (we are the consumer; decline: we are the provider).
  putPortCall: 'putPortCall',
  omitPortCall: 'omitPortCall',
  putTerminalCall: 'putTerminalCall',
  omitTerminalCall: 'omitTerminalCall',
  putPortCallService: 'putPortCallService',
  cancelPortCallService: 'cancelPortCallService',
  declinePortCallService: 'declinePortCallService',
  putTimestamp: 'putTimestamp',
  /** Many putTimestamp requests in one RPC (the gateway gathers concurrent ones): one reply each, in order. */
  putTimestamps: 'putTimestamps',
  putVesselStatus: 'putVesselStatus',
  // Administration and the UI.
  registerPartner: 'registerPartner',
  changePartner: 'changePartner',
  answerRequest: 'answerRequest',
  retryOutbox: 'retryOutbox',
} as const;

/** One DCSA request as the gateway hands it on: the path's id, the body as sent, the partner's API key. */
export interface DcsaRequestCommand {
  id: string;
  body: unknown;
}

/**
 * putTimestamps: the gateway's concurrent DCSA timestamp requests in one RPC; an item's reply is its DcsaOutcome,
 * or the error it would have failed alone with.
 */
export type DcsaRequestsCommand = BatchCommand<DcsaRequestCommand>;

/** The most requests one putTimestamps command may carry. */
export const MAX_DCSA_BATCH = 256;

/** The DCSA standard's DetailedError (docs/dcsa.md#validation-and-errors). */
export interface DcsaDetailedError {
  errorCode: number;
  property?: string;
  value?: string;
  jsonPath?: string;
  errorCodeText: string;
  errorCodeMessage: string;
}

/**
 * The bridge's answer to a DCSA request: 204, or a refusal the gateway renders as the standard's ErrorResponse
 * (it adds httpMethod, requestUri, errorDateTime and providerCorrelationReference).
 */
export type DcsaOutcome =
  | { status: 204 }
  | { status: 400 | 403 | 404 | 409; statusCodeMessage: string; errors: DcsaDetailedError[] };

/** POST /dcsa-partners and PUT /dcsa-partners/:id (an administrator). */
export interface DcsaPartnerCommand {
  id?: number;
  name: unknown;
  api_key_id: unknown;
  base_url: unknown;
  /** Sent to the partner as `Authorization: <credentials>` (kept outside the log). */
  credentials?: unknown;
  /** IMO numbers of the vessels whose times go to the partner. */
  vessel_imos: unknown;
  active?: unknown;
}

/** POST /dcsa-timestamps/:id/plan: our PLN answering a partner's REQ (or EST). */
export interface DcsaAnswerRequestCommand {
  timestamp_id: unknown;
  date_time: unknown;
  remark?: unknown;
}
