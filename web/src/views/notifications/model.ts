// The notification and decision objects as GET notifications/100, GET decisions and the notifications-changed
// channel give them, and the guarded reads the views make of them: every field may be missing or null (a
// deleted user, a vessel the port has not seen, a synthetic message on the user's own channel), and none of
// that may break a view.

export const NOTIFICATIONS_PATH = 'notifications/100';
export const DECISIONS_PATH = 'decisions';
export const NOTIFICATIONS_CHANNEL = 'notifications-changed';

export interface Sender {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
}

export interface DecisionItem {
  id: number;
  label?: string | null;
  response_name?: string | null;
  response_type?: string | null;
  response_options?: Record<string, { type?: string }> | null;
  modified_at?: string | null;
}

export interface Decision {
  id: number;
  status?: string | null;
  notification_id?: number | null;
  port_call_master_id?: string | null;
  decision_items?: DecisionItem[] | null;
  created_at?: string | null;
}

export interface Notification {
  id?: number | string | null;
  type?: string | null;
  message?: string | null;
  created_at?: string | null;
  ship_imo?: number | string | null;
  parent_notification_id?: number | null;
  sender?: Sender | null;
  ship?: { imo?: number | null; vessel_name?: string | null } | null;
  decision?: Decision | null;
  children?: Notification[] | null;
}

export type Tab = 'all' | 'ship' | 'port';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The list as an array of objects, whatever came (an error page, null, a stray entry). */
export function notificationsOf(body: unknown): Notification[] {
  return Array.isArray(body) ? (body.filter(isObject) as Notification[]) : [];
}

export function senderEmail(notification: Notification | null | undefined): string {
  const email = notification?.sender?.email;
  return typeof email === 'string' ? email : '';
}

export function messageOf(notification: Notification | null | undefined): string {
  const message = notification?.message;
  return typeof message === 'string' ? message : message == null ? '' : String(message);
}

/** A port notification concerns the whole port; every other kind (ship, decision, reply) a vessel. */
export function isPortNotification(notification: Notification): boolean {
  return notification.type === 'port' || (notification.type == null && notification.ship_imo == null);
}

export function inTab(notification: Notification, tab: Tab): boolean {
  if (tab === 'all') return true;
  return tab === 'port' ? isPortNotification(notification) : !isPortNotification(notification);
}

/** The vessel a notification is about, by name or else its IMO; null for a port notification. */
export function vesselOf(notification: Notification): string | null {
  if (isPortNotification(notification)) return null;
  const name = notification.ship?.vessel_name;
  if (typeof name === 'string' && name.trim()) return name;
  const imo = notification.ship?.imo ?? notification.ship_imo;
  return imo == null || imo === '' ? null : `IMO ${imo}`;
}

export function childrenOf(notification: Notification): Notification[] {
  return notificationsOf(notification.children);
}

export function itemsOf(decision: Decision | null | undefined): DecisionItem[] {
  const items = decision?.decision_items;
  return Array.isArray(items) ? items.filter(isObject) : [];
}

/** The answers an item offers, as the API lists them (Accept, Reject). */
export function optionsOf(item: DecisionItem): string[] {
  return isObject(item.response_options) ? Object.keys(item.response_options) : [];
}

/**
 * Who gave an item its current answer: the newest reply the answer made ("Accept for Pilot at …"), whose
 * sender answered. Null when unanswered or when the reply is not among the notification's replies.
 */
export function answeredBy(item: DecisionItem, notification: Notification | null | undefined): string | null {
  if (!item.response_name || !notification) return null;
  const prefix = `${item.response_name} for ${item.label ?? ''} at `;
  const reply = childrenOf(notification).find(
    (child) => child.type === 'port_call_decision_response' && messageOf(child).startsWith(prefix),
  );
  return reply ? senderEmail(reply) || null : null;
}

/** The first run of digits in what the user typed or picked ("9074729 · Test Vessel"), as the IMO. */
export function imoFrom(text: string): string | null {
  const match = /^\s*(?:IMO\s*)?(\d{1,15})\b/i.exec(text);
  return match ? match[1]! : null;
}
