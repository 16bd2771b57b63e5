// The notifications and decisions read models (schema `notifier`), written in the transaction of the event that
// changes them, and the one definition of the decorated objects the API and the real-time channels send.
//
// notifier.notifications: one row per notification that exists (`version`: its stream's version). Serves
//   GET /notifications (the newest 100 roots: parent_notification_id IS NULL, created_at DESC) and the replies of
//   a parent (by parent_notification_id).
// notifier.decisions: one row per decision (`version`: the version of `decision-<id>`, 0 until its first event
//   there, since its creation travels with its notification's NotificationCreated). Serves GET /decisions
//   (filters status, notification_id, port_call_master_id) and the port-call auto-close (open ones by master id).
// notifier.decision_items: one row per item, in label order (id).
//
// Decoration. The notification object (sender, ship, decision, replies newest first) is built by one SQL function,
// notifier.notification_object(id), and the decision object by notifier.decision_object(id): the gateway's GETs
// and the notifier's real-time messages select the same function, so the shape lives in one place. The sender's
// name and the vessel's name come from the notifier's copies (notifier.users, notifier.vessels: adapters/copies.ts),
// read when the object is read, so a rename or a deleted user shows as soon as its event is copied. They are
// PL/pgSQL so that their references are resolved when called, not when created (the copies' tables are created
// after these functions). The ship's `id` (ingest's row id of the vessel) is in no event, so it is null here.

import {
  type DecisionResponseOptions,
  type MasterPortCallQuery,
  type MasterPortCallReply,
  type NotificationCreated,
  PORTCALL_PROJECTOR,
  PortcallQueries,
} from '@pcas/contracts';
import type { Bus } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import type { AnsweredItem, StoredDecision } from '../domain/decisions.ts';
import type { MasterPortCall, ParentNotification, StoredNotification } from '../domain/notifications.ts';

// PostgreSQL's text output of a timestamptz at UTC (`2020-02-23 20:15:00+00`), as the original's raw models.
const PG_TEXT = `CREATE OR REPLACE FUNCTION notifier.pg_text(t timestamptz) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
    SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
      || coalesce('.' || nullif(rtrim(to_char(t AT TIME ZONE 'UTC', 'US'), '0'), ''), '') || '+00'
  $$`;

// Who made and last changed a row, and when: the same four fields on every object.
const AUDIT = `CREATE OR REPLACE FUNCTION notifier.audit(created_at timestamptz, created_by integer,
    modified_at timestamptz, modified_by integer) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('created_at', notifier.pg_text(created_at), 'created_by', created_by,
                              'modified_at', notifier.pg_text(modified_at), 'modified_by', modified_by)
  $$`;

const DECISION_OBJECT = `CREATE OR REPLACE FUNCTION notifier.decision_object(decision bigint) RETURNS jsonb
  LANGUAGE plpgsql STABLE AS $$
  BEGIN
    RETURN (
      SELECT jsonb_build_object(
        'id', d.id, 'type', d.type, 'status', d.status, 'notification_id', d.notification_id,
        'port_call_master_id', d.port_call_master_id,
        'decision_items', coalesce((
          SELECT jsonb_agg(jsonb_build_object(
            'id', i.id, 'decision_id', i.decision_id, 'label', i.label, 'response_name', i.response_name,
            'response_type', i.response_type, 'response_options', i.response_options)
            || notifier.audit(i.created_at, i.created_by, i.modified_at, i.modified_by) ORDER BY i.id)
            FROM notifier.decision_items i WHERE i.decision_id = d.id), '[]'::jsonb))
        || notifier.audit(d.created_at, d.created_by, d.modified_at, d.modified_by)
        FROM notifier.decisions d WHERE d.id = decision);
  END $$`;

