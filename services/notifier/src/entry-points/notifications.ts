// cmd.notifier's notification and decision commands (docs/domain.md#notifications-and-decisions), and the
// auto-close of a done port call's decisions. Each command checks in the original's order, takes ids from the
// notifier's sequences only once every check passed (so a refused request takes none), appends to the
// notification's or decision's stream with the version it loaded, and writes the read models in that
// transaction. Replies: the created notification object, or `{result: 'OK'}`.

import {
  type CommandFunction,
  decideAndAppendInTransaction,
  decideOnce,
  decodeCommand,
  eventMetadata,
  positiveId,
  type Unchecked,
} from '@pcas/commands';
import {
  type AnswerDecisionItemCommand,
  ApiError,
  type CreateNotificationCommand,
  decisionStream,
  NotificationCommands,
  type NotificationCreated,
  type NotifierIdCommand,
  notificationStream,
  type PortCallChanged,
  type ServiceDeps,
} from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import {
  lockDecision,
  lockDecisionItem,
  lockNotification,
  masterPortCall,
  nextIds,
  notificationObject,
  openDecisionIds,
  parentNotification,
  saveDecisionDeleted,
  saveItemAnswer,
  saveNotificationCreated,
  saveNotificationDeleted,
  touchDecision,
} from '../adapters/notifications.ts';
import {
  type AnsweredItem,
  checkAnswer,
  type DecisionEvent,
  decideAnswer,
  decideCloseByUser,
  decideCloseForDonePortCall,
  decideDeleteDecision,
  donePortCalls,
  type StoredDecision,
} from '../domain/decisions.ts';
import {
  checkDecisionLabels,
  checkNotification,
  checkParent,
  decideCreateNotification,
  decideDeleteNotification,
} from '../domain/notifications.ts';

const OK = { result: 'OK' } as const;

/** An id as sent; anything but a positive whole number names nothing (the command's own 400 follows). */
const idOf = (value: unknown): number => positiveId(value) ?? 0;

/** Appends a new notification's NotificationCreated and writes its rows, in `tx`. */
async function appendCreated(store: EventStore, tx: Queryable, event: NotificationCreated, metadata: EventMetadata) {
  await store.append(notificationStream(event.id), [{ type: 'NotificationCreated', data: event, metadata }], {
    expectedVersion: 'no_stream',
    tx,
  });
  await saveNotificationCreated(tx, event);
}

