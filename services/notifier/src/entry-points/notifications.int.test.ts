// The notification and decision commands against real PostgreSQL: every refusal of POST /notifications and of the
// decision commands with the original's message, in its order, storing nothing (no event, no row, no id taken);
// the events on notification-<id> and decision-<id> with the actor; the decorated object (sender, "ex-user",
// ship, decision, replies newest first); and the auto-close of a done port call's decisions from the projector's
// signals, where a redelivered signal and a rebuild's repeated signals close nothing twice and reopen nothing. Users
// and vessel names reach the notifier as their owners' events (its copies, filled from the log here); the port call
// a master id names is asked of the projector, a stand-in here.

import { randomUUID } from 'node:crypto';
import { commandHandler } from '@pcas/commands';
import {
  ApiError,
  decisionStream,
  type MasterPortCallReply,
  NotificationCommands,
  notificationStream,
  PORTCALL_PROJECTOR,
  PortcallQueries,
} from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { type Bus, createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationObject } from '../adapters/notifications.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { type NotifierDatabase, notifierDatabase } from '../testing/database.ts';
import { type Copies, startCopies } from './copies.ts';
import { notificationCommands } from './notifications.ts';
import { startPortCallChanges } from './port-call-changes.ts';

const IMO = 1234567;
const OTHER_IMO = 2345678;
const log = createLogger('notifications-test', 'warn');

// The projector's port calls as its masterPortCall answers them: master id → vessel and status.
const portCalls = new Map<string, { imo: number; status: string }>([
  ['decision1', { imo: IMO, status: 'arriving' }],
  ['old', { imo: IMO, status: 'done' }],
  ['decision2', { imo: IMO, status: 'planned' }],
]);

const userCreated = (id: number, email: string, first_name: string, last_name: string) => ({
  type: 'UserCreated',
  data: { id, email, first_name, last_name, role: 'user', status: 'active', registration_type: 'manual' },
});

