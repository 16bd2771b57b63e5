// The vis-bridge's events and read models (docs/architecture.md#services): each command appends its events to its
// stream and writes the rows they imply in the same transaction. A stream's writers are serialised by an advisory
// lock taken before the state is read, and every event has a name-based id, so a redelivered or repeated message
// is stored once (the append reports it as a duplicate and nothing is written).

import {
  type InboundVesselRecorded,
  RTZ_STATES,
  type VisEvents,
  type VisNotificationReceived,
  type VisPortRecorded,
  type VisPortWhitelistSet,
  type VisTextMessageReceived,
  type VisTextMessageSent,
  type VisVesselRecorded,
  type VisVoyagePlanReceived,
} from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import { type Db, lockForTransaction, type Queryable } from '@pcas/sql';
import { acknowledges } from '../domain/messages.ts';
import type { PortRow } from '../domain/outgoing.ts';

export type VisEvent = {
  [K in keyof VisEvents]: { id: string; type: K; data: VisEvents[K] };
}[keyof VisEvents];

/** Runs `fn` in a transaction holding the stream's write lock (the state it reads stays current until commit). */
export function withStreamLock<T>(db: Db, streamId: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'vis-stream', streamId);
    return fn(tx);
  });
}

/**
 * Appends the events (under the stream lock, so 'any' cannot interleave with another decision) and projects the
 * ones not stored before. Returns the events that were new.
 */
export async function appendAndProject(
  tx: Queryable,
  store: EventStore,
  streamId: string,
  events: readonly VisEvent[],
  metadata: EventMetadata,
): Promise<VisEvent[]> {
  if (events.length === 0) return [];
  const appended = await store.append(
    streamId,
    events.map((e) => ({ ...e, metadata })),
    { tx, expectedVersion: 'any' },
  );
  const fresh = events.filter((_, i) => !appended.events[i]?.duplicate);
  const by = metadata.user_id ?? null;
  for (const event of fresh) await project(tx, event, by);
  return fresh;
}

/** One stream's events of a batch written together (see appendManyAndProject). */
export interface StreamEvents {
  streamId: string;
  events: readonly VisEvent[];
  metadata: EventMetadata;
}

/**
 * Appends several streams' events in one statement (each stream locked by the store, as a lone append is) and
 * projects the new ones: the messages and notifications with one insert each, the rest one by one. Answers, per
 * entry, its events that were new. For decisions that read no stream state (what was received, what is sent).
 */
export async function appendManyAndProject(
  tx: Queryable,
  store: EventStore,
  entries: readonly StreamEvents[],
): Promise<VisEvent[][]> {
  const writing = entries.filter((e) => e.events.length > 0);
  if (writing.length === 0) return entries.map(() => []);
  const appended = await store.appendMany(
    writing.map((e) => ({ streamId: e.streamId, events: e.events.map((ev) => ({ ...ev, metadata: e.metadata })) })),
    { tx },
  );
  const freshOf = new Map<StreamEvents, VisEvent[]>();
  writing.forEach((entry, i) => {
    freshOf.set(
      entry,
      entry.events.filter((_, j) => !appended[i]?.events[j]?.duplicate),
    );
  });
  await projectMany(
    tx,
    writing.flatMap((entry) =>
      (freshOf.get(entry) ?? []).map((event) => ({ event, by: entry.metadata.user_id ?? null })),
    ),
  );
  return entries.map((e) => freshOf.get(e) ?? []);
}

