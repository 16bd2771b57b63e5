// The outbox's tables (docs/dcsa.md#sending): messages queued per partner in the transaction of what caused them,
// the lease that lets one deliverer at a time work a partner's queue, and each message's fate.

import type { Db, Queryable } from '@pcas/sql';
import type { OutgoingMessage } from '../domain/outbox.ts';

export interface QueuedRow {
  id: string;
  partner_id: number;
  method: string;
  path: string;
  body: Record<string, unknown>;
  attempts: number;
}

/** Queues messages in order; one already queued under its dedupe key is left as it is. */
export async function enqueue(tx: Queryable, partnerId: number, messages: readonly OutgoingMessage[]): Promise<void> {
  for (const m of messages) {
    await tx.query(
      `INSERT INTO dcsa.outbox (partner_id, dedupe_key, method, path, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (partner_id, dedupe_key) DO NOTHING`,
      [partnerId, m.dedupe_key, m.method, m.path, m.body],
    );
  }
}

export async function partnersDue(db: Queryable): Promise<number[]> {
  const { rows } = await db.query<{ partner_id: number }>(
    "SELECT DISTINCT partner_id FROM dcsa.outbox WHERE status = 'pending' AND next_attempt_at <= now()",
  );
  return rows.map((r) => r.partner_id);
}

/** Takes the partner's lease for `ms` unless another deliverer holds it; true when taken. */
export async function takeLease(db: Queryable, partnerId: number, holder: string, ms: number): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO dcsa.outbox_leases (partner_id, holder, until) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (partner_id) DO UPDATE SET holder = $2, until = now() + $3 * interval '1 millisecond'
       WHERE dcsa.outbox_leases.until < now() OR dcsa.outbox_leases.holder = $2
     RETURNING partner_id`,
    [partnerId, holder, ms],
  );
  return rows.length > 0;
}

export async function releaseLease(db: Queryable, partnerId: number, holder: string): Promise<void> {
  await db.query('DELETE FROM dcsa.outbox_leases WHERE partner_id = $1 AND holder = $2', [partnerId, holder]);
}

/** The head of the partner's queue, if it is due (a later message never overtakes it). */
export async function headOfQueue(
  db: Queryable,
  partnerId: number,
): Promise<(QueuedRow & { due: boolean }) | undefined> {
  const { rows } = await db.query<QueuedRow & { due: boolean }>(
    `SELECT id::text, partner_id, method, path, body, attempts, next_attempt_at <= now() AS due
       FROM dcsa.outbox WHERE partner_id = $1 AND status = 'pending' ORDER BY id LIMIT 1`,
    [partnerId],
  );
  return rows[0];
}

export async function markDelivered(db: Queryable, id: string): Promise<void> {
  await db.query(
    "UPDATE dcsa.outbox SET status = 'delivered', attempts = attempts + 1, delivered_at = now(), last_error = NULL WHERE id = $1",
    [id],
  );
}

export async function markRefused(db: Queryable, id: string, error: string): Promise<void> {
  await db.query("UPDATE dcsa.outbox SET status = 'refused', attempts = attempts + 1, last_error = $2 WHERE id = $1", [
    id,
    error,
  ]);
}

export async function markRetry(db: Queryable, id: string, error: string, delayMs: number): Promise<void> {
  await db.query(
    `UPDATE dcsa.outbox SET attempts = attempts + 1, last_error = $2,
       next_attempt_at = now() + $3 * interval '1 millisecond' WHERE id = $1`,
    [id, error, delayMs],
  );
}

/** An administrator's "try again": refused messages of the partner go back into the queue, in their order. */
export async function requeueRefused(db: Db, partnerId: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE dcsa.outbox SET status = 'pending', attempts = 0, next_attempt_at = now()
      WHERE partner_id = $1 AND status = 'refused'`,
    [partnerId],
  );
  return rowCount;
}

export async function credentialsOf(db: Queryable, partnerId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ credentials: string }>(
    'SELECT credentials FROM dcsa.partner_secrets WHERE partner_id = $1',
    [partnerId],
  );
  return rows[0]?.credentials;
}

export async function saveCredentials(tx: Queryable, partnerId: number, credentials: string): Promise<void> {
  await tx.query(
    `INSERT INTO dcsa.partner_secrets (partner_id, credentials) VALUES ($1, $2)
     ON CONFLICT (partner_id) DO UPDATE SET credentials = $2`,
    [partnerId, credentials],
  );
}

// ---- where our times go at a partner ----

/** The partner's own open service of this kind for the vessel, and its latest timestamp to us. */
export async function partnersService(
  q: Queryable,
  partnerId: number,
  imo: number,
  serviceType: string,
  eventType: string,
): Promise<
  { service_id: string; terminal_call_id: string; port_call_id: string; reply_to: string | null } | undefined
> {
  const { rows } = await q.query<{
    service_id: string;
    terminal_call_id: string;
    port_call_id: string;
    reply_to: string | null;
  }>(
    `SELECT s.service_id, s.terminal_call_id, s.port_call_id,
            (SELECT t.timestamp_id FROM dcsa.timestamps t
              WHERE t.service_id = s.service_id AND t.direction = 'in' ORDER BY t.seq DESC LIMIT 1) AS reply_to
       FROM dcsa.services s
       JOIN dcsa.port_calls pc ON pc.port_call_id = s.port_call_id
       JOIN dcsa.terminal_calls tc ON tc.terminal_call_id = s.terminal_call_id
      WHERE s.partner_id = $1 AND pc.imo = $2 AND s.service_type = $3 AND s.event_type = $4
        AND NOT s.cancelled AND NOT s.declined AND NOT pc.omitted AND NOT tc.omitted
      ORDER BY s.updated_at DESC LIMIT 1`,
    [partnerId, imo, serviceType, eventType],
  );
  return rows[0];
}

/** The partner's own open port call and terminal call for the vessel, if it sent us one. */
export async function partnersCall(
  q: Queryable,
  partnerId: number,
  imo: number,
): Promise<{ port_call_id: string; terminal_call_id: string | null; un_location_code: string } | undefined> {
  const { rows } = await q.query<{ port_call_id: string; terminal_call_id: string | null; un_location_code: string }>(
    `SELECT pc.port_call_id, pc.un_location_code,
            (SELECT tc.terminal_call_id FROM dcsa.terminal_calls tc
              WHERE tc.port_call_id = pc.port_call_id AND NOT tc.omitted ORDER BY tc.updated_at DESC LIMIT 1)
              AS terminal_call_id
       FROM dcsa.port_calls pc
      WHERE pc.partner_id = $1 AND pc.imo = $2 AND NOT pc.omitted
      ORDER BY pc.updated_at DESC LIMIT 1`,
    [partnerId, imo],
  );
  return rows[0];
}

/** The id we created (or will create) at the partner for this key; `created` is false when it was there before. */
export async function sentObject(
  tx: Queryable,
  partnerId: number,
  kind: string,
  key: string,
  id: string,
): Promise<{ id: string; created: boolean }> {
  const inserted = await tx.query<{ dcsa_id: string }>(
    `INSERT INTO dcsa.sent_objects (partner_id, kind, key, dcsa_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING dcsa_id`,
    [partnerId, kind, key, id],
  );
  if (inserted.rows.length > 0) return { id, created: true };
  const { rows } = await tx.query<{ dcsa_id: string }>(
    'SELECT dcsa_id FROM dcsa.sent_objects WHERE partner_id = $1 AND kind = $2 AND key = $3',
    [partnerId, kind, key],
  );
  return { id: rows[0].dcsa_id, created: false };
}
