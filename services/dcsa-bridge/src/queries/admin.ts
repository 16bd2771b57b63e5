// What the web UI shows of DCSA (docs/dcsa.md#the-web-ui): the partners, each partner's outbox (pending, refused,
// delivered) and the DCSA timestamps of a vessel, received and sent, with what they became on the timeline.

import { equalities, type Queryable, whereAll } from '@pcas/sql';

export async function listPartners(db: Queryable): Promise<unknown[]> {
  const { rows } = await db.query(
    `SELECT p.id, p.name, p.api_key_id, p.base_url, p.vessel_imos, p.active, p.created_at, p.modified_at,
            (s.partner_id IS NOT NULL) AS has_credentials,
            (SELECT count(*)::int FROM dcsa.outbox o WHERE o.partner_id = p.id AND o.status = 'pending') AS pending,
            (SELECT count(*)::int FROM dcsa.outbox o WHERE o.partner_id = p.id AND o.status = 'refused') AS refused,
            (SELECT count(*)::int FROM dcsa.outbox o WHERE o.partner_id = p.id AND o.status = 'delivered') AS delivered
       FROM dcsa.partners p LEFT JOIN dcsa.partner_secrets s ON s.partner_id = p.id
      ORDER BY p.id`,
  );
  return rows;
}

export const OUTBOX_STATUSES = ['pending', 'refused', 'delivered'] as const;

export async function listOutbox(
  db: Queryable,
  query: { partner_id?: number; status?: string; limit: number },
): Promise<unknown[]> {
  const params: unknown[] = [];
  const where = whereAll(equalities({ 'o.partner_id': query.partner_id, 'o.status': query.status }, params));
  params.push(query.limit);
  const { rows } = await db.query(
    `SELECT o.id::int AS id, o.partner_id, p.name AS partner_name, o.method, o.path, o.body, o.status, o.attempts,
            o.next_attempt_at, o.last_error, o.created_at, o.delivered_at
       FROM dcsa.outbox o JOIN dcsa.partners p ON p.id = o.partner_id
      ${where}
      ORDER BY o.id DESC LIMIT $${params.length}`,
    params,
  );
  return rows;
}

export async function listDcsaTimestamps(db: Queryable, query: { imo?: number; limit: number }): Promise<unknown[]> {
  const params: unknown[] = [];
  const where = whereAll(equalities({ 't.imo': query.imo }, params));
  params.push(query.limit);
  const { rows } = await db.query(
    `SELECT t.timestamp_id, t.direction, t.classifier, t.date_time, t.imo, pc.vessel_name, t.time_type, t.state,
            t.s211_status, t.s211_error, s.service_type, s.event_type, s.cancelled, s.declined, t.partner_id,
            p.name AS partner_name, t.body->>'replyToTimestampID' AS reply_to, t.body->>'remark' AS remark,
            t.received_at
       FROM dcsa.timestamps t
       LEFT JOIN dcsa.services s ON s.service_id = t.service_id
       LEFT JOIN dcsa.port_calls pc ON pc.port_call_id = t.port_call_id
       JOIN dcsa.partners p ON p.id = t.partner_id
      ${where}
      ORDER BY t.seq DESC LIMIT $${params.length}`,
    params,
  );
  return rows;
}
