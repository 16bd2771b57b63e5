import type { NotificationCreated } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  EXPO_BATCH_SIZE,
  type ExpoMessage,
  expoMessages,
  formatInZone,
  notificationPush,
  notificationTitle,
  type PinnedUser,
  readReceipts,
  readTickets,
  recipientTimeZone,
  splitPush,
  timestampLabel,
  vesselPush,
} from './push-messages.ts';

const notification = (overrides: Partial<NotificationCreated> = {}): NotificationCreated => ({
  id: 7,
  type: 'port',
  message: 'Berth 3 closed',
  ship_imo: null,
  parent_notification_id: null,
  created_at: '2026-11-25T10:00:00Z',
  created_by: 1,
  decision: null,
  ...overrides,
});

/** The notification as GET /notifications serves it (notifier.notification_object): what a push carries. */
const shown = (n: ReturnType<typeof notification>) => ({
  ...n,
  sender: { email: 'sender@port.local', first_name: 'Sam', last_name: 'Sender' },
  ship: n.ship_imo === null ? null : { imo: n.ship_imo, vessel_name: 'Ever Given' },
});

// Users 1 (the sender), 2 and 3; user 2 has two devices.
/** The Ever Given's ETA port area posted (timestamp 501). */
const news = {
  timestamp_id: 501,
  imo: 9074729,
  vessel_name: 'Ever Given',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2026-11-25T22:30:00+00:00',
};

/** The synthetic ship notification a VESSEL push shows, sent by "system". */
const shipNotification = (id: string, message: string, createdAt: string) => ({
  id,
  type: 'ship',
  ship_imo: 9074729,
  message,
  created_at: createdAt,
  sender: { email: 'system' },
  ship: { imo: 9074729, vessel_name: 'Ever Given' },
});

const devices = [
  { token_id: 10, user_id: 1 },
  { token_id: 20, user_id: 2 },
  { token_id: 21, user_id: 2 },
  { token_id: 30, user_id: 3 },
];

describe('NOTIFICATION pushes', () => {
  it('a port notification goes to every device but the sender’s, its message as the body', () => {
    const push = notificationPush(notification(), shown(notification()), null, devices, new Set());
    expect(push).toEqual({
      key: 'notification-7',
      type: 'NOTIFICATION',
      title: 'Port notification',
      data: shown(notification()),
      recipients: [
        { token_id: 20, body: 'Berth 3 closed' },
        { token_id: 21, body: 'Berth 3 closed' },
        { token_id: 30, body: 'Berth 3 closed' },
      ],
    });
  });

  it('one about a ship only to those who pinned it (the sender still not)', () => {
    for (const type of ['ship', 'port_call_decision', 'port_call_decision_response'] as const) {
      const n = notification({ type, ship_imo: 9074729 });
      const push = notificationPush(n, shown(n), 'Ever Given', devices, new Set([1, 3]));
      expect(push?.recipients.map((r) => r.token_id)).toEqual([30]);
    }
    const n = notification({ type: 'ship', ship_imo: 9074729 });
    expect(notificationPush(n, shown(n), null, devices, new Set([1]))).toBeNull();
  });

  it('titles as the original', () => {
    expect(notificationTitle('port', null, null)).toBe('Port notification');
    expect(notificationTitle('ship', 9074729, 'Ever Given')).toBe('Ever Given');
    expect(notificationTitle('ship', 9074729, null)).toBe('Ship #9074729');
    expect(notificationTitle('port_call_decision', 9074729, 'Ever Given')).toBe('New decision for Ever Given');
    expect(notificationTitle('port_call_decision', 9074729, '')).toBe('New decision for ship #9074729');
    expect(notificationTitle('port_call_decision_response', 9074729, 'Ever Given')).toBe('New response for Ever Given');
    expect(notificationTitle('port_call_decision_response', 9074729, null)).toBe('New response for ship #9074729');
  });
});

