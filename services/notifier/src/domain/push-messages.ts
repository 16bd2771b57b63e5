// Push notifications to the mobile app (docs/domain.md#push-notifications), pure: who receives a push, its title,
// each recipient's body, and the Expo messages it becomes. Two kinds, as the original: NOTIFICATION (a notification
// was created, or a decision item answered) and VESSEL (a data source's new timestamp joined a pinned vessel's
// port call). Tokens are named by their row id here; the sender looks the token up only when it sends.

import type { NotificationCreated } from '@pcas/contracts';
import { defaultTimestampLabel, timestampLabelKey } from '@pcas/s211';

/** Expo takes at most 100 messages per request. */
export const EXPO_BATCH_SIZE = 100;

export type PushType = 'NOTIFICATION' | 'VESSEL';

/** A registered device: its row id in notifier.push_tokens and whose it is. */
export interface DeviceOwner {
  token_id: number;
  user_id: number;
}

/** One push ready to send: the same title and data for all, a body per device. */
export interface Push {
  /** Names the push for idempotency (a redelivered event makes the same push, sent once). */
  key: string;
  type: PushType;
  title: string;
  /** What the app receives in `data.data` (NOTIFICATION: the notification as GET /notifications serves it). */
  data?: unknown;
  /** VESSEL: the vessel's IMO, in `data.vessel_id`. */
  vessel_id?: number;
  /** Each device's body, and its own `data.data` where it differs (VESSEL: its user's synthetic notification). */
  recipients: { token_id: number; body: string; data?: unknown }[];
}

/** An Expo push message as the original's push service sent it. */
export interface ExpoMessage {
  to: string;
  sound: 'default';
  title: string;
  body: string;
  data: { id: string; type: PushType; data?: unknown; vessel_id?: number };
  channelId: 'notification';
  priority: 'high';
}

const shipName = (imo: number, vesselName: string | null | undefined, ship = 'Ship'): string =>
  vesselName?.trim() ? vesselName : `${ship} #${imo}`;

/** The title of a notification's push. */
export function notificationTitle(
  type: NotificationCreated['type'],
  imo: number | null,
  vesselName: string | null,
): string {
  if (type === 'port' || imo === null) return 'Port notification';
  if (type === 'port_call_decision') return `New decision for ${shipName(imo, vesselName, 'ship')}`;
  if (type === 'port_call_decision_response') return `New response for ${shipName(imo, vesselName, 'ship')}`;
  return shipName(imo, vesselName);
}

/**
 * Who gets a notification's push: every registered device but the sender's; a notification about a ship (ship,
 * decision, response) only those of users who pinned that ship.
 */
export function notificationRecipients(
  notification: Pick<NotificationCreated, 'type' | 'ship_imo' | 'created_by'>,
  devices: readonly DeviceOwner[],
  pinnedBy: ReadonlySet<number>,
): DeviceOwner[] {
  const aboutShip = notification.type !== 'port' && notification.ship_imo !== null;
  return devices.filter((d) => d.user_id !== notification.created_by && (!aboutShip || pinnedBy.has(d.user_id)));
}

/**
 * The NOTIFICATION push of a created notification; null when nobody receives it. `shown` is the notification as
 * GET /notifications and `notifications-changed` serve it (with `sender` and `ship`): the original mobile app's
 * toast reads `data.data.sender.email` when a push is tapped, so the event's bare data would crash it.
 */
export function notificationPush(
  notification: NotificationCreated,
  shown: unknown,
  vesselName: string | null,
  devices: readonly DeviceOwner[],
  pinnedBy: ReadonlySet<number>,
): Push | null {
  const recipients = notificationRecipients(notification, devices, pinnedBy);
  if (recipients.length === 0) return null;
  return {
    key: `notification-${notification.id}`,
    type: 'NOTIFICATION',
    title: notificationTitle(notification.type, notification.ship_imo, vesselName),
    data: shown,
    recipients: recipients.map((r) => ({ token_id: r.token_id, body: notification.message })),
  };
}

