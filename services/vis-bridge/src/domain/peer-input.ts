// What a peer delivers, read and checked (docs/architecture.md#vis-direct-mode): a batch's messages, a single
// upload's message id, and each message as the inbox takes it. Pure: the commands (entry-points/peer-*.ts) store.

import { createHash } from 'node:crypto';
import { ApiError } from '@pcas/contracts';
import { parseTextMessage } from '@pcas/stm';
import type { Peer } from '../adapters/peer-store.ts';
import { isPeerOperation, messageTypeOf, type PeerMessage, type PeerOperation } from './outbox.ts';

export const whitelistsOf = (peer: Peer) =>
  peer.whitelist_in === null
    ? undefined
    : { whitelist_in: peer.whitelist_in, whitelist_out: peer.whitelist_out ?? true };

export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw ApiError.badRequest(`Missing parameter: ${name}`);
  return value;
}

export function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A batch's messages, checked for shape; at most 1000. */
export function batchOf(value: unknown): PeerMessage[] {
  if (!Array.isArray(value) || value.length > 1000) throw ApiError.badRequest('Invalid parameter: messages');
  return value.map((m) => {
    const message = m as Partial<PeerMessage> | null;
    if (
      !message ||
      typeof message.message_id !== 'string' ||
      message.message_id === '' ||
      !isPeerOperation(message.operation) ||
      message.body === null ||
      typeof message.body !== 'object' ||
      Array.isArray(message.body)
    ) {
      throw ApiError.badRequest('Invalid parameter: messages');
    }
    return { message_id: message.message_id, operation: message.operation, body: message.body };
  });
}

/**
 * A single upload's message id: given (`message_id`, or STM's `uvid` for a plan, `id` for an acknowledgement),
 * else the text message's own textMessageId, else one derived from the content (the same upload twice is one).
 */
export function singleMessageId(operation: PeerOperation, body: Record<string, unknown>): string {
  const given = optionalString(body, 'message_id') ?? optionalString(body, 'uvid') ?? optionalString(body, 'id');
  if (given) return given;
  if (operation === 'textMessage' && typeof body.message === 'string') return parseTextMessage(body.message).id;
  return `sha256:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;
}

/** A peer's text message as the inbox takes it (`to`: this port's service id). */
export function textInput(peer: Peer, message: PeerMessage, time: string, to: string) {
  const xml = stringField(message.body, 'message');
  return {
    time,
    from_service_id: peer.service_id,
    to_service_id: to,
    message_id: message.message_id,
    message_type: 'TXT',
    payload: JSON.stringify({ stmMessage: { message: xml } }),
  };
}

/** A peer's acknowledgement as the inbox takes it: a notification of the message it answers (`sent`, if ours). */
export function acknowledgementInput(
  peer: Peer,
  message: PeerMessage,
  referenceId: string,
  sent: PeerOperation | undefined,
  time: string,
) {
  return {
    time: optionalString(message.body, 'timeOfDelivery') ?? time,
    from_service_id: peer.service_id,
    message_id: referenceId,
    message_type: sent ? messageTypeOf(sent) : 'TXT',
    notification_type: 'ACKNOWLEDGEMENT_RECEIVED',
    subject: 'Acknowledgement received',
    payload: JSON.stringify(message.body),
  };
}