describe('VESSEL pushes', () => {
  const users: PinnedUser[] = [
    { user_id: 2, time_zone: 'Europe/Helsinki', token_ids: [20, 21] },
    { user_id: 3, time_zone: null, token_ids: [30] },
    { user_id: 4, time_zone: 'Not/AZone', token_ids: [] },
  ];
  const now = new Date('2026-11-25T12:00:00.000Z');

  it('each body the translated label and the time in the user’s zone, else the port’s, else UTC', () => {
    const translations = new Map([['Estimated Arrival Vessel PortArea', 'ETA port area']]);
    const { push, notifications } = vesselPush(news, users, { translations, portTimeZone: 'Europe/Stockholm', now });
    expect(push).toEqual({
      key: 'vessel-501',
      type: 'VESSEL',
      title: 'Ever Given',
      vessel_id: 9074729,
      recipients: [
        { token_id: 20, body: 'ETA port area\r\n2026-11-26 00:30', data: notifications[0].notification },
        { token_id: 21, body: 'ETA port area\r\n2026-11-26 00:30', data: notifications[0].notification },
        { token_id: 30, body: 'ETA port area\r\n2026-11-25 23:30', data: notifications[1].notification },
      ],
    });
    // Every user who pinned the vessel sees it in the web UI, with or without a phone.
    expect(notifications.map((n) => [n.user_id, n.notification.message])).toEqual([
      [2, 'ETA port area\r\n2026-11-26 00:30'],
      [3, 'ETA port area\r\n2026-11-25 23:30'],
      [4, 'ETA port area\r\n2026-11-25 23:30'],
    ]);
    expect(notifications[0].notification).toEqual(
      shipNotification('1795608000-501', 'ETA port area\r\n2026-11-26 00:30', '2026-11-25T12:00:00.000Z'),
    );
  });

  it('falls back to the S-211 label and to UTC; a vessel without a name is "Ship #<imo>"', () => {
    const { push } = vesselPush({ ...news, vessel_name: null }, [users[1]], {
      translations: new Map(),
      portTimeZone: null,
      now,
    });
    expect(push?.title).toBe('Ship #9074729');
    expect(push?.recipients[0].body).toBe(
      `${timestampLabel('Estimated', 'Arrival_Vessel_PortArea', new Map())}\r\n2026-11-25 22:30`,
    );
    expect(timestampLabel('Estimated', 'Arrival_Vessel_PortArea', new Map())).toMatch(/^Estimated .+/);
    expect(timestampLabel('Estimated', 'No_Such_State', new Map())).toBe('Estimated No Such State');
  });

  it('nobody with a device: no push, the synthetic notifications still', () => {
    const outcome = vesselPush(news, [users[2]], { translations: new Map(), portTimeZone: null, now });
    expect(outcome.push).toBeNull();
    expect(outcome.notifications).toHaveLength(1);
  });
});

describe('zones and times', () => {
  it('formats YYYY-MM-DD HH:MM in the zone (midnight as 00)', () => {
    expect(formatInZone(new Date('2026-06-30T21:00:00Z'), 'Europe/Helsinki')).toBe('2026-07-01 00:00');
    expect(formatInZone(new Date('2026-01-05T09:07:00Z'), 'UTC')).toBe('2026-01-05 09:07');
    expect(recipientTimeZone(null, '')).toBe('UTC');
    expect(recipientTimeZone('Bad/Zone', 'America/New_York')).toBe('America/New_York');
  });
});