export function notificationCommands(deps: ServiceDeps): Record<string, CommandFunction> {
  const { db, store, bus } = deps;

  async function createNotification(payload: unknown, headers: Record<string, unknown> = {}): Promise<unknown> {
    const { actor, input } = decodeCommand<Unchecked<CreateNotificationCommand>>(payload);
    const checked = checkNotification(input);
    const labels =
      checked.type === 'port_call_decision'
        ? checkDecisionLabels(checked, await masterPortCall(bus, checked.port_call_master_id ?? ''))
        : [];
    const parentId = checked.parent_id;
    if (parentId !== null) checkParent(parentId, await parentNotification(db, parentId));
    const [id] = await nextIds(db, 'notification_ids', 1);
    const decisionIds = labels.length > 0 ? await nextIds(db, 'decision_ids', 1) : [];
    const itemIds = await nextIds(db, 'decision_item_ids', labels.length);
    const event = decideCreateNotification(
      checked,
      labels,
      { notification: id, decision: decisionIds[0], items: itemIds },
      actor.user_id,
      new Date(),
    );
    // A redelivered request answers with the notification its first delivery created (libs/commands decideOnce).
    const created = await db.transaction((tx) =>
      decideOnce(tx, 'notifier', headers, async () => {
        // The parent may have been deleted since the check: held now until this reply commits.
        if (parentId !== null) {
          await tx.query('SELECT 1 FROM notifier.notifications WHERE id = $1 FOR SHARE', [parentId]);
          checkParent(parentId, await parentNotification(tx, parentId));
        }
        await appendCreated(store, tx, event, eventMetadata(actor, headers));
        return { id };
      }),
    );
    return notificationObject(db, created.id);
  }

  async function deleteNotification(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<Unchecked<NotifierIdCommand>>(payload);
    const id = idOf(input.id);
    if (id === 0) throw ApiError.badRequest(`Cannot find notification with given id: ${String(input.id)}`);
    await decideAndAppendInTransaction(db, store, {
      streamId: notificationStream(id),
      load: async (tx) => {
        const { stored, version } = await lockNotification(tx, id);
        return { state: stored, version };
      },
      decide: (stored) => decideDeleteNotification(id, stored).map((data) => ({ type: 'NotificationDeleted', data })),
      metadata: eventMetadata(actor, headers),
      project: async (tx, events) => {
        for (const { data } of events) await saveNotificationDeleted(tx, [data.id, ...data.children_ids]);
      },
    });
    return OK;
  }

  async function answerDecisionItem(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<Unchecked<AnswerDecisionItemCommand>>(payload);
    const itemId = idOf(input.id);
    const response = typeof input.response === 'string' ? input.response : String(input.response ?? '');
    // The item names its decision, whose stream the answer goes to; it is read again under the decision's lock.
    const first = itemId === 0 ? null : (await lockDecisionItem(db, itemId)).found;
    checkAnswer(itemId === 0 ? Number(input.id) : itemId, response, first);
    const decisionId = first?.decision.id ?? 0;
    const metadata = eventMetadata(actor, headers);
    let loadedVersion = 0;
    let reply: NotificationCreated | undefined;
    await decideAndAppendInTransaction(db, store, {
      streamId: decisionStream(decisionId),
      load: async (tx) => {
        const { found, version } = await lockDecisionItem(tx, itemId);
        const answered = checkAnswer(itemId, response, found);
        const [replyId] = await nextIds(tx, 'notification_ids', 1);
        loadedVersion = version;
        return { state: { answered, replyId }, version };
      },
      decide: ({ answered, replyId }: { answered: AnsweredItem; replyId: number }) => {
        const decided = decideAnswer(answered, response, replyId, actor.user_id, new Date());
        reply = decided.reply;
        return [{ type: 'DecisionItemAnswered' as const, data: decided.answered }];
      },
      metadata,
      project: async (tx, events) => {
        for (const [i, { data }] of events.entries()) {
          await saveItemAnswer(tx, data.item_id, data.response_name, data.response_type, actor.user_id);
          await touchDecision(tx, data.decision_id, loadedVersion + i + 1, actor.user_id, {});
        }
        // The reply is a notification of its own: its stream is new, so its append needs no lock order.
        if (reply) await appendCreated(store, tx, reply, metadata);
      },
    });
    return OK;
  }

  /** A command on a decision's stream: load it locked, decide, write what the events say. */
  async function onDecision(
    payload: unknown,
    headers: Record<string, unknown>,
    decide: (id: number, decision: StoredDecision | null) => DecisionEvent[],
  ) {
    const { actor, input } = decodeCommand<Unchecked<NotifierIdCommand>>(payload);
    const id = idOf(input.id);
    if (id === 0) decide(Number(input.id), null);
    let loadedVersion = 0;
    await decideAndAppendInTransaction(db, store, {
      streamId: decisionStream(id),
      load: async (tx) => {
        const { decision, version } = await lockDecision(tx, id);
        loadedVersion = version;
        return { state: decision, version };
      },
      decide: (decision) => decide(id, decision),
      metadata: eventMetadata(actor, headers),
      project: (tx, events) => projectDecision(tx, events, loadedVersion, actor.user_id),
    });
    return OK;
  }

  return {
    [NotificationCommands.createNotification]: createNotification,
    [NotificationCommands.deleteNotification]: deleteNotification,
    [NotificationCommands.answerDecisionItem]: answerDecisionItem,
    [NotificationCommands.closeDecision]: (payload, headers = {}) => onDecision(payload, headers, decideCloseByUser),
    [NotificationCommands.deleteDecision]: (payload, headers = {}) =>
      onDecision(payload, headers, decideDeleteDecision),
  };
}

async function projectDecision(
  tx: Queryable,
  events: readonly DecisionEvent[],
  loadedVersion: number,
  by: number | null,
): Promise<void> {
  for (const [i, event] of events.entries()) {
    if (event.type === 'DecisionDeleted') await saveDecisionDeleted(tx, event.data.decision_id);
    else if (event.type === 'DecisionClosed') {
      await touchDecision(tx, event.data.decision_id, loadedVersion + i + 1, by, { status: 'closed' });
    }
  }
}

/**
 * Closes the open decisions of a port call that became done (called by port-call-changes.ts), in `tx`: the
 * DecisionClosed events and the rows commit together; a redelivered signal, or the many signals of a port-call
 * rebuild, find the decisions closed already and append nothing, so the signal needs no inbox. A decision is never
 * reopened. The transaction may take its transaction id before it holds a decision's lock, so if a user's command on the same
 * decision commits in between, the relay may publish the two events of that stream in the other order; both are
 * facts about a decision that nothing folds from the bus, so this is accepted rather than a second transaction
 * (which the embedded mode's single connection could not open inside this one).
 */
export async function closeDecisionsOfDonePortCalls(
  tx: Queryable,
  store: EventStore,
  changes: readonly { id: string; data: PortCallChanged }[],
): Promise<number> {
  let closed = 0;
  for (const { master_id, cause } of donePortCalls(changes)) {
    for (const decisionId of await openDecisionIds(tx, master_id)) {
      const { decision, version } = await lockDecision(tx, decisionId);
      if (!decision) continue;
      const events = decideCloseForDonePortCall(decision);
      if (events.length === 0) continue;
      const metadata: EventMetadata = { user_id: null, api_key_id: null, ...(cause ? { causation_id: cause } : {}) };
      await store.append(
        decisionStream(decisionId),
        events.map((e) => ({ ...e, metadata })),
        { expectedVersion: version, tx },
      );
      await projectDecision(tx, events, version, null);
      closed += events.length;
    }
  }
  return closed;
}