// A user the gateway deleted (or never knew) is shown as "ex-user", as the original did.
const NOTIFICATION_OBJECT = `CREATE OR REPLACE FUNCTION notifier.notification_object(notification bigint)
  RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
  BEGIN
    RETURN (
      SELECT jsonb_build_object(
        'id', n.id, 'type', n.type, 'message', n.message, 'ship_imo', n.ship_imo,
        'parent_notification_id', n.parent_notification_id,
        'sender', coalesce((
          SELECT jsonb_build_object('first_name', u.first_name, 'last_name', u.last_name,
                   'email', CASE WHEN u.status = 'deleted' THEN 'ex-user' ELSE u.email END, 'status', u.status)
            FROM notifier.users u WHERE u.id = n.created_by),
          jsonb_build_object('first_name', NULL, 'last_name', NULL, 'email', 'ex-user', 'status', NULL)),
        'ship', CASE WHEN n.ship_imo IS NULL THEN NULL ELSE coalesce((
          SELECT jsonb_build_object('id', NULL, 'imo', v.imo, 'vessel_name', v.vessel_name)
            FROM notifier.vessels v WHERE v.imo = n.ship_imo),
          jsonb_build_object('id', NULL, 'imo', n.ship_imo, 'vessel_name', NULL)) END,
        'decision', (SELECT notifier.decision_object(d.id) FROM notifier.decisions d
                      WHERE d.notification_id = n.id ORDER BY d.id LIMIT 1),
        'children', (SELECT jsonb_agg(notifier.notification_object(c.id) ORDER BY c.created_at DESC, c.id DESC)
                       FROM notifier.notifications c WHERE c.parent_notification_id = n.id))
        || notifier.audit(n.created_at, n.created_by, n.modified_at, n.modified_by)
        FROM notifier.notifications n WHERE n.id = notification);
  END $$`;

/** The last columns of a notification and a decision: audit times given by the writer (no default), the stream version. */
const RECORDED_COLUMNS = `created_at timestamptz NOT NULL,
    created_by integer,
    modified_at timestamptz NOT NULL,
    modified_by integer,
    version integer NOT NULL`;

export const NOTIFICATIONS_DDL: readonly string[] = [
  'CREATE SEQUENCE IF NOT EXISTS notifier.notification_ids',
  'CREATE SEQUENCE IF NOT EXISTS notifier.decision_ids',
  'CREATE SEQUENCE IF NOT EXISTS notifier.decision_item_ids',
  `CREATE TABLE IF NOT EXISTS notifier.notifications (
    id bigint PRIMARY KEY,
    type text NOT NULL,
    message text NOT NULL,
    ship_imo bigint,
    parent_notification_id bigint,
    ${RECORDED_COLUMNS}
  )`,
  `CREATE INDEX IF NOT EXISTS notifications_roots_idx ON notifier.notifications (created_at DESC, id DESC)
     WHERE parent_notification_id IS NULL`,
  `CREATE INDEX IF NOT EXISTS notifications_parent_idx ON notifier.notifications (parent_notification_id)
     WHERE parent_notification_id IS NOT NULL`,
  `CREATE TABLE IF NOT EXISTS notifier.decisions (
    id bigint PRIMARY KEY,
    type text NOT NULL,
    status text NOT NULL,
    notification_id bigint NOT NULL,
    port_call_master_id text NOT NULL,
    ${RECORDED_COLUMNS}
  )`,
  'CREATE INDEX IF NOT EXISTS decisions_notification_idx ON notifier.decisions (notification_id)',
  `CREATE INDEX IF NOT EXISTS decisions_open_master_idx ON notifier.decisions (port_call_master_id)
     WHERE status = 'open'`,
  `CREATE TABLE IF NOT EXISTS notifier.decision_items (
    id bigint PRIMARY KEY,
    decision_id bigint NOT NULL,
    label text NOT NULL,
    response_name text,
    response_type text,
    response_options jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    created_by integer,
    modified_at timestamptz NOT NULL,
    modified_by integer
  )`,
  'CREATE INDEX IF NOT EXISTS decision_items_decision_idx ON notifier.decision_items (decision_id)',
  PG_TEXT,
  AUDIT,
  DECISION_OBJECT,
  NOTIFICATION_OBJECT,
];

// ---- reads for the commands' checks ----