/** `YYYY-MM-DD HH:MM` of an instant in a time zone (IANA name). */
export function formatInZone(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

const isTimeZone = (zone: string | null | undefined): zone is string => {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** The user's zone, else the port's default, else UTC (an unknown name counts as none). */
export function recipientTimeZone(userZone: string | null | undefined, portDefault: string | null | undefined): string {
  if (isTimeZone(userZone)) return userZone;
  if (isTimeZone(portDefault)) return portDefault;
  return 'UTC';
}

/** A timestamp's label: the port's stored text, else the S-211 name, else the key itself. */
export function timestampLabel(timeType: string, state: string, stored: ReadonlyMap<string, string>): string {
  const key = timestampLabelKey(timeType, state);
  return stored.get(key) ?? defaultTimestampLabel(timeType, state) ?? key;
}

/** What a VESSEL push is about: the timestamp as the data source posted it. */
export interface VesselNews {
  /** The timestamp's id (the global position of its TimestampReceived event). */
  timestamp_id: number;
  imo: number;
  vessel_name: string | null;
  time_type: string;
  state: string;
  /** ISO 8601. */
  time: string;
}

/** A user who pinned the vessel: their zone and devices. */
export interface PinnedUser {
  user_id: number;
  time_zone: string | null;
  token_ids: number[];
}

/** The notification the web UI shows for a VESSEL push (never stored), sent on `notifications-changed-<userId>`. */
export interface SyntheticShipNotification {
  id: string;
  type: 'ship';
  ship_imo: number;
  message: string;
  created_at: string;
  sender: { email: 'system' };
  ship: { imo: number; vessel_name: string | null };
}

export interface VesselPushOutcome {
  push: Push | null;
  /** One per user who pinned the vessel, whether or not they have a device. */
  notifications: { user_id: number; notification: SyntheticShipNotification }[];
}

/**
 * The VESSEL push of a timestamp that joined a port call: every user who pinned the vessel, each body the
 * translated label and the time in that user's zone (`<label>\r\n<YYYY-MM-DD HH:MM>`), plus the synthetic
 * notification each such user's web UI receives, which is also each device's `data.data` (the original mobile app
 * shows it when the push is tapped). `now` stamps the synthetic notifications.
 */
export function vesselPush(
  news: VesselNews,
  users: readonly PinnedUser[],
  options: { translations: ReadonlyMap<string, string>; portTimeZone: string | null; now: Date },
): VesselPushOutcome {
  const label = timestampLabel(news.time_type, news.state, options.translations);
  const at = new Date(news.time);
  const id = `${Math.floor(options.now.getTime() / 1000)}-${news.timestamp_id}`;
  const recipients: Push['recipients'] = [];
  const notifications: VesselPushOutcome['notifications'] = [];
  for (const user of users) {
    const body = `${label}\r\n${formatInZone(at, recipientTimeZone(user.time_zone, options.portTimeZone))}`;
    const notification: SyntheticShipNotification = {
      id,
      type: 'ship',
      ship_imo: news.imo,
      message: body,
      created_at: options.now.toISOString(),
      sender: { email: 'system' },
      ship: { imo: news.imo, vessel_name: news.vessel_name },
    };
    for (const token_id of user.token_ids) recipients.push({ token_id, body, data: notification });
    notifications.push({ user_id: user.user_id, notification });
  }
  const push: Push | null =
    recipients.length === 0
      ? null
      : {
          key: `vessel-${news.timestamp_id}`,
          type: 'VESSEL',
          title: shipName(news.imo, news.vessel_name),
          vessel_id: news.imo,
          recipients,
        };
  return { push, notifications };
}

/** A push in parts of at most EXPO_BATCH_SIZE devices: each part is one request to Expo (and one job). */
export function splitPush(push: Push, size = EXPO_BATCH_SIZE): Push[] {
  const parts: Push[] = [];
  for (let i = 0; i < push.recipients.length; i += size) {
    parts.push({ ...push, recipients: push.recipients.slice(i, i + size) });
  }
  return parts;
}

/**
 * A push's Expo messages, with the devices they go to; `tokenOf` gives a device's token at sending time (a device
 * removed since is skipped). `messageId` is the app's `data.id`.
 */
export function expoMessages(
  push: Push,
  tokenOf: (tokenId: number) => string | undefined,
  messageId: string,
): { token_ids: number[]; messages: ExpoMessage[] } {
  const shared: ExpoMessage['data'] = { id: messageId, type: push.type };
  if (push.data !== undefined) shared.data = push.data;
  if (push.vessel_id !== undefined) shared.vessel_id = push.vessel_id;
  const out: { token_ids: number[]; messages: ExpoMessage[] } = { token_ids: [], messages: [] };
  for (const recipient of push.recipients) {
    const to = tokenOf(recipient.token_id);
    if (to === undefined) continue;
    out.token_ids.push(recipient.token_id);
    out.messages.push({
      to,
      sound: 'default',
      title: push.title,
      body: recipient.body,
      data: recipient.data === undefined ? shared : { ...shared, data: recipient.data },
      channelId: 'notification',
      priority: 'high',
    });
  }
  return out;
}

/** What Expo answered for the messages of one request (tickets, in message order). */
export interface TicketOutcome {
  /** Receipt id → device, to check later whether the message was delivered. */
  receipts: Record<string, number>;
  /** Devices Expo already refused as not registered. */
  unregistered: number[];
}

const ticketList = (response: unknown): unknown[] | null => {
  const data = (response as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data : null;
};

const isDeviceNotRegistered = (ticket: unknown): boolean => {
  const t = ticket as { status?: unknown; details?: { error?: unknown } } | null;
  return t?.status === 'error' && t.details?.error === 'DeviceNotRegistered';
};

/** Reads a push response (`{data: [ticket, …]}`); null when it is not one (then the request is tried again). */
export function readTickets(response: unknown, tokenIds: readonly number[]): TicketOutcome | null {
  const tickets = ticketList(response);
  if (!tickets || tickets.length !== tokenIds.length) return null;
  const outcome: TicketOutcome = { receipts: {}, unregistered: [] };
  tickets.forEach((ticket, i) => {
    const t = ticket as { status?: unknown; id?: unknown } | null;
    if (t?.status === 'ok' && typeof t.id === 'string') outcome.receipts[t.id] = tokenIds[i];
    else if (isDeviceNotRegistered(ticket)) outcome.unregistered.push(tokenIds[i]);
  });
  return outcome;
}

/** Reads a receipts response (`{data: {receiptId: receipt}}`): the devices Expo found not registered. */
export function readReceipts(response: unknown, receipts: Readonly<Record<string, number>>): number[] | null {
  const data = (response as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const unregistered: number[] = [];
  for (const [id, receipt] of Object.entries(data as Record<string, unknown>)) {
    if (Object.hasOwn(receipts, id) && isDeviceNotRegistered(receipt)) unregistered.push(receipts[id]);
  }
  return unregistered;
}
