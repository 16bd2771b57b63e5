// Decisions (docs/domain.md#notifications-and-decisions): answering an item, closing and deleting, with the
// original's messages. Pure: the decision and its items are loaded (and locked) by the caller.

import {
  ApiError,
  type DecisionClosed,
  type DecisionDeleted,
  type DecisionItemAnswered,
  type DecisionResponseOptions,
  type NotificationCreated,
  type PortCallChanged,
} from '@pcas/contracts';

export interface StoredDecisionItem {
  id: number;
  label: string;
  response_options: DecisionResponseOptions;
}

export interface StoredDecision {
  id: number;
  status: 'open' | 'closed';
  notification_id: number;
  port_call_master_id: string;
  /** The decision's notification: the answer's reply names it as parent and repeats its ship. */
  notification_message: string;
  ship_imo: number | null;
}

export type DecisionEvent =
  | { type: 'DecisionItemAnswered'; data: DecisionItemAnswered }
  | { type: 'DecisionClosed'; data: DecisionClosed }
  | { type: 'DecisionDeleted'; data: DecisionDeleted };

/** The reply made for an answer: "<response or 'Response unset'> for <label> at <parent message>". */
export const responseMessage = (response: string, label: string, parentMessage: string): string =>
  `${response === '' ? 'Response unset' : response} for ${label} at ${parentMessage}`;

/** An item's decision as loaded with it (null: no such item). */
export interface AnsweredItem {
  item: StoredDecisionItem;
  decision: StoredDecision;
}

/**
 * POST /decision-item-response: the item's new answer ('' clears it) and the reply notification, whose id the
 * caller has taken. The item's checks come first, so a refused answer takes no id.
 */
export function checkAnswer(itemId: number, response: string, found: AnsweredItem | null): AnsweredItem {
  if (!found) throw ApiError.badRequest(`Invalid decision item ID: ${itemId}`);
  if (found.decision.status !== 'open') throw ApiError.badRequest(`Decision is closed: ${found.decision.id}`);
  if (response !== '' && !Object.hasOwn(found.item.response_options, response)) {
    throw ApiError.badRequest(`Invalid decision item response name: ${response}`);
  }
  return found;
}

export function decideAnswer(
  { item, decision }: AnsweredItem,
  response: string,
  replyId: number,
  createdBy: number | null,
  now: Date,
): { answered: DecisionItemAnswered; reply: NotificationCreated } {
  const option = response === '' ? null : item.response_options[response];
  return {
    answered: {
      decision_id: decision.id,
      item_id: item.id,
      response_name: option ? response : null,
      response_type: option ? option.type : null,
      response_notification_id: replyId,
    },
    reply: {
      id: replyId,
      type: 'port_call_decision_response',
      message: responseMessage(response, item.label, decision.notification_message),
      ship_imo: decision.ship_imo,
      parent_notification_id: decision.notification_id,
      created_at: now.toISOString(),
      created_by: createdBy,
      decision: null,
    },
  };
}

const invalidDecision = (id: number) => ApiError.badRequest(`Invalid decision ID: ${id}`);

/** POST /close-decision: closing a closed decision again changes nothing (and is still OK, as in the original). */
export function decideCloseByUser(id: number, decision: StoredDecision | null): DecisionEvent[] {
  if (!decision) throw invalidDecision(id);
  return closed(decision, 'user');
}

/** The decision's port call became done: an open decision closes, a closed one stays as it is. */
export function decideCloseForDonePortCall(decision: StoredDecision): DecisionEvent[] {
  return closed(decision, 'port_call_done');
}

function closed(decision: StoredDecision, reason: DecisionClosed['reason']): DecisionEvent[] {
  if (decision.status === 'closed') return [];
  const { id, notification_id, port_call_master_id } = decision;
  return [{ type: 'DecisionClosed', data: { decision_id: id, notification_id, port_call_master_id, reason } }];
}

/** DELETE /decisions. */
export function decideDeleteDecision(id: number, decision: StoredDecision | null): DecisionEvent[] {
  if (!decision) throw invalidDecision(id);
  return [{ type: 'DecisionDeleted', data: { decision_id: decision.id, notification_id: decision.notification_id } }];
}

/**
 * The port calls that are done after a batch of PortCallChanged signals (each port call's last signal counts) and
 * carry a master id, once per master id, with the id of the signal that told it. A signal without a status (a
 * deletion, or one appended by an earlier version) closes nothing.
 */
export function donePortCalls(
  changes: readonly { id: string; data: PortCallChanged }[],
): { master_id: string; cause: string }[] {
  const last = new Map<number, { id: string; data: PortCallChanged }>();
  for (const c of changes) last.set(c.data.port_call_id, c);
  const out = new Map<string, string>();
  for (const c of [...last.values()].sort((a, b) => a.data.port_call_id - b.data.port_call_id)) {
    const { deleted, status, master_id } = c.data;
    if (!deleted && status === 'done' && typeof master_id === 'string' && !out.has(master_id)) out.set(master_id, c.id);
  }
  return [...out].map(([master_id, cause]) => ({ master_id, cause }));
}