/** The port call a master id names (the newest, should several carry it): asked of the projector, its owner. */
export async function masterPortCall(bus: Bus, masterId: string): Promise<MasterPortCall | null> {
  const input: MasterPortCallQuery = { master_id: masterId };
  const reply = await bus.rpc<MasterPortCallReply>(PORTCALL_PROJECTOR, PortcallQueries.masterPortCall, { input });
  return reply ? { imo: Number(reply.imo), status: reply.status } : null;
}

export async function parentNotification(q: Queryable, id: number): Promise<ParentNotification | null> {
  const { rows } = await q.query<{ id: string; type: ParentNotification['type']; parent: string | null }>(
    'SELECT id, type, parent_notification_id AS parent FROM notifier.notifications WHERE id = $1',
    [id],
  );
  const row = rows[0];
  return row
    ? { id: Number(row.id), type: row.type, parent_notification_id: row.parent === null ? null : Number(row.parent) }
    : null;
}

/** The next ids of a sequence (`notification_ids`, `decision_ids`, `decision_item_ids`). */
export async function nextIds(q: Queryable, sequence: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await q.query<{ id: string }>(
    `SELECT nextval('notifier.${sequence}') AS id FROM generate_series(1, $1::int)`,
    [count],
  );
  return rows.map((r) => Number(r.id));
}

/** A notification row locked for its deletion, with its replies and decision. */
export async function lockNotification(
  q: Queryable,
  id: number,
): Promise<{ stored: StoredNotification | null; version: number }> {
  const { rows } = await q.query<{ version: number }>(
    'SELECT version FROM notifier.notifications WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!rows[0]) return { stored: null, version: 0 };
  const [children, decision] = await Promise.all([
    q.query<{ id: string }>('SELECT id FROM notifier.notifications WHERE parent_notification_id = $1 ORDER BY id', [
      id,
    ]),
    q.query<{ id: string }>('SELECT id FROM notifier.decisions WHERE notification_id = $1 ORDER BY id LIMIT 1', [id]),
  ]);
  return {
    stored: {
      id,
      children_ids: children.rows.map((r) => Number(r.id)),
      decision_id: decision.rows[0] ? Number(decision.rows[0].id) : null,
    },
    version: rows[0].version,
  };
}

interface DecisionRow {
  id: string;
  status: 'open' | 'closed';
  notification_id: string;
  port_call_master_id: string;
  message: string;
  ship_imo: string | null;
  version: number;
}

const toDecision = (row: DecisionRow): StoredDecision => ({
  id: Number(row.id),
  status: row.status,
  notification_id: Number(row.notification_id),
  port_call_master_id: row.port_call_master_id,
  notification_message: row.message,
  ship_imo: row.ship_imo === null ? null : Number(row.ship_imo),
});

const DECISION_SELECT = `SELECT d.id, d.status, d.notification_id, d.port_call_master_id, d.version,
         n.message, n.ship_imo
    FROM notifier.decisions d JOIN notifier.notifications n ON n.id = d.notification_id`;

/** A decision locked for a command on its stream, with the version of `decision-<id>`. */
export async function lockDecision(
  q: Queryable,
  id: number,
): Promise<{ decision: StoredDecision | null; version: number }> {
  const { rows } = await q.query<DecisionRow>(`${DECISION_SELECT} WHERE d.id = $1 FOR UPDATE OF d`, [id]);
  return rows[0] ? { decision: toDecision(rows[0]), version: rows[0].version } : { decision: null, version: 0 };
}

/** A decision item and its decision, the decision locked. */
export async function lockDecisionItem(
  q: Queryable,
  itemId: number,
): Promise<{ found: AnsweredItem | null; version: number }> {
  const { rows } = await q.query<DecisionRow & { item_id: string; label: string; options: DecisionResponseOptions }>(
    `${DECISION_SELECT.replace('SELECT', 'SELECT i.id AS item_id, i.label, i.response_options AS options,')}
       JOIN notifier.decision_items i ON i.decision_id = d.id
      WHERE i.id = $1 FOR UPDATE OF d`,
    [itemId],
  );
  const row = rows[0];
  if (!row) return { found: null, version: 0 };
  return {
    found: {
      item: { id: Number(row.item_id), label: row.label, response_options: row.options },
      decision: toDecision(row),
    },
    version: row.version,
  };
}

/** Ids of the open decisions of a master id (the auto-close's candidates). */
export async function openDecisionIds(q: Queryable, masterId: string): Promise<number[]> {
  const { rows } = await q.query<{ id: string }>(
    "SELECT id FROM notifier.decisions WHERE port_call_master_id = $1 AND status = 'open' ORDER BY id",
    [masterId],
  );
  return rows.map((r) => Number(r.id));
}

/** Whether any decision is open: one probe of the open-decisions index, so a port-call change usually costs no more. */
export async function anyOpenDecision(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ open: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM notifier.decisions WHERE status = 'open') AS open",
  );
  return rows[0]?.open === true;
}

