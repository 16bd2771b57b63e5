// Notifications and decisions through HTTP on the fleet (docs/domain.md#notifications-and-decisions):
// the original's port_call_decisions.feature step by step (a data source opens port calls by master ID, first
// users create a decision, answer it, reply; force-closing the port call closes its decision by itself), every
// refusal of POST /notifications and the decision routes with the original's message, and what refused requests
// leave: nothing (no notifier event in the log, the lists unchanged, no id taken). The fleet, so that the
// auto-close runs through RabbitMQ as deployed and the test can count the events in PostgreSQL.

import { type Db, openDb } from '@pcas/sql';
import { ApiClient, eventually, type RunningSystem, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAndDataSource, HOUR, iso } from './timestamps.ts';

const IMO = 1234567;
const INVALID_DECISION_VALUES =
  'Invalid assigned values for type: port_call_decision. Valid assigned values are message, ship_imo, port_call_master_id and decisions.';

describe('port_call_decisions.feature (fleet)', () => {
  let system: RunningSystem;
  let db: Db;
  let admin: ApiClient;
  let source: ApiClient;
  let user1: ApiClient;
  let user2: ApiClient;
  let plainUser: ApiClient;
  const now = Date.now();

  const createUser = async (email: string, role: string) => {
    const res = await admin.post('/users', { email, first_name: `First${email}`, last_name: `Last${email}`, role });
    expect(res.status).toBe(200);
    return new ApiClient(system.baseUrl).login(email, res.body.password);
  };
  const post = async (time_type: string, state: string, at: number, externalId: string) => {
    const res = await source.post('/agent/rest/timestamps', {
      imo: IMO,
      vessel_name: 'Unikieship',
      time_type,
      state,
      time: iso(at),
      payload: { source: 'master_source', external_id: externalId, berth_name: 'berth' },
    });
    expect([res.status, res.body]).toEqual([200, { result: 'OK' }]);
  };
  /** The port call of a master id, as the feature finds it: the ongoing port calls, then each one's range. */
  const portCallOf = async (masterId: string) =>
    eventually(
      async () => {
        const ongoing = (await admin.get('/ongoing-port-calls')).body.portcalls ?? [];
        for (const { ship } of ongoing) {
          const range = await admin.get('/port-call-range', { port_call_id: ship.id });
          if (range.body?.master_id === masterId) return ship.id as number;
        }
        return undefined;
      },
      (id) => id !== undefined,
      `port call ${masterId}`,
    );
  const decisionNotification = (over: object = {}) => ({
    type: 'port_call_decision',
    message: 'Ship is arriving',
    ship_imo: String(IMO),
    port_call_master_id: 'decision1',
    decisions: ['Pilot', 'Tugs', 'Linesmen'],
    ...over,
  });
  const notifications = async (client = admin) => {
    const res = await client.get('/notifications/100');
    expect(res.status).toBe(200);
    return res.body as any[];
  };
  const itemsOf = async (client: ApiClient, notificationId: number) => {
    const found = (await notifications(client)).find((n) => n.id === notificationId);
    return found.decision.decision_items.map((i: any) => [i.label, i.response_name, i.response_type]);
  };
  const respond = (client: ApiClient, id: number, response: string) =>
    client.post('/decision-item-response', { id, response });
  /** Everything a refusal could have left behind: the notifier's events, both lists as every reader sees them. */
  const snapshot = async () => [
    (
      await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM eventstore.events WHERE stream_id LIKE 'notification-%' OR stream_id LIKE 'decision-%'",
      )
    ).rows[0].n,
    await notifications(),
    (await admin.get('/decisions', { limit: 100 })).body,
  ];
  const refused = async (res: { status: number; body: unknown }, error: string) =>
    expect([res.status, res.body]).toEqual([400, { error }]);

  beforeAll(async () => {
    system = await startFleet({
      PORT_CALL_MASTER_SOURCE: 'master_source',
      PORT_CALL_MASTER_START_BUFFER_DURATION: 'PT6H',
      PORT_CALL_MASTER_END_BUFFER_DURATION: 'PT12H',
    });
    db = await openDb({ url: system.env.DATABASE_URL });
    const made = await adminAndDataSource(system.baseUrl);
    admin = made.admin;
    source = made.api.withApiKey(made.apiKey.key);
    for (const state of ['Arrival_Vessel_PortArea', 'Departure_Vessel_Berth']) {
      const res = await admin.post('/timestamp-api-key-weights', {
        timestamp_time_type: 'Estimated',
        timestamp_state: state,
        api_key_ids: [made.apiKey.id],
      });
      expect(res.body).toEqual({ result: 'OK' });
    }
    user1 = await createUser('first_user1@decisions.test', 'first_user');
    user2 = await createUser('first_user2@decisions.test', 'first_user');
    plainUser = await createUser('user@decisions.test', 'user');
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await system?.stop();
  });

  let first: any;

  it('creates a decision notification for the port call of master ID decision1', async () => {
    await post('Estimated', 'Arrival_Vessel_PortArea', now + HOUR, 'decision1');
    await post('Estimated', 'Departure_Vessel_Berth', now + 2 * HOUR, 'decision1');
    await portCallOf('decision1');
    const res = await user1.post('/notifications', decisionNotification());
    expect(res.status).toBe(200);
    first = res.body;
    expect(first).toMatchObject({
      type: 'port_call_decision',
      message: 'Ship is arriving',
      ship_imo: IMO,
      sender: { email: 'first_user1@decisions.test', first_name: 'Firstfirst_user1@decisions.test' },
      ship: { imo: IMO, vessel_name: 'Unikieship' },
      children: null,
      decision: { id: 1, type: 'port_call_decision', port_call_master_id: 'decision1', status: 'open' },
    });
    expect(first.decision.decision_items.map((i: any) => i.label)).toEqual(['Pilot', 'Tugs', 'Linesmen']);
  });

  it('lets both first users answer, change and clear answers; an unknown answer is refused', async () => {
    const found = (await notifications(user2)).find((n) => n.id === first.id);
    const [pilot, tugs, linesmen] = found.decision.decision_items;
    for (const [item, response] of [
      [pilot, 'Accept'],
      [tugs, 'Reject'],
      [linesmen, 'Accept'],
    ] as const) {
      expect((await respond(user2, item.id, response)).body).toEqual({ result: 'OK' });
    }
    expect(await itemsOf(user1, first.id)).toEqual([
      ['Pilot', 'Accept', 'positive'],
      ['Tugs', 'Reject', 'negative'],
      ['Linesmen', 'Accept', 'positive'],
    ]);
    expect((await respond(user1, tugs.id, 'Accept')).body).toEqual({ result: 'OK' });
    expect((await respond(user1, linesmen.id, '')).body).toEqual({ result: 'OK' });
    const decisions = (await user1.get('/decisions', { limit: 100 })).body.data;
    const item = decisions[0].decision_items.find((i: any) => i.label === 'Tugs');
    const before = await snapshot();
    await refused(await respond(user1, item.id, 'Exciting'), 'Invalid decision item response name: Exciting');
    expect(await snapshot()).toEqual(before);
    expect(await itemsOf(user2, first.id)).toEqual([
      ['Pilot', 'Accept', 'positive'],
      ['Tugs', 'Accept', 'positive'],
      ['Linesmen', null, null],
    ]);
  });

  it('takes replies to the decision, shown in its children newest first after the answers', async () => {
    const child1 = await user2.post('/notifications', {
      type: 'ship',
      message: 'Child1',
      ship_imo: String(IMO),
      parent_id: first.id,
    });
    expect(child1.body.parent_notification_id).toBe(first.id);
    const child2 = await user1.post('/notifications', {
      type: 'ship',
      message: 'Child2',
      ship_imo: IMO,
      parent_id: first.id,
    });
    expect(child2.body.parent_notification_id).toBe(first.id);
    const parent = (await notifications(user1)).find((n) => n.id === first.id);
    expect(parent.children.map((c: any) => c.message)).toEqual([
      'Child2',
      'Child1',
      'Response unset for Linesmen at Ship is arriving',
      'Accept for Tugs at Ship is arriving',
      'Accept for Linesmen at Ship is arriving',
      'Reject for Tugs at Ship is arriving',
      'Accept for Pilot at Ship is arriving',
    ]);
    expect(parent.children[0].sender.email).toBe('first_user1@decisions.test');
    // Replies are no roots of the list.
    expect((await notifications()).map((n) => n.id)).toEqual([first.id]);
  });

  it('closes the decision when its port call is force-closed; then refuses answers and new decisions', async () => {
    const portCallId = await portCallOf('decision1');
    expect((await admin.get('/force-close-port-call', { port_call_id: portCallId })).status).toBe(200);
    await eventually(
      async () => (await admin.get('/decision-by-id', { id: 1 })).body.status,
      (status) => status === 'closed',
      'the auto-close',
    );
    const parent = (await notifications(user1)).find((n) => n.id === first.id);
    expect(parent.decision.status).toBe('closed');
    const before = await snapshot();
    await refused(await respond(user1, parent.decision.decision_items[0].id, 'Accept'), 'Decision is closed: 1');
    await refused(await user1.post('/notifications', decisionNotification()), 'Given port call is closed: decision1');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses each bad notification with the original message and stores nothing', async () => {
    await post('Estimated', 'Arrival_Vessel_PortArea', now + 72 * HOUR, 'decision2');
    await post('Estimated', 'Departure_Vessel_Berth', now + 96 * HOUR, 'decision2');
    await portCallOf('decision2');
    const before = await snapshot();
    const d2 = (over: object) => decisionNotification({ port_call_master_id: 'decision2', ...over });
    const cases: [object, string][] = [
      [{ message: 'x' }, "Type can't be empty"],
      [
        { type: 'port_call_decision_response', message: 'x' },
        'Type should be one of there: port, ship, port_call_decision',
      ],
      [{ type: 'port', message: '' }, "Message can't be empty"],
      [{ type: 'ship', message: 'x', ship_imo: 'abc' }, 'Ship imo must be number'],
      [
        { type: 'port', message: 'x', ship_imo: IMO },
        'Invalid assigned values for type: port. Valid assigned value is message.',
      ],
      [
        { type: 'ship', message: 'x' },
        'Invalid assigned values for type: ship. Valid assigned values are message, ship_imo and parent_id.',
      ],
      [d2({ ship_imo: '' }), INVALID_DECISION_VALUES],
      [d2({ port_call_master_id: '' }), INVALID_DECISION_VALUES],
      [d2({ decisions: [] }), INVALID_DECISION_VALUES],
      [d2({ parent_id: first.id }), INVALID_DECISION_VALUES],
      [d2({ decisions: ['1', ' ', '2'] }), 'Decision cannot be empty.'],
      [d2({ decisions: ['1', '2', '3', '4', '5', '6'] }), 'Too many decisions. Maximum is: 5'],
      [d2({ port_call_master_id: 'decision3' }), 'Invalid port call master ID: decision3'],
      [d2({ ship_imo: '2345678' }), 'IMO: 2345678 does not have port call master ID: decision2'],
      [{ type: 'ship', message: 'x', ship_imo: IMO, parent_id: 999 }, 'Invalid parent ID: 999'],
    ];
    for (const [body, error] of cases)
      await refused(await user1.post('/notifications', body as Record<string, unknown>), error);
    const child = (await notifications()).find((n) => n.id === first.id).children[0];
    await refused(
      await user1.post('/notifications', { type: 'ship', message: 'x', ship_imo: IMO, parent_id: child.id }),
      `Parent ID: ${child.id} already has parent. Only one level of hierarchy permitted.`,
    );
    expect(await snapshot()).toEqual(before);
    const port = await user1.post('/notifications', { type: 'port', message: 'Port is open', ship_imo: '' });
    expect(port.body).toMatchObject({ type: 'port', ship: null, parent_notification_id: null });
    const withPort = await snapshot();
    await refused(
      await user1.post('/notifications', { type: 'ship', message: 'x', ship_imo: IMO, parent_id: port.body.id }),
      `Parent ID: ${port.body.id} has invalid type. Only port_call_decision allowed.`,
    );
    await refused(await admin.delete('/notifications/4242'), 'Cannot find notification with given id: 4242');
    await refused(await admin.post('/close-decision', { id: 4242 }), 'Invalid decision ID: 4242');
    await refused(await admin.delete('/decisions', { id: 4242 }), 'Invalid decision ID: 4242');
    await refused(await respond(admin, 4242, 'Accept'), 'Invalid decision item ID: 4242');
    await refused(await admin.get('/decisions', { status: 'pending' }), 'Invalid decision status: pending');
    expect(await snapshot()).toEqual(withPort);
    expect((await admin.delete(`/notifications/${port.body.id}`)).body).toEqual({ result: 'OK' });
  });

  it('closes a decision by hand; the next decision is number 2 (refusals took no id)', async () => {
    const res = await user1.post(
      '/notifications',
      decisionNotification({
        message: 'Ship 2 is arriving',
        port_call_master_id: 'decision2',
        decisions: ['Pilot2', 'Tugs2'],
      }),
    );
    expect(res.status).toBe(200);
    const { decision } = res.body;
    expect(decision.id).toBe(2);
    expect((await respond(user1, decision.decision_items[1].id, 'Accept')).body).toEqual({ result: 'OK' });
    expect((await user1.post('/close-decision', { id: decision.id })).body).toEqual({ result: 'OK' });
    expect((await user1.get('/decision-by-id', { id: decision.id })).body.status).toBe('closed');
    await refused(await respond(user1, decision.decision_items[1].id, 'Accept'), 'Decision is closed: 2');
    const closed = await user2.get('/decisions', { status: 'closed', port_call_master_id: 'decision2', limit: 10 });
    expect(closed.body.data.map((d: any) => d.id)).toEqual([2]);
    expect(closed.body.pagination).toEqual({ start: 0, limit: 10, total: 1 });
  });

  it('keeps the permissions: a user may read but not send; a first user may not delete', async () => {
    expect((await plainUser.get('/notifications')).status).toBe(200);
    expect((await plainUser.post('/notifications', { type: 'port', message: 'x' })).status).toBe(403);
    expect((await user1.delete(`/notifications/${first.id}`)).status).toBe(403);
  });

  it('deletes every notification (with replies and decisions), leaving an empty list', async () => {
    for (const n of await notifications()) {
      expect((await admin.delete(`/notifications/${n.id}`)).body).toEqual({ result: 'OK' });
    }
    expect(await notifications()).toEqual([]);
    expect((await admin.get('/decisions', { limit: 100 })).body.data).toEqual([]);
  });
});
