// Direct mode's tables in schema vis (docs/architecture.md#vis-direct-mode), beside the read models of schema.ts.
// `vis.peers` is a read model of the vispeer-<service id> streams; the secrets, the outbox, the delivery state
// and the record of what peers delivered are the bridge's own working tables (secrets never enter the log).

import { AUDIT_COLUMNS, type Db, setUpSchema } from '@pcas/sql';
import { ensureSealingKey } from './peer-store.ts';

export const PEER_DDL: string[] = [
  // Where each peer port's VIS endpoint is (VisPeerLinked), written in the event's transaction.
  `CREATE TABLE IF NOT EXISTS vis.peers (
     service_id text PRIMARY KEY,
     url text NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  // The secret each peer and this port share, outside the log (as gateway.credentials): written in the
  // transaction of the VisPeerLinked event that says it changed, never derived from the log.
  `CREATE TABLE IF NOT EXISTS vis.peer_secrets (
     service_id text PRIMARY KEY,
     secret text NOT NULL,
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  // One row a message to a peer, in the order sent (seq); written in the transaction of the event that sent it
  // when the caller passes it. Delivered: the peer holds it; acked: its acknowledgement came back; failed: the
  // peer refused it for good (last_error says why).
  `CREATE TABLE IF NOT EXISTS vis.outbox (
     seq bigserial PRIMARY KEY,
     peer_service_id text NOT NULL,
     message_id text NOT NULL,
     operation text NOT NULL,
     body jsonb NOT NULL,
     bytes integer NOT NULL,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
     delivered_at timestamptz,
     acked_at timestamptz,
     failed_at timestamptz,
     last_error text,
     UNIQUE (peer_service_id, message_id)
   )`,
  `CREATE INDEX IF NOT EXISTS outbox_pending ON vis.outbox (peer_service_id, seq)
     WHERE delivered_at IS NULL AND failed_at IS NULL`,
  // Per peer: one deliverer at a time (a lease), and the backoff after failures in a row.
  `CREATE TABLE IF NOT EXISTS vis.peer_delivery (
     peer_service_id text PRIMARY KEY,
     failures integer NOT NULL DEFAULT 0,
     next_attempt_at timestamptz,
     lease_owner text,
     lease_until timestamptz,
     last_error text,
     last_delivered_at timestamptz
   )`,
  // The key pair a peer's secret is sealed with on its way from the gateway (POST /port-peer) to the bridge, so
  // it never crosses the broker readable; the gateway reads only the public half.
  `CREATE TABLE IF NOT EXISTS vis.peer_sealing_key (
     id integer PRIMARY KEY CHECK (id = 1),
     public_pem text NOT NULL,
     private_pem text NOT NULL
   )`,
  // What peers delivered here, by their message id: a redelivery is answered "duplicate" and stores nothing.
  `CREATE TABLE IF NOT EXISTS vis.peer_received (
     from_service_id text NOT NULL,
     message_id text NOT NULL,
     operation text NOT NULL,
     received_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (from_service_id, message_id)
   )`,
  // The peer requests accepted while their time is within the window, by signature (unique: each request signs a
  // nonce), so the same request sent again is refused (services/vis-bridge/src/queries/peer-verifier.ts). A table,
  // not a process's memory or Redis: every gateway process checks requests, the embedded mode has no Redis, and
  // the primary key makes "first to insert wins" atomic across them. Rows past expires_at are deleted.
  `CREATE TABLE IF NOT EXISTS vis.peer_requests_seen (
     signature text PRIMARY KEY,
     expires_at timestamptz NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS peer_requests_seen_expiry ON vis.peer_requests_seen (expires_at)`,
];

/** Creates direct mode's tables and the sealing key if missing; under schema.ts's lock, after its tables. */
export async function ensurePeerSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'vis', PEER_DDL);
  await ensureSealingKey(db);
}