/** The decorated notification object (null: no such notification). */
export async function notificationObject(q: Queryable, id: number): Promise<unknown> {
  const { rows } = await q.query<{ o: unknown }>('SELECT notifier.notification_object($1) AS o', [id]);
  return rows[0]?.o ?? null;
}

// ---- writes, in the transaction of the event ----

export async function saveNotificationCreated(q: Queryable, e: NotificationCreated): Promise<void> {
  await q.query(
    `INSERT INTO notifier.notifications
       (id, type, message, ship_imo, parent_notification_id, created_at, created_by, modified_at, modified_by, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $7, 1)`,
    [e.id, e.type, e.message, e.ship_imo, e.parent_notification_id, e.created_at, e.created_by],
  );
  const d = e.decision;
  if (!d) return;
  await q.query(
    `INSERT INTO notifier.decisions (id, type, status, notification_id, port_call_master_id, created_at, created_by,
                                     modified_at, modified_by, version)
     VALUES ($1, $2, 'open', $3, $4, $5, $6, $5, $6, 0)`,
    [d.id, d.type, e.id, d.port_call_master_id, e.created_at, e.created_by],
  );
  for (const item of d.decision_items) {
    await q.query(
      `INSERT INTO notifier.decision_items (id, decision_id, label, response_options, created_at, created_by,
                                            modified_at, modified_by)
       VALUES ($1, $2, $3, $4, $5, $6, $5, $6)`,
      [item.id, d.id, item.label, JSON.stringify(item.response_options), e.created_at, e.created_by],
    );
  }
}

async function deleteDecisionRows(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('DELETE FROM notifier.decision_items WHERE decision_id = ANY($1::bigint[])', [ids]);
  await q.query('DELETE FROM notifier.decisions WHERE id = ANY($1::bigint[])', [ids]);
}

/** A notification, its replies and every decision of them. */
export async function saveNotificationDeleted(q: Queryable, ids: readonly number[]): Promise<void> {
  const { rows } = await q.query<{ id: string }>(
    'SELECT id FROM notifier.decisions WHERE notification_id = ANY($1::bigint[])',
    [ids],
  );
  await deleteDecisionRows(
    q,
    rows.map((r) => Number(r.id)),
  );
  await q.query('DELETE FROM notifier.notifications WHERE id = ANY($1::bigint[])', [ids]);
}

export async function saveDecisionDeleted(q: Queryable, decisionId: number): Promise<void> {
  await deleteDecisionRows(q, [decisionId]);
}

/** The decision's stream moved on: its version, who changed it and when. */
export async function touchDecision(
  q: Queryable,
  decisionId: number,
  version: number,
  by: number | null,
  change: { status?: 'closed' },
): Promise<void> {
  await q.query(
    `UPDATE notifier.decisions SET version = $2, modified_at = now(), modified_by = $3,
            status = coalesce($4, status) WHERE id = $1`,
    [decisionId, version, by, change.status ?? null],
  );
}

export async function saveItemAnswer(
  q: Queryable,
  itemId: number,
  name: string | null,
  type: string | null,
  by: number | null,
): Promise<void> {
  await q.query(
    `UPDATE notifier.decision_items SET response_name = $2, response_type = $3, modified_at = now(), modified_by = $4
      WHERE id = $1`,
    [itemId, name, type, by],
  );
}
