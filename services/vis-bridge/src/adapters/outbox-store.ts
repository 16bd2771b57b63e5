// The outbox tables (peer-schema.ts): queue a message for a peer, read a peer's next messages in order, record
// what the peer said, and the per-peer lease and backoff that keep one deliverer at a time.

import type { Queryable } from '@pcas/sql';
import type { PeerMessage, PeerOperation, QueuedMessage } from '../domain/outbox.ts';

/** Queues a message; the same id again for the same peer changes nothing (a retried send queues once). */
export async function enqueue(q: Queryable, peerServiceId: string, message: PeerMessage): Promise<boolean> {
  const body = JSON.stringify(message.body);
  const { rowCount } = await q.query(
    `INSERT INTO vis.outbox (peer_service_id, message_id, operation, body, bytes) VALUES ($1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (peer_service_id, message_id) DO NOTHING`,
    [peerServiceId, message.message_id, message.operation, body, Buffer.byteLength(body)],
  );
  return rowCount > 0;
}

/** The peer's next messages in queue order (after `afterSeq`: those of a batch still being recorded are skipped). */
export async function pendingMessages(
  q: Queryable,
  peerServiceId: string,
  limit: number,
  afterSeq = 0,
): Promise<QueuedMessage[]> {
  const { rows } = await q.query<{
    seq: string;
    message_id: string;
    operation: PeerOperation;
    body: unknown;
    bytes: number;
  }>(
    `SELECT seq, message_id, operation, body, bytes FROM vis.outbox
     WHERE peer_service_id = $1 AND delivered_at IS NULL AND failed_at IS NULL AND seq > $3 ORDER BY seq LIMIT $2`,
    [peerServiceId, limit, afterSeq],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    message_id: r.message_id,
    operation: r.operation,
    body: (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as Record<string, unknown>,
    bytes: r.bytes,
  }));
}

/** Records a message's acknowledgement; answers what was sent (its operation), if it was sent to that peer. */
export async function markAcknowledged(
  q: Queryable,
  peerServiceId: string,
  messageId: string,
): Promise<PeerOperation | undefined> {
  const { rows } = await q.query<{ operation: PeerOperation }>(
    `UPDATE vis.outbox SET acked_at = COALESCE(acked_at, clock_timestamp()), delivered_at = COALESCE(delivered_at, clock_timestamp())
     WHERE peer_service_id = $1 AND message_id = $2 RETURNING operation`,
    [peerServiceId, messageId],
  );
  return rows[0]?.operation;
}

/** markAcknowledged for several messages in one statement: answers each one sent to that peer and its operation. */
export async function markAcknowledgedMany(
  q: Queryable,
  peerServiceId: string,
  messageIds: readonly string[],
): Promise<Map<string, PeerOperation>> {
  if (messageIds.length === 0) return new Map();
  const { rows } = await q.query<{ message_id: string; operation: PeerOperation }>(
    `UPDATE vis.outbox SET acked_at = COALESCE(acked_at, clock_timestamp()), delivered_at = COALESCE(delivered_at, clock_timestamp())
     WHERE peer_service_id = $1 AND message_id = ANY($2::text[]) RETURNING message_id, operation`,
    [peerServiceId, messageIds],
  );
  return new Map(rows.map((r) => [r.message_id, r.operation]));
}

/** Peers with something to deliver whose backoff has passed (the sweep's list). */
export async function peersDue(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ peer_service_id: string }>(
    `SELECT DISTINCT o.peer_service_id FROM vis.outbox o
     LEFT JOIN vis.peer_delivery d ON d.peer_service_id = o.peer_service_id
     WHERE o.delivered_at IS NULL AND o.failed_at IS NULL
       AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= now())`,
  );
  return rows.map((r) => r.peer_service_id);
}

/**
 * Takes the peer's lease for `ms` unless another deliverer holds one or the backoff has not passed; answers
 * whether this one may deliver now.
 */