/** The row writes of several events, as project() would make them in this order (inserts before updates). */
async function projectMany(tx: Queryable, items: readonly { event: VisEvent; by: number | null }[]): Promise<void> {
  const messages: Parameters<typeof insertMessages>[1][number][] = [];
  const notifications: { id: string; n: VisNotificationReceived; by: number | null }[] = [];
  const acknowledgedTexts: string[] = [];
  const acknowledgedPlans: string[] = [];
  const voyagePlansRequested = new Set<number>();
  const rest: { event: VisEvent; by: number | null }[] = [];
  for (const { event, by } of items) {
    if (event.type === 'VisTextMessageReceived') {
      messages.push({ eventId: event.id, m: event.data, payload: event.data.payload, by });
    } else if (event.type === 'VisTextMessageSent' && event.data.transport !== 'agent') {
      messages.push({ eventId: event.id, m: { ...event.data, ack: false }, payload: event.data.payload, by });
    } else if (event.type === 'VisNotificationReceived') {
      notifications.push({ id: event.id, n: event.data, by });
      const kind = acknowledges(event.data);
      if (kind === 'TXT') acknowledgedTexts.push(event.data.message_id);
      else if (kind) acknowledgedPlans.push(event.data.message_id);
    } else if (event.type === 'VisMessageAcknowledged' && event.data.message_type === 'TXT') {
      acknowledgedTexts.push(event.data.message_id);
    } else if (event.type === 'VoyagePlanRequested') {
      voyagePlansRequested.add(event.data.port_call_id);
    } else rest.push({ event, by });
  }
  await insertMessages(tx, messages);
  if (voyagePlansRequested.size > 0) {
    // The markers of a batch of port calls (port-calls.ts) as one upsert: a row once (an upsert may not touch a row
    // twice), in id order so two batches lock shared rows in the same order. Their rows have no other writer that
    // reads voyage_plan_requested, so the place among the rest does not matter.
    await tx.query(
      `INSERT INTO vis.port_calls (port_call_id, voyage_plan_requested)
       SELECT id, true FROM unnest($1::bigint[]) AS id ORDER BY id
       ON CONFLICT (port_call_id) DO UPDATE SET voyage_plan_requested = true`,
      [[...voyagePlansRequested].sort((a, b) => a - b)],
    );
  }
  if (notifications.length > 0) {
    await tx.query(
      `INSERT INTO vis.notifications (event_id, time, from_service_id, message_id, message_type, notification_type,
         subject, payload, created_by, modified_by)
       SELECT n.event_id, n.time, n.from_service_id, n.message_id, n.message_type, n.notification_type, n.subject,
              n.payload::jsonb, n.by, n.by
         FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::text[], $9::int[]) WITH ORDINALITY
           AS n(event_id, time, from_service_id, message_id, message_type, notification_type, subject, payload, by, ord)
        ORDER BY n.ord
       ON CONFLICT (event_id) DO NOTHING`,
      columnsOf(notifications.map((x) => notificationValues(x.id, x.n, x.by))),
    );
  }
  for (const { event, by } of rest) await project(tx, event, by);
  if (acknowledgedTexts.length > 0) {
    await tx.query(
      'UPDATE vis.messages SET ack = true, modified_at = now() WHERE message_id = ANY($1::text[]) AND NOT ack',
      [acknowledgedTexts],
    );
  }
  for (const messageId of acknowledgedPlans) await markAcknowledged(tx, messageId, 'RTZ');
}

/** An acknowledgement's mark: a TXT message by id, or the newest RTA_SENT plan with the id. */
async function markAcknowledged(tx: Queryable, messageId: string, kind: string): Promise<void> {
  if (kind === 'TXT') {
    await tx.query('UPDATE vis.messages SET ack = true, modified_at = now() WHERE message_id = $1 AND NOT ack', [
      messageId,
    ]);
  } else {
    await tx.query(
      `UPDATE vis.voyage_plans SET ack = true, modified_at = now()
        WHERE id = (SELECT id FROM vis.voyage_plans WHERE message_id = $1 AND rtz_state = 'RTA_SENT'
                     ORDER BY id DESC LIMIT 1)`,
      [messageId],
    );
  }
}

/** One row's values as columns of one (the arrays an `unnest` insert of many rows takes). */
const columnsOf = (rows: readonly unknown[][]): unknown[][] => rows[0].map((_, i) => rows.map((row) => row[i]));

/** A notification's values in the order of both its inserts (one row, many rows). */
const notificationValues = (eventId: string, n: VisNotificationReceived, by: number | null): unknown[] => [
  eventId,
  n.time,
  n.from_service_id,
  n.message_id,
  n.message_type,
  n.notification_type,
  n.subject,
  json(n.payload),
  by,
];

const json = (text: string): string => {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return JSON.stringify(text);
  }
};

