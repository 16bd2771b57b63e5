// Events of the notifier's streams: push tokens, pinned vessels, notifications and decisions. Re-exported by
// events.ts, which says how events are named.

// ---- pushtoken-<id> streams (owned by the notifier) ----

/** Owned by the notifier (it moved there from the gateway; the streams and their ids carry on). */
export const pushTokenStream = (id: number): string => `pushtoken-${id}`;

/** A device's push token, one per (platform, installation_id); registering again moves it to the caller. */
/**
 * A device registered for pushes, or moved to another user, or given a new token. The token itself is not here:
 * anyone holding it can push to the device, and the log is published and kept forever; it lives in
 * notifier.push_tokens, written in this event's transaction.
 */
export interface PushTokenRegistered {
  id: number;
  user_id: number;
  platform: string;
  installation_id: string;
  /** The user the device was registered to before, if any. */
  previous_user_id: number | null;
}

/** The token is gone: the device unregistered (empty token) or the push service reported it stale. */
export interface PushTokenRemoved {
  id: number;
  user_id: number;
  platform: string;
  installation_id: string;
  reason: 'unregistered' | 'stale';
}

export interface PushTokenEvents {
  PushTokenRegistered: PushTokenRegistered;
  PushTokenRemoved: PushTokenRemoved;
}

// ---- notifier: pins-<userId> streams (a user's pinned vessels) ----

/**
 * PUT /pinned-vessel-ids: the user's whole list of pinned IMOs from now on, in the order given (the web UI shows
 * pinned vessels first, in this order); an empty list unpins all. Appended only when the list changes. Routing key
 * `pins.PinnedVesselsSet`; real time sends `portcalls-changed-<user_id>` for it.
 */
export interface PinnedVesselsSet {
  user_id: number;
  imos: number[];
}

export interface PinEvents {
  PinnedVesselsSet: PinnedVesselsSet;
}

export const pinsStream = (userId: number): string => `pins-${userId}`;
export const PINNED_VESSELS_SET_ROUTING_KEY = 'pins.PinnedVesselsSet';

// ---- notification-<id>, decision-<id> streams (owned by the notifier): notifications and decisions ----
// Ids come from sequences in schema `notifier`. A decision is created with its port_call_decision notification
// (carried by that NotificationCreated); what happens to it later is on its own stream. Times are UTC ISO 8601.

export const notificationStream = (id: number): string => `notification-${id}`;
export const decisionStream = (id: number): string => `decision-${id}`;

/** `port_call_decision_response` is made by the notifier when a decision item is answered; it cannot be posted. */
export type NotificationType = 'port' | 'ship' | 'port_call_decision' | 'port_call_decision_response';

export type DecisionResponseType = 'positive' | 'negative' | 'neutral';

/** The answers an item offers, by name (`{"Accept":{"type":"positive"},"Reject":{"type":"negative"}}`). */
export type DecisionResponseOptions = Record<string, { type: DecisionResponseType }>;

export interface DecisionItemCreated {
  id: number;
  label: string;
  response_options: DecisionResponseOptions;
}

export interface DecisionCreatedData {
  id: number;
  type: 'port_call_decision';
  port_call_master_id: string;
  /** One item per label, in the order given. */
  decision_items: DecisionItemCreated[];
}

/** POST /notifications, or a decision item's answer (then type port_call_decision_response, made by the notifier). */
export interface NotificationCreated {
  id: number;
  type: NotificationType;
  message: string;
  ship_imo: number | null;
  parent_notification_id: number | null;
  created_at: string;
  created_by: number | null;
  /** The decision created with a port_call_decision notification (status open); null otherwise. */
  decision: DecisionCreatedData | null;
}

/** DELETE /notifications/:id: its replies and its decision go with it. */
export interface NotificationDeleted {
  id: number;
  children_ids: number[];
  decision_id: number | null;
}

export interface NotificationEvents {
  NotificationCreated: NotificationCreated;
  NotificationDeleted: NotificationDeleted;
}

/** POST /decision-item-response: the item's answer (null name and type: cleared); the reply is a new notification. */
export interface DecisionItemAnswered {
  decision_id: number;
  item_id: number;
  response_name: string | null;
  response_type: DecisionResponseType | null;
  /** The port_call_decision_response notification created with it (its own NotificationCreated). */
  response_notification_id: number;
}

/** Closed by a user (POST /close-decision) or because its port call became done. */
export interface DecisionClosed {
  decision_id: number;
  notification_id: number;
  port_call_master_id: string;
  reason: 'user' | 'port_call_done';
}

/** DELETE /decisions: the decision and its items; its notification stays (with no decision). */
export interface DecisionDeleted {
  decision_id: number;
  notification_id: number;
}

export interface DecisionEvents {
  DecisionItemAnswered: DecisionItemAnswered;
  DecisionClosed: DecisionClosed;
  DecisionDeleted: DecisionDeleted;
}