export async function takeLease(q: Queryable, peerServiceId: string, owner: string, ms: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO vis.peer_delivery AS d (peer_service_id, lease_owner, lease_until)
     VALUES ($1, $2, clock_timestamp() + ($3 || ' milliseconds')::interval)
     ON CONFLICT (peer_service_id) DO UPDATE SET lease_owner = EXCLUDED.lease_owner, lease_until = EXCLUDED.lease_until
     WHERE (d.lease_until IS NULL OR d.lease_until < clock_timestamp() OR d.lease_owner = $2)
       AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= clock_timestamp())`,
    [peerServiceId, owner, String(ms)],
  );
  return rowCount > 0;
}

/**
 * What the peer answered for a batch, in one statement: the delivered and the refused messages marked, the
 * peer's failures cleared, and the lease renewed (takeLease's rule; no backoff is left after a success).
 * Answers whether this deliverer still holds the peer.
 */
export async function settleBatch(
  q: Queryable,
  peerServiceId: string,
  outcome: { delivered: readonly string[]; refused: readonly { message_id: string; error: string }[] },
  lease: { owner: string; ms: number },
): Promise<boolean> {
  const { rows } = await q.query<{ held: boolean }>(
    `WITH delivered AS (
       UPDATE vis.outbox SET delivered_at = clock_timestamp(), last_error = NULL
        WHERE peer_service_id = $1 AND message_id = ANY($2::text[]) AND delivered_at IS NULL
     ), refused AS (
       UPDATE vis.outbox o SET failed_at = clock_timestamp(), last_error = r.error
         FROM unnest($3::text[], $4::text[]) AS r(message_id, error)
        WHERE o.peer_service_id = $1 AND o.message_id = r.message_id AND o.delivered_at IS NULL
     )
     UPDATE vis.peer_delivery d SET failures = 0, next_attempt_at = NULL, last_error = NULL,
       last_delivered_at = clock_timestamp(),
       lease_owner = CASE WHEN d.lease_owner = $5 OR d.lease_until IS NULL OR d.lease_until < clock_timestamp()
                          THEN $5 ELSE d.lease_owner END,
       lease_until = CASE WHEN d.lease_owner = $5 OR d.lease_until IS NULL OR d.lease_until < clock_timestamp()
                          THEN clock_timestamp() + ($6 || ' milliseconds')::interval ELSE d.lease_until END
     WHERE d.peer_service_id = $1
     RETURNING d.lease_owner = $5 AS held`,
    [
      peerServiceId,
      outcome.delivered,
      outcome.refused.map((r) => r.message_id),
      outcome.refused.map((r) => r.error.slice(0, 1000)),
      lease.owner,
      String(lease.ms),
    ],
  );
  return rows[0]?.held === true;
}

export async function releaseLease(q: Queryable, peerServiceId: string, owner: string): Promise<void> {
  await q.query(
    'UPDATE vis.peer_delivery SET lease_owner = NULL, lease_until = NULL WHERE peer_service_id = $1 AND lease_owner = $2',
    [peerServiceId, owner],
  );
}

/** Counts a failure in a row; answers how many there are now. */
export async function recordFailure(q: Queryable, peerServiceId: string, error: string): Promise<number> {
  const { rows } = await q.query<{ failures: number }>(
    `UPDATE vis.peer_delivery SET failures = failures + 1, last_error = $2 WHERE peer_service_id = $1 RETURNING failures`,
    [peerServiceId, error.slice(0, 1000)],
  );
  return rows[0]?.failures ?? 1;
}

export async function setNextAttempt(q: Queryable, peerServiceId: string, at: Date): Promise<void> {
  await q.query('UPDATE vis.peer_delivery SET next_attempt_at = $2 WHERE peer_service_id = $1', [peerServiceId, at]);
}

export async function hasPending(q: Queryable, peerServiceId: string): Promise<boolean> {
  const { rowCount } = await q.query(
    `SELECT 1 FROM vis.outbox WHERE peer_service_id = $1 AND delivered_at IS NULL AND failed_at IS NULL LIMIT 1`,
    [peerServiceId],
  );
  return rowCount > 0;
}

/** Queues several messages for one peer in one statement (in the order given); ids already queued are skipped. */
export async function enqueueMany(
  q: Queryable,
  peerServiceId: string,
  messages: readonly PeerMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  const bodies = messages.map((m) => JSON.stringify(m.body));
  await q.query(
    `INSERT INTO vis.outbox (peer_service_id, message_id, operation, body, bytes)
     SELECT $1, m.message_id, m.operation, m.body::jsonb, m.bytes
     FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS m(message_id, operation, body, bytes, n)
     ORDER BY m.n
     ON CONFLICT (peer_service_id, message_id) DO NOTHING`,
    [
      peerServiceId,
      messages.map((m) => m.message_id),
      messages.map((m) => m.operation),
      bodies,
      bodies.map((b) => Buffer.byteLength(b)),
    ],
  );
}

/** Which of these ids the peer delivered before. */
export async function receivedAmong(
  q: Queryable,
  fromServiceId: string,
  messageIds: readonly string[],
): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const { rows } = await q.query<{ message_id: string }>(
    'SELECT message_id FROM vis.peer_received WHERE from_service_id = $1 AND message_id = ANY($2::text[])',
    [fromServiceId, messageIds],
  );
  return new Set(rows.map((r) => r.message_id));
}

export async function recordReceivedMany(
  q: Queryable,
  fromServiceId: string,
  messages: readonly { message_id: string; operation: PeerOperation }[],
): Promise<void> {
  if (messages.length === 0) return;
  await q.query(
    `INSERT INTO vis.peer_received (from_service_id, message_id, operation)
     SELECT $1, m.message_id, m.operation FROM unnest($2::text[], $3::text[]) AS m(message_id, operation)
     ON CONFLICT DO NOTHING`,
    [fromServiceId, messages.map((m) => m.message_id), messages.map((m) => m.operation)],
  );
}

/** Queues messages for any peers in one statement, in the order given (concurrent sends gathered together). */
export async function enqueueAcross(
  q: Queryable,
  items: readonly { peer: string; message: PeerMessage }[],
): Promise<void> {
  if (items.length === 0) return;
  const bodies = items.map((i) => JSON.stringify(i.message.body));
  await q.query(
    `INSERT INTO vis.outbox (peer_service_id, message_id, operation, body, bytes)
     SELECT m.peer, m.message_id, m.operation, m.body::jsonb, m.bytes
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[])
       WITH ORDINALITY AS m(peer, message_id, operation, body, bytes, n)
     ORDER BY m.n
     ON CONFLICT (peer_service_id, message_id) DO NOTHING`,
    [
      items.map((i) => i.peer),
      items.map((i) => i.message.message_id),
      items.map((i) => i.message.operation),
      bodies,
      bodies.map((b) => Buffer.byteLength(b)),
    ],
  );
}
