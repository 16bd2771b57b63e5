// The queue schema: the queue-scheduler service's rows (docs/queue.md#why-the-rows-are-a-cache-of-the-streams),
// read by its queries module in the gateway (docs/architecture.md#queries). The statements run in order under the
// queue schema's advisory lock (setUpSchema), so several processes may start together.

import { decidedCommandsTableSql } from '@pcas/commands';
import { AUDIT_COLUMNS, type Db, setUpSchema } from '@pcas/sql';
import { PORT_SETTINGS_DDL } from './port-settings.ts';

const QUEUE_DDL = [
  'CREATE SEQUENCE IF NOT EXISTS queue.berth_ids',
  'CREATE SEQUENCE IF NOT EXISTS queue.nomination_ids',
  'CREATE SEQUENCE IF NOT EXISTS queue.berth_reservation_ids',
  'CREATE SEQUENCE IF NOT EXISTS queue.slot_reservation_ids',
  // One row per berth (stream berth-<id>); `version` is the stream's: the calendar below is read at it.
  `CREATE TABLE IF NOT EXISTS queue.berths (
     id integer PRIMARY KEY,
     code text NOT NULL,
     name text NOT NULL,
     nominatable boolean NOT NULL DEFAULT false,
     version integer NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  // The berths' calendars: GET /berth-reservations (one berth, by start) and the slot search.
  `CREATE TABLE IF NOT EXISTS queue.berth_reservations (
     id integer PRIMARY KEY,
     berth_id integer NOT NULL,
     berth_reservation_type text NOT NULL,
     reservation_start timestamptz NOT NULL,
     reservation_end timestamptz NOT NULL,
     slot_reservation_id integer,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS berth_reservations_berth ON queue.berth_reservations (berth_id, reservation_start)',
  // Nominations (stream nomination-<id>): GET /nominations, /own-nominations (created_by), and the open ones of an IMO.
  `CREATE TABLE IF NOT EXISTS queue.nominations (
     id integer PRIMARY KEY,
     company_name text NOT NULL,
     email text NOT NULL,
     imo integer NOT NULL,
     vessel_name text NOT NULL,
     nomination_status text NOT NULL,
     window_start timestamptz NOT NULL,
     window_end timestamptz NOT NULL,
     berth_ids integer[] NOT NULL,
     slot_reservation_id integer,
     version integer NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS nominations_imo ON queue.nominations (imo, nomination_status)',
  'CREATE INDEX IF NOT EXISTS nominations_created_by ON queue.nominations (created_by)',
  // Slot requests (stream slotrequest-<id>). The live ETA columns are the live-ETA alert's.
  `CREATE TABLE IF NOT EXISTS queue.slot_reservations (
     id integer PRIMARY KEY,
     nomination_id integer,
     berth_id integer,
     berth_reservation_id integer,
     email text NOT NULL,
     imo integer NOT NULL,
     vessel_name text NOT NULL,
     loa real,
     beam real,
     draft real,
     laytime interval NOT NULL,
     eta timestamptz NOT NULL,
     rta_window_start timestamptz,
     rta_window_end timestamptz,
     jit_eta timestamptz,
     slot_reservation_status text NOT NULL,
     port_call_id integer,
     jit_eta_discrepancy_time timestamptz,
     jit_eta_alert_state text NOT NULL DEFAULT 'green',
     version integer NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS slot_reservations_status ON queue.slot_reservations (slot_reservation_status, imo)',
  // The timestamps a slot request put on its port call (ingest's ids), so a cancellation can remove them.
  `CREATE TABLE IF NOT EXISTS queue.generated_timestamps (
     slot_reservation_id integer NOT NULL,
     timestamp_id bigint NOT NULL,
     PRIMARY KEY (slot_reservation_id, timestamp_id)
   )`,
  // What a committed decision leaves to do at ingest (post these timestamps; timestamps null: remove the slot
  // request's), written in the decision's transaction and deleted once done, so a crash after the commit loses
  // nothing: the rows left are done at the next start. seq keeps each slot request's order.
  `CREATE TABLE IF NOT EXISTS queue.timestamp_outbox (
     seq bigserial PRIMARY KEY,
     slot_reservation_id integer NOT NULL,
     timestamps jsonb,
     actor jsonb NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS timestamp_outbox_slot ON queue.timestamp_outbox (slot_reservation_id, seq)',
  // A process's claim on a row while it posts it (claimTimestampWork): two processes never post one row at once,
  // and a crashed poster's claim expires.
  'ALTER TABLE queue.timestamp_outbox ADD COLUMN IF NOT EXISTS claimed_until timestamptz',
  // The create requests decided, by RPC id: a redelivered one answers the first reply (libs/commands decideOnce).
  decidedCommandsTableSql('queue'),
];

const DDL: string[] = ['CREATE SCHEMA IF NOT EXISTS queue', ...QUEUE_DDL, ...PORT_SETTINGS_DDL];

/** Creates the schema if missing (setUpSchema); idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'queue', DDL);
}