/** The row writes of one event: the whole read model is these applied in log order. */
export async function project(tx: Queryable, event: VisEvent, by: number | null): Promise<void> {
  switch (event.type) {
    case 'VisVesselRecorded': {
      const v: VisVesselRecorded = event.data;
      await tx.query(
        `INSERT INTO vis.vessels (imo, vessel_name, service_id, service_url, created_by, modified_by)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT (service_id) DO UPDATE SET imo = EXCLUDED.imo, vessel_name = EXCLUDED.vessel_name,
           service_url = EXCLUDED.service_url, modified_by = EXCLUDED.modified_by, modified_at = now()`,
        [v.imo, v.vessel_name, v.service_id, v.service_url, by],
      );
      return;
    }
    case 'VisTextMessageReceived': {
      const m: VisTextMessageReceived & { author?: string; subject?: string; body?: string } = event.data;
      await insertMessage(tx, event.id, m, m.payload, by);
      return;
    }
    case 'VisTextMessageSent': {
      const m: VisTextMessageSent = event.data;
      // Agent mode: the agent posts what it sent back to /agent/rest/vis-messages, which makes the row.
      if (m.transport === 'agent') return;
      await insertMessage(tx, event.id, { ...m, ack: false }, m.payload, by);
      return;
    }
    case 'VisVoyagePlanReceived': {
      const p: VisVoyagePlanReceived = event.data;
      await tx.query(
        `INSERT INTO vis.voyage_plans (event_id, time, from_service_id, to_service_id, message_id, message_type,
           rtz_state_id, rtz_state, rtz_parse_results, payload, ack, created_by, modified_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $12)
         ON CONFLICT (event_id) DO NOTHING`,
        [
          event.id,
          p.time,
          p.from_service_id,
          p.to_service_id,
          p.message_id,
          p.message_type,
          RTZ_STATES.indexOf(p.rtz_state) + 1,
          p.rtz_state,
          json(p.rtz_parse_results),
          json(p.payload),
          p.ack,
          by,
        ],
      );
      return;
    }
    case 'VisRtaSent': {
      const r = event.data;
      if (r.transport === 'agent' || r.plan === undefined) return;
      await project(tx, { id: event.id, type: 'VisVoyagePlanReceived', data: r.plan }, by);
      return;
    }
    case 'VisNotificationReceived': {
      const n: VisNotificationReceived = event.data;
      await tx.query(
        `INSERT INTO vis.notifications (event_id, time, from_service_id, message_id, message_type, notification_type,
           subject, payload, created_by, modified_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $9) ON CONFLICT (event_id) DO NOTHING`,
        notificationValues(event.id, n, by),
      );
      const kind = acknowledges(n);
      if (kind) await markAcknowledged(tx, n.message_id, kind);
      return;
    }
    case 'VisMessageAcknowledged': {
      // Written beside an acknowledging notification by earlier versions (now the notification's own mark).
      await markAcknowledged(tx, event.data.message_id, event.data.message_type);
      return;
    }
    case 'VisPortRecorded': {
      const p: VisPortRecorded = event.data;
      await tx.query(
        `INSERT INTO vis.ports (name, service_id, locodes, created_by, modified_by) VALUES ($1, $2, $3::jsonb, $4, $4)
         ON CONFLICT (service_id) DO UPDATE SET name = EXCLUDED.name, locodes = EXCLUDED.locodes,
           modified_by = EXCLUDED.modified_by, modified_at = now()`,
        [p.name, p.service_id, JSON.stringify(p.locodes), by],
      );
      return;
    }
    case 'VisPortWhitelistSet': {
      const w: VisPortWhitelistSet = event.data;
      const column = w.direction === 'in' ? 'whitelist_in' : 'whitelist_out';
      await tx.query(
        `UPDATE vis.ports SET ${column} = $2, modified_by = $3, modified_at = now() WHERE service_id = $1`,
        [w.service_id, w.whitelist, by],
      );
      return;
    }
    case 'InboundVesselRecorded': {
      const v: InboundVesselRecorded = event.data;
      await tx.query(
        `INSERT INTO vis.inbound_vessels (time, imo, vessel_name, from_service_id, from_service_name, created_by,
           modified_by)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (imo) DO UPDATE SET time = EXCLUDED.time, vessel_name = EXCLUDED.vessel_name,
           from_service_id = EXCLUDED.from_service_id, from_service_name = EXCLUDED.from_service_name,
           modified_by = EXCLUDED.modified_by, modified_at = now()`,
        [v.time, v.imo, v.vessel_name, v.from_service_id, v.from_service_name, by],
      );
      return;
    }
    case 'VoyagePlanRequested': {
      await tx.query(
        `INSERT INTO vis.port_calls (port_call_id, voyage_plan_requested) VALUES ($1, true)
         ON CONFLICT (port_call_id) DO UPDATE SET voyage_plan_requested = true`,
        [event.data.port_call_id],
      );
      return;
    }
    case 'VisDepartureSent': {
      await tx.query(
        `INSERT INTO vis.port_calls (port_call_id, last_etd) VALUES ($1, $2)
         ON CONFLICT (port_call_id) DO UPDATE SET last_etd = EXCLUDED.last_etd`,
        [event.data.port_call_id, event.data.etd],
      );
      return;
    }
  }
}

type MessageRow = {
  time: string;
  from_service_id: string;
  to_service_id: string;
  message_id: string;
  ack: boolean;
  author?: string;
  subject?: string;
  body?: string;
};

async function insertMessages(
  tx: Queryable,
  rows: readonly { eventId: string; m: MessageRow; payload: string; by: number | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length === 1) return insertMessage(tx, rows[0].eventId, rows[0].m, rows[0].payload, rows[0].by);
  await tx.query(
    `INSERT INTO vis.messages (event_id, time, from_service_id, to_service_id, message_id, message_type, payload,
       author, subject, body, ack, created_by, modified_by)
     SELECT r.event_id, r.time, r.from_service_id, r.to_service_id, r.message_id, 'TXT', r.payload::jsonb, r.author,
            r.subject, r.body, r.ack, r.by, r.by
       FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::boolean[], $11::int[]) WITH ORDINALITY
         AS r(event_id, time, from_service_id, to_service_id, message_id, payload, author, subject, body, ack, by, ord)
      ORDER BY r.ord
     ON CONFLICT (event_id) DO NOTHING`,
    columnsOf(rows.map((r) => messageValues(r.eventId, r.m, r.payload, r.by))),
  );
}