describe('what the original mobile app reads of a push (notification.data)', () => {
  // Its handler: `data.type`, `data.vessel_id`, and `data.data` shown as a notification, whose toast reads
  // `sender.email` without a guard, and `message`, `type`, `ship_imo`, `ship.vessel_name`.
  const appReads = (data: ExpoMessage['data']) => {
    const shownAs = data.data as { sender: { email: string }; message: string; type: string; ship_imo: number | null };
    return {
      type: data.type,
      vessel_id: data.vessel_id,
      sender: shownAs.sender.email,
      message: shownAs.message,
      kind: shownAs.type,
      ship_imo: shownAs.ship_imo,
    };
  };

  it('NOTIFICATION: the notification with its sender and ship', () => {
    const n = notification({ type: 'ship', ship_imo: 9074729, message: 'Pilot delayed' });
    const push = notificationPush(n, shown(n), 'Ever Given', devices, new Set([2]))!;
    const [message] = expoMessages(push, (id) => `ExponentPushToken[${id}]`, 'm-1').messages;
    expect(appReads(message.data)).toEqual({
      type: 'NOTIFICATION',
      vessel_id: undefined,
      sender: 'sender@port.local',
      message: 'Pilot delayed',
      kind: 'ship',
      ship_imo: 9074729,
    });
    expect((message.data.data as { ship: unknown }).ship).toEqual({ imo: 9074729, vessel_name: 'Ever Given' });
  });

  it('VESSEL: each device its user’s synthetic ship notification, sent by "system"', () => {
    const { push } = vesselPush(
      news,
      [
        { user_id: 2, time_zone: 'Europe/Helsinki', token_ids: [20] },
        { user_id: 3, time_zone: null, token_ids: [30] },
      ],
      { translations: new Map([['Estimated Arrival Vessel PortArea', 'ETA']]), portTimeZone: null, now: new Date(0) },
    );
    const { messages } = expoMessages(push!, (id) => `ExponentPushToken[${id}]`, 'm-2');
    expect(messages.map((m) => appReads(m.data))).toEqual([
      {
        type: 'VESSEL',
        vessel_id: 9074729,
        sender: 'system',
        message: 'ETA\r\n2026-11-26 00:30',
        kind: 'ship',
        ship_imo: 9074729,
      },
      {
        type: 'VESSEL',
        vessel_id: 9074729,
        sender: 'system',
        message: 'ETA\r\n2026-11-25 22:30',
        kind: 'ship',
        ship_imo: 9074729,
      },
    ]);
    expect(messages[0].data.data).toEqual(
      shipNotification('0-501', 'ETA\r\n2026-11-26 00:30', '1970-01-01T00:00:00.000Z'),
    );
  });
});

describe('Expo messages', () => {
  const push = {
    key: 'vessel-1',
    type: 'VESSEL' as const,
    title: 'Ever Given',
    vessel_id: 9074729,
    recipients: Array.from({ length: 2 * EXPO_BATCH_SIZE + 1 }, (_, i) => ({ token_id: i + 1, body: `b${i + 1}` })),
  };

  it('at most 100 devices a request', () => {
    expect(splitPush(push).map((p) => p.recipients.length)).toEqual([100, 100, 1]);
  });

  it('in the original’s shape, devices removed since skipped', () => {
    const { token_ids, messages } = expoMessages(
      { ...push, recipients: push.recipients.slice(0, 3) },
      (id) => (id === 2 ? undefined : `ExponentPushToken[${id}]`),
      'm-1',
    );
    expect(token_ids).toEqual([1, 3]);
    expect(messages[0]).toEqual({
      to: 'ExponentPushToken[1]',
      sound: 'default',
      title: 'Ever Given',
      body: 'b1',
      data: { id: 'm-1', type: 'VESSEL', vessel_id: 9074729 },
      channelId: 'notification',
      priority: 'high',
    });
  });

  it('reads tickets and receipts: receipt ids to check later, DeviceNotRegistered devices', () => {
    const notRegistered = { status: 'error', message: 'gone', details: { error: 'DeviceNotRegistered' } };
    expect(
      readTickets(
        { data: [{ status: 'ok', id: 'r1' }, notRegistered, { status: 'error', details: { error: 'MessageTooBig' } }] },
        [1, 2, 3],
      ),
    ).toEqual({ receipts: { r1: 1 }, unregistered: [2] });
    expect(readTickets({ errors: [{ code: 'INTERNAL' }] }, [1])).toBeNull();
    expect(readTickets({ data: [] }, [1])).toBeNull();
    expect(
      readReceipts({ data: { r1: notRegistered, r2: { status: 'ok' }, r9: notRegistered } }, { r1: 1, r2: 2 }),
    ).toEqual([1]);
    expect(readReceipts({ data: [] }, {})).toBeNull();
  });
});