describe('notifications and decisions', () => {
  let database: NotifierDatabase;
  let db: Db;
  let store: EventStore;
  let bus: Bus;
  let commands: ReturnType<typeof notificationCommands>;
  let copies: Copies;

  beforeAll(async () => {
    database = await notifierDatabase('pcas_notifier_notifications');
    ({ db, store } = database);
    await ensureSchema(db); // a second start changes nothing
    bus = createInProcessBus({ log });
    commands = notificationCommands({ db, store, bus, log, config: {} as never });
    await bus.serveRpc(
      PORTCALL_PROJECTOR,
      commandHandler({
        [PortcallQueries.masterPortCall]: async (payload): Promise<MasterPortCallReply> =>
          portCalls.get((payload as { input: { master_id: string } }).input.master_id) ?? null,
      }),
    );
    await store.append('user-1', [userCreated(1, 'first1@test', 'First', 'One')]);
    await store.append('user-2', [userCreated(2, 'first2@test', 'First', 'Two')]);
    await store.append('user-3', [
      userCreated(3, 'three@test', 'Three', 'Gone'),
      { type: 'UserDeleted', data: { id: 3 } },
    ]);
    await store.append(`vessel-${IMO}`, [{ type: 'VesselRegistered', data: { imo: IMO, vessel_name: 'Unikieship' } }]);
    // Their events were in the log before the notifier started: its copies are filled from the log.
    copies = await startCopies({ db, store, bus, log, config: {} as never }, { name: `copies-${randomUUID()}` });
    await copies.filled;
  });
  afterAll(async () => {
    await copies?.stop();
    await database?.close();
  });

  const as = (userId: number | null) => ({ user_id: userId, api_key_id: null });
  const run = (name: string, userId: number | null, input: object) =>
    commands[name]({ actor: as(userId), input }, { correlation_id: 'corr-notifications' }) as Promise<any>;
  const create = (input: object, userId: number | null = 1) =>
    run(NotificationCommands.createNotification, userId, input);
  const refusal = async (promise: Promise<unknown>): Promise<string> => {
    try {
      await promise;
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) return error.message;
      throw error;
    }
    throw new Error('expected a 400');
  };
  const stored = async () =>
    (
      await db.query<{ n: string }>(
        `SELECT (SELECT count(*) FROM eventstore.events) || '/' || (SELECT count(*) FROM notifier.notifications)
                || '/' || (SELECT count(*) FROM notifier.decisions) || '/' || (SELECT count(*) FROM notifier.decision_items)
                AS n`,
      )
    ).rows[0].n;
  const decision = (over: object = {}) => ({
    type: 'port_call_decision',
    message: 'Ship is arriving',
    ship_imo: String(IMO),
    port_call_master_id: 'decision1',
    decisions: ['Pilot', 'Tugs', 'Linesmen'],
    ...over,
  });

  it('refuses each bad notification with the original message, in its order, storing nothing', async () => {
    const before = await stored();
    const cases: [object, string][] = [
      [{ message: 'x' }, "Type can't be empty"],
      [{ type: '', message: 'x' }, "Type can't be empty"],
      [
        { type: 'port_call_decision_response', message: 'x' },
        'Type should be one of there: port, ship, port_call_decision',
      ],
      [{ type: 'nope' }, 'Type should be one of there: port, ship, port_call_decision'],
      [{ type: 'port' }, "Message can't be empty"],
      [{ type: 'port', message: '  ' }, "Message can't be empty"],
      [{ type: 'ship', message: 'x', ship_imo: 'abc' }, 'Ship imo must be number'],
      [{ type: 'port', message: 'x', ship_imo: '12a' }, 'Ship imo must be number'],
      [
        { type: 'port', message: 'x', ship_imo: IMO },
        'Invalid assigned values for type: port. Valid assigned value is message.',
      ],
      [
        { type: 'port', message: 'x', parent_id: 1 },
        'Invalid assigned values for type: port. Valid assigned value is message.',
      ],
      [
        { type: 'port', message: 'x', decisions: ['a'] },
        'Invalid assigned values for type: port. Valid assigned value is message.',
      ],
      [
        { type: 'ship', message: 'x' },
        'Invalid assigned values for type: ship. Valid assigned values are message, ship_imo and parent_id.',
      ],
      [
        { type: 'ship', message: 'x', ship_imo: IMO, port_call_master_id: 'm' },
        'Invalid assigned values for type: ship. Valid assigned values are message, ship_imo and parent_id.',
      ],
      [
        { type: 'ship', message: 'x', ship_imo: IMO, decisions: ['a'] },
        'Invalid assigned values for type: ship. Valid assigned values are message, ship_imo and parent_id.',
      ],
      [
        decision({ ship_imo: '' }),
        'Invalid assigned values for type: port_call_decision. Valid assigned values are message, ship_imo, port_call_master_id and decisions.',
      ],
      [
        decision({ port_call_master_id: '' }),
        'Invalid assigned values for type: port_call_decision. Valid assigned values are message, ship_imo, port_call_master_id and decisions.',
      ],
      [
        decision({ decisions: [] }),
        'Invalid assigned values for type: port_call_decision. Valid assigned values are message, ship_imo, port_call_master_id and decisions.',
      ],
      [
        decision({ parent_id: 1 }),
        'Invalid assigned values for type: port_call_decision. Valid assigned values are message, ship_imo, port_call_master_id and decisions.',
      ],
      [decision({ port_call_master_id: 'decision3' }), 'Invalid port call master ID: decision3'],
      [decision({ port_call_master_id: 'old' }), 'Given port call is closed: old'],
      [decision({ ship_imo: String(OTHER_IMO) }), `IMO: ${OTHER_IMO} does not have port call master ID: decision1`],
      [decision({ decisions: ['1', '2', '3', '4', '5', '6'] }), 'Too many decisions. Maximum is: 5'],
      [decision({ decisions: ['1', ' ', '2'] }), 'Decision cannot be empty.'],
      [{ type: 'ship', message: 'x', ship_imo: IMO, parent_id: 999 }, 'Invalid parent ID: 999'],
    ];
    for (const [input, message] of cases) expect(await refusal(create(input)), JSON.stringify(input)).toBe(message);
    expect(await stored()).toBe(before);
  });

  it('creates a notification once when the broker delivers its request again', async () => {
    const before = await stored();
    const request = { actor: as(1), input: decision() };
    const headers = { correlation_id: 'corr-redelivered', rpc_id: 'request-delivered-twice' };
    const first = await commands[NotificationCommands.createNotification](request, headers);
    const again = await commands[NotificationCommands.createNotification](request, headers);
    expect(again).toEqual(first);
    const [events, notifications, decisions, items] = before.split('/').map(Number);
    expect(await stored()).toBe([events + 1, notifications + 1, decisions + 1, items + 3].join('/'));
  });

  let decisionNotification: any;

  it('creates a decision notification: its event with the actor, its rows, the decorated object', async () => {
    decisionNotification = await create(decision({ decisions: [' Pilot ', 'Tugs', 'Linesmen'] }));
    const { id } = decisionNotification;
    const [event] = await store.readStream(notificationStream(id));
    expect(event.type).toBe('NotificationCreated');
    expect(event.metadata).toMatchObject({ user_id: 1, correlation_id: 'corr-notifications' });
    expect(event.data).toMatchObject({ id, type: 'port_call_decision', ship_imo: IMO, created_by: 1 });
    expect(decisionNotification).toMatchObject({
      type: 'port_call_decision',
      message: 'Ship is arriving',
      ship_imo: IMO,
      parent_notification_id: null,
      created_by: 1,
      sender: { first_name: 'First', last_name: 'One', email: 'first1@test', status: 'active' },
      ship: { imo: IMO, vessel_name: 'Unikieship' },
      children: null,
      decision: {
        type: 'port_call_decision',
        status: 'open',
        notification_id: id,
        port_call_master_id: 'decision1',
      },
    });
    expect(decisionNotification.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00$/);
    const items = decisionNotification.decision.decision_items;
    expect(items.map((i: any) => [i.label, i.response_name, i.response_type])).toEqual([
      ['Pilot', null, null],
      ['Tugs', null, null],
      ['Linesmen', null, null],
    ]);
    expect(items[0].response_options).toEqual({ Accept: { type: 'positive' }, Reject: { type: 'negative' } });
    for (const row of [decisionNotification, decisionNotification.decision, items[0]]) {
      expect(row).toMatchObject({ created_at: decisionNotification.created_at, created_by: 1, modified_by: 1 });
    }
  });

  it('answers items: the answer, the reply notification with its text, on the decision stream', async () => {
    const [pilot, tugs, linesmen] = decisionNotification.decision.decision_items;
    const answer = (item: any, response: string, userId = 2) =>
      run(NotificationCommands.answerDecisionItem, userId, { id: item.id, response });
    expect(await answer(pilot, 'Accept')).toEqual({ result: 'OK' });
    expect(await answer(tugs, 'Reject')).toEqual({ result: 'OK' });
    expect(await answer(linesmen, 'Accept')).toEqual({ result: 'OK' });
    expect(await answer(linesmen, '', 1)).toEqual({ result: 'OK' });
    const before = await stored();
    expect(await refusal(answer(tugs, 'Exciting'))).toBe('Invalid decision item response name: Exciting');
    expect(await refusal(answer({ id: 99999 }, 'Accept'))).toBe('Invalid decision item ID: 99999');
    expect(await stored()).toBe(before);

    const object: any = await notificationObject(db, decisionNotification.id);
    expect(object.decision.decision_items.map((i: any) => [i.label, i.response_name, i.response_type])).toEqual([
      ['Pilot', 'Accept', 'positive'],
      ['Tugs', 'Reject', 'negative'],
      ['Linesmen', null, null],
    ]);
    // Replies newest first, each decorated with its sender.
    expect(object.children.map((c: any) => [c.type, c.message, c.sender.email, c.parent_notification_id])).toEqual([
      ['port_call_decision_response', 'Response unset for Linesmen at Ship is arriving', 'first1@test', object.id],
      ['port_call_decision_response', 'Accept for Linesmen at Ship is arriving', 'first2@test', object.id],
      ['port_call_decision_response', 'Reject for Tugs at Ship is arriving', 'first2@test', object.id],
      ['port_call_decision_response', 'Accept for Pilot at Ship is arriving', 'first2@test', object.id],
    ]);
    expect(object.children[0].ship_imo).toBe(IMO);
    const events = await store.readStream(decisionStream(object.decision.id));
    expect(events.map((e) => [e.type, (e.data as any).response_name])).toEqual([
      ['DecisionItemAnswered', 'Accept'],
      ['DecisionItemAnswered', 'Reject'],
      ['DecisionItemAnswered', 'Accept'],
      ['DecisionItemAnswered', null],
    ]);
    expect(events[3].metadata).toMatchObject({ user_id: 1 });
  });

  it('checks a reply’s parent, and shows a deleted sender as ex-user', async () => {
    const port = await create({ type: 'port', message: 'Port is open', ship_imo: '' }, 3);
    expect(port.sender).toEqual({ first_name: '', last_name: '', email: 'ex-user', status: 'deleted' });
    expect(port.ship).toBeNull();
    const reply = await create(
      { type: 'ship', message: 'Child1', ship_imo: IMO, parent_id: decisionNotification.id },
      2,
    );
    expect(reply.parent_notification_id).toBe(decisionNotification.id);
    const before = await stored();
    expect(await refusal(create({ type: 'ship', message: 'x', ship_imo: IMO, parent_id: reply.id }))).toBe(
      `Parent ID: ${reply.id} already has parent. Only one level of hierarchy permitted.`,
    );
    expect(await refusal(create({ type: 'ship', message: 'x', ship_imo: IMO, parent_id: port.id }))).toBe(
      `Parent ID: ${port.id} has invalid type. Only port_call_decision allowed.`,
    );
    expect(await stored()).toBe(before);
    // No id was taken by the refusals.
    const next = await create({ type: 'port', message: 'next' });
    expect(next.id).toBe(reply.id + 1);
  });

  it('closes a decision (then refuses answers), deletes one, and refuses unknown ids storing nothing', async () => {
    const other = await create(decision({ port_call_master_id: 'decision2', decisions: ['Pilot2', 'Tugs2'] }));
    const id = other.decision.id;
    expect(await run(NotificationCommands.closeDecision, 1, { id })).toEqual({ result: 'OK' });
    expect(await run(NotificationCommands.closeDecision, 1, { id })).toEqual({ result: 'OK' });
    expect((await store.readStream(decisionStream(id))).map((e) => [e.type, (e.data as any).reason])).toEqual([
      ['DecisionClosed', 'user'],
    ]);
    const before = await stored();
    const [item] = other.decision.decision_items;
    expect(await refusal(run(NotificationCommands.answerDecisionItem, 1, { id: item.id, response: 'Accept' }))).toBe(
      `Decision is closed: ${id}`,
    );
    for (const name of [NotificationCommands.closeDecision, NotificationCommands.deleteDecision]) {
      expect(await refusal(run(name, 1, { id: 4242 }))).toBe('Invalid decision ID: 4242');
    }
    expect(await refusal(run(NotificationCommands.deleteNotification, 1, { id: 4242 }))).toBe(
      'Cannot find notification with given id: 4242',
    );
    expect(await stored()).toBe(before);

    expect(await run(NotificationCommands.deleteDecision, 1, { id })).toEqual({ result: 'OK' });
    expect(((await notificationObject(db, other.id)) as any).decision).toBeNull();
    expect(await refusal(run(NotificationCommands.closeDecision, 1, { id }))).toBe(`Invalid decision ID: ${id}`);
  });

  it('deletes a notification with its replies and decision', async () => {
    const { id } = decisionNotification;
    expect(await run(NotificationCommands.deleteNotification, 1, { id })).toEqual({ result: 'OK' });
    const [, deleted] = await store.readStream(notificationStream(id));
    expect(deleted.type).toBe('NotificationDeleted');
    expect((deleted.data as any).children_ids).toHaveLength(5);
    expect((deleted.data as any).decision_id).toBe(decisionNotification.decision.id);
    const left = await db.query(
      `SELECT id FROM notifier.notifications WHERE id = $1 OR parent_notification_id = $1
       UNION ALL SELECT id FROM notifier.decisions WHERE notification_id = $1
       UNION ALL SELECT id FROM notifier.decision_items WHERE decision_id = $2`,
      [id, decisionNotification.decision.id],
    );
    expect(left.rows).toEqual([]);
    expect(await notificationObject(db, id)).toBeNull();
  });

  it('closes the decisions of a port call that became done, once, whatever is redelivered or rebuilt', async () => {
    portCalls.set('auto1', { imo: IMO, status: 'arriving' });
    const a = await create(decision({ port_call_master_id: 'auto1', decisions: ['A'] }));
    const b = await create(decision({ port_call_master_id: 'auto1', decisions: ['B'] }));
    const unrelated = await create(decision({ port_call_master_id: 'decision1', decisions: ['C'] }));
    const signals: string[] = [];
    const autoClose = await startPortCallChanges(
      { db, store, bus, log, config: {} as never },
      { name: `test-${randomUUID()}`, send: (messages) => signals.push(...messages.map((m) => m.channel)) },
    );
    try {
      const signal = (status = 'arriving', id = randomUUID()) => ({
        id,
        streamId: 'portcall-changes',
        streamPosition: 1,
        globalPosition: 1,
        transactionId: '1',
        type: 'PortCallChanged',
        data: { imo: IMO, port_call_id: 10, deleted: false, status, master_id: 'auto1' },
        metadata: {},
        created: new Date().toISOString(),
      });
      const publish = (body: ReturnType<typeof signal>) =>
        bus.publish('portcall.PortCallChanged', body, { messageId: body.id });
      const status = async (n: any) => ((await notificationObject(db, n.id)) as any).decision.status;
      const closings = async (n: any) =>
        (await store.readStream(decisionStream(n.decision.id))).filter((e) => e.type === 'DecisionClosed').length;

      // Not done yet: nothing closes; the real-time feed gets its refetch signals.
      await publish(signal());
      expect([await status(a), await status(b)]).toEqual(['open', 'open']);
      expect(signals).toEqual(['portcalls-changed', 'queue-portcalls-changed']);

      const done = signal('done');
      await publish(done);
      expect([await status(a), await status(b), await status(unrelated)]).toEqual(['closed', 'closed', 'open']);
      const [closed] = (await store.readStream(decisionStream(a.decision.id))).filter(
        (e) => e.type === 'DecisionClosed',
      );
      expect(closed.data).toMatchObject({ reason: 'port_call_done', port_call_master_id: 'auto1' });
      expect(closed.metadata).toMatchObject({ user_id: null, causation_id: done.id });

      // The same message again (redelivery), and new signals for the same port call (a rebuild).
      await publish(done);
      await publish(signal('done'));
      await publish(signal('done'));
      expect([await status(a), await status(b)]).toEqual(['closed', 'closed']);
      expect([await closings(a), await closings(b)]).toEqual([1, 1]);
      expect(signals).toHaveLength(2 * 5);

      // A slot request's decision on the same queue: the JIT dashboard's refetch only, once for the batch.
      signals.length = 0;
      const resolved = { ...signal(), streamId: 'slotrequest-1', type: 'SlotRequestResolved' };
      await bus.publish('slotrequest.SlotRequestResolved', resolved, { messageId: resolved.id });
      expect(signals).toEqual(['queue-portcalls-changed']);
      expect([await closings(a), await closings(b)]).toEqual([1, 1]);
    } finally {
      await autoClose.stop();
    }
  });
});
