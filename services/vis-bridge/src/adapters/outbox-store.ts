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

export async function pendingMessages(q: Queryable, peerServiceId: string, limit: number): Promise<QueuedMessage[]> {
  const { rows } = await q.query<{
    seq: string;
    message_id: string;
    operation: PeerOperation;
    body: unknown;
    bytes: number;
  }>(
    `SELECT seq, message_id, operation, body, bytes FROM vis.outbox
     WHERE peer_service_id = $1 AND delivered_at IS NULL AND failed_at IS NULL ORDER BY seq LIMIT $2`,
    [peerServiceId, limit],
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    message_id: r.message_id,
    operation: r.operation,
    body: (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as Record<string, unknown>,
    bytes: r.bytes,
  }));
}

export async function markDelivered(q: Queryable, peerServiceId: string, messageIds: readonly string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await q.query(
    `UPDATE vis.outbox SET delivered_at = clock_timestamp(), last_error = NULL
     WHERE peer_service_id = $1 AND message_id = ANY($2::text[]) AND delivered_at IS NULL`,
    [peerServiceId, messageIds],
  );
}

export async function markRefused(
  q: Queryable,
  peerServiceId: string,
  refused: readonly { message_id: string; error: string }[],
): Promise<void> {
  for (const { message_id, error } of refused) {
    await q.query(
      `UPDATE vis.outbox SET failed_at = clock_timestamp(), last_error = $3
       WHERE peer_service_id = $1 AND message_id = $2 AND delivered_at IS NULL`,
      [peerServiceId, message_id, error.slice(0, 1000)],
    );
  }
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
  await q.query('INSERT INTO vis.peer_delivery (peer_service_id) VALUES ($1) ON CONFLICT DO NOTHING', [peerServiceId]);
  const { rowCount } = await q.query(
    `UPDATE vis.peer_delivery SET lease_owner = $2, lease_until = clock_timestamp() + ($3 || ' milliseconds')::interval
     WHERE peer_service_id = $1
       AND (lease_until IS NULL OR lease_until < clock_timestamp() OR lease_owner = $2)
       AND (next_attempt_at IS NULL OR next_attempt_at <= clock_timestamp())`,
    [peerServiceId, owner, String(ms)],
  );
  return rowCount > 0;
}

export async function releaseLease(q: Queryable, peerServiceId: string, owner: string): Promise<void> {
  await q.query(
    'UPDATE vis.peer_delivery SET lease_owner = NULL, lease_until = NULL WHERE peer_service_id = $1 AND lease_owner = $2',
    [peerServiceId, owner],
  );
}

export async function recordSuccess(q: Queryable, peerServiceId: string): Promise<void> {
  await q.query(
    `UPDATE vis.peer_delivery SET failures = 0, next_attempt_at = NULL, last_error = NULL,
       last_delivered_at = clock_timestamp() WHERE peer_service_id = $1`,
    [peerServiceId],
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