/** A text message's values in the order of both its inserts (one row, many rows). */
const messageValues = (eventId: string, m: MessageRow, payload: string, by: number | null): unknown[] => [
  eventId,
  m.time,
  m.from_service_id,
  m.to_service_id,
  m.message_id,
  json(payload),
  m.author ?? null,
  m.subject ?? null,
  m.body ?? null,
  m.ack,
  by,
];

async function insertMessage(
  tx: Queryable,
  eventId: string,
  m: MessageRow,
  payload: string,
  by: number | null,
): Promise<void> {
  await tx.query(
    `INSERT INTO vis.messages (event_id, time, from_service_id, to_service_id, message_id, message_type, payload,
       author, subject, body, ack, created_by, modified_by)
     VALUES ($1, $2, $3, $4, $5, 'TXT', $6::jsonb, $7, $8, $9, $10, $11, $11) ON CONFLICT (event_id) DO NOTHING`,
    messageValues(eventId, m, payload, by),
  );
}

// ---- reads the service decides on ----

export async function visVesselByServiceId(q: Queryable, serviceId: string): Promise<VisVesselRecorded | undefined> {
  const { rows } = await q.query<VisVesselRecorded>(
    'SELECT imo::int AS imo, vessel_name, service_id, service_url FROM vis.vessels WHERE service_id = $1',
    [serviceId],
  );
  return rows[0];
}

/** visVesselByServiceId for several ids in one query. */
export async function visVesselsByServiceIds(
  q: Queryable,
  serviceIds: readonly string[],
): Promise<Map<string, VisVesselRecorded>> {
  const { rows } = await q.query<VisVesselRecorded>(
    'SELECT imo::int AS imo, vessel_name, service_id, service_url FROM vis.vessels WHERE service_id = ANY($1::text[])',
    [serviceIds],
  );
  return new Map(rows.map((r) => [r.service_id, r]));
}

/** The newest VIS service known for an IMO. */
export async function visVesselByImo(q: Queryable, imo: number): Promise<VisVesselRecorded | undefined> {
  const { rows } = await q.query<VisVesselRecorded>(
    `SELECT imo::int AS imo, vessel_name, service_id, service_url FROM vis.vessels WHERE imo = $1
      ORDER BY modified_at DESC, id DESC LIMIT 1`,
    [imo],
  );
  return rows[0];
}

export async function isAcknowledged(q: Queryable, messageId: string): Promise<boolean> {
  const { rows } = await q.query(
    "SELECT 1 FROM vis.notifications WHERE message_id = $1 AND notification_type = 'ACKNOWLEDGEMENT_RECEIVED' LIMIT 1",
    [messageId],
  );
  return rows.length > 0;
}

/** Which of these message ids have an acknowledgement recorded (isAcknowledged for many at once). */
export async function acknowledgedAmong(q: Queryable, messageIds: readonly string[]): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const { rows } = await q.query<{ message_id: string }>(
    `SELECT DISTINCT message_id FROM vis.notifications
      WHERE message_id = ANY($1::text[]) AND notification_type = 'ACKNOWLEDGEMENT_RECEIVED'`,
    [messageIds],
  );
  return new Set(rows.map((r) => r.message_id));
}

export async function portByServiceId(q: Queryable, serviceId: string): Promise<PortRow | undefined> {
  const { rows } = await q.query<PortRow>(
    'SELECT name, service_id, whitelist_in, whitelist_out, locodes FROM vis.ports WHERE service_id = $1',
    [serviceId],
  );
  return rows[0];
}

export async function portsByLocode(q: Queryable, locode: string): Promise<PortRow[]> {
  const { rows } = await q.query<PortRow>(
    `SELECT name, service_id, whitelist_in, whitelist_out, locodes FROM vis.ports
      WHERE locodes @> jsonb_build_array($1::text) ORDER BY id`,
    [locode],
  );
  return rows;
}

export interface StoredPlan {
  message_id: string;
  rtz_parse_results: string;
  payload: Record<string, unknown>;
}

/** The newest voyage plan received from a service. */
export async function newestPlanFrom(q: Queryable, serviceId: string): Promise<StoredPlan | undefined> {
  const { rows } = await q.query<StoredPlan>(
    `SELECT message_id, rtz_parse_results::text AS rtz_parse_results, payload FROM vis.voyage_plans
      WHERE from_service_id = $1 ORDER BY time DESC, id DESC LIMIT 1`,
    [serviceId],
  );
  return rows[0];
}
