// Notifications (docs/domain.md#notifications-and-decisions): the checks of POST /notifications in the original's
// order and with its messages, and the events of a creation and a deletion. Pure: what the checks need from the
// read models (the port call of a master id, the parent notification) is looked up by the caller and passed in.

import {
  ApiError,
  type DecisionResponseOptions,
  type NotificationCreated,
  type NotificationDeleted,
  type NotificationType,
} from '@pcas/contracts';

export const POSTABLE_TYPES = ['port', 'ship', 'port_call_decision'] as const;
export type PostableType = (typeof POSTABLE_TYPES)[number];

/** The most decision items one notification may carry. */
export const MAX_DECISIONS = 5;

/** Every item offers these answers; `neutral` exists as a type but no option uses it (as in the original). */
export const RESPONSE_OPTIONS: DecisionResponseOptions = {
  Accept: { type: 'positive' },
  Reject: { type: 'negative' },
};

/** POST /notifications as received (types checked by the gateway; ship_imo may be a number or its digits). */
export interface NotificationInput {
  type?: unknown;
  message?: unknown;
  ship_imo?: unknown;
  port_call_master_id?: unknown;
  decisions?: unknown;
  parent_id?: unknown;
}

/** What the first checks leave: the fields with absent values as null ('' and [] count as absent). */
export interface CheckedNotification {
  type: PostableType;
  message: string;
  ship_imo: number | null;
  port_call_master_id: string | null;
  /** The labels as sent (blank ones are refused later, after the port-call checks). */
  decisions: unknown[] | null;
  parent_id: number | null;
}

const blank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const listOf = (value: unknown): unknown[] | null => {
  if (blank(value)) return null;
  const list = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value as object) : [value];
  return list.length === 0 ? null : list;
};

const invalidValues = (type: PostableType): ApiError => {
  const valid = {
    port: 'Valid assigned value is message.',
    ship: 'Valid assigned values are message, ship_imo and parent_id.',
    port_call_decision: 'Valid assigned values are message, ship_imo, port_call_master_id and decisions.',
  }[type];
  return ApiError.badRequest(`Invalid assigned values for type: ${type}. ${valid}`);
};

/** The checks that need no read model, in the original's order: type, message, ship_imo, the fields per type. */
export function checkNotification(input: NotificationInput): CheckedNotification {
  if (blank(input.type)) throw ApiError.badRequest("Type can't be empty");
  const type = String(input.type) as PostableType;
  if (!POSTABLE_TYPES.includes(type)) {
    throw ApiError.badRequest(`Type should be one of there: ${POSTABLE_TYPES.join(', ')}`);
  }
  if (blank(input.message)) throw ApiError.badRequest("Message can't be empty");
  let shipImo: number | null = null;
  if (!blank(input.ship_imo)) {
    const text = String(input.ship_imo).trim();
    if (!/^\d{1,15}$/.test(text) || typeof input.ship_imo === 'object') {
      throw ApiError.badRequest('Ship imo must be number');
    }
    shipImo = Number(text);
  }
  const checked: CheckedNotification = {
    type,
    message: String(input.message),
    ship_imo: shipImo,
    port_call_master_id: blank(input.port_call_master_id) ? null : String(input.port_call_master_id),
    decisions: listOf(input.decisions),
    parent_id: blank(input.parent_id) ? null : Number(input.parent_id),
  };
  const has = {
    ship_imo: checked.ship_imo !== null,
    master: checked.port_call_master_id !== null,
    decisions: checked.decisions !== null,
    parent: checked.parent_id !== null,
  };
  const valid =
    type === 'port'
      ? !has.ship_imo && !has.master && !has.decisions && !has.parent
      : type === 'ship'
        ? has.ship_imo && !has.master && !has.decisions
        : has.ship_imo && has.master && has.decisions && !has.parent;
  if (!valid) throw invalidValues(type);
  return checked;
}

/** The port call a master id names, as the port-call read model has it (the newest, if several carry it). */
export interface MasterPortCall {
  imo: number;
  status: string;
}

/** A port_call_decision's checks against its port call, then its labels (trimmed). */
export function checkDecisionLabels(checked: CheckedNotification, portCall: MasterPortCall | null): string[] {
  const masterId = checked.port_call_master_id ?? '';
  if (!portCall) throw ApiError.badRequest(`Invalid port call master ID: ${masterId}`);
  if (portCall.status === 'done') throw ApiError.badRequest(`Given port call is closed: ${masterId}`);
  if (portCall.imo !== checked.ship_imo) {
    throw ApiError.badRequest(`IMO: ${checked.ship_imo} does not have port call master ID: ${masterId}`);
  }
  const decisions = checked.decisions ?? [];
  if (decisions.length > MAX_DECISIONS) throw ApiError.badRequest(`Too many decisions. Maximum is: ${MAX_DECISIONS}`);
  return decisions.map((label) => {
    const text = typeof label === 'string' || typeof label === 'number' ? String(label).trim() : '';
    if (text === '') throw ApiError.badRequest('Decision cannot be empty.');
    return text;
  });
}

/** The notification a reply names, as the read model has it. */
export interface ParentNotification {
  id: number;
  type: NotificationType;
  parent_notification_id: number | null;
}

/** A reply's parent: it exists, is itself no reply, and carries a decision. */
export function checkParent(parentId: number, parent: ParentNotification | null): void {
  if (!parent) throw ApiError.badRequest(`Invalid parent ID: ${parentId}`);
  if (parent.parent_notification_id !== null) {
    throw ApiError.badRequest(`Parent ID: ${parentId} already has parent. Only one level of hierarchy permitted.`);
  }
  if (parent.type !== 'port_call_decision') {
    throw ApiError.badRequest(`Parent ID: ${parentId} has invalid type. Only port_call_decision allowed.`);
  }
}

/** Ids taken from the notifier's sequences once every check passed (a refused request takes none). */
export interface NewIds {
  notification: number;
  decision?: number;
  items?: number[];
}

/** The creation event; a port_call_decision carries its decision, one open item per label. */
export function decideCreateNotification(
  checked: CheckedNotification,
  labels: readonly string[],
  ids: NewIds,
  createdBy: number | null,
  now: Date,
): NotificationCreated {
  const decision =
    checked.type === 'port_call_decision' && ids.decision !== undefined
      ? {
          id: ids.decision,
          type: 'port_call_decision' as const,
          port_call_master_id: checked.port_call_master_id ?? '',
          decision_items: labels.map((label, i) => ({
            id: ids.items?.[i] ?? 0,
            label,
            response_options: RESPONSE_OPTIONS,
          })),
        }
      : null;
  return {
    id: ids.notification,
    type: checked.type,
    message: checked.message,
    ship_imo: checked.ship_imo,
    parent_notification_id: checked.type === 'ship' ? checked.parent_id : null,
    created_at: now.toISOString(),
    created_by: createdBy,
    decision,
  };
}

/** The stored notification a deletion needs (null: no such notification). */
export interface StoredNotification {
  id: number;
  children_ids: number[];
  decision_id: number | null;
}

export function decideDeleteNotification(id: number, stored: StoredNotification | null): NotificationDeleted[] {
  if (!stored) throw ApiError.badRequest(`Cannot find notification with given id: ${id}`);
  return [{ id: stored.id, children_ids: stored.children_ids, decision_id: stored.decision_id }];
}
