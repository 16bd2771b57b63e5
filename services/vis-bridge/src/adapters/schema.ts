// The vis schema: the vis-bridge service's read models, served by the gateway (docs/architecture.md#services). The
// statements run in order under one advisory lock, so several processes may start together. Every row is written
// in the transaction of the event it comes from and can be rebuilt from the vis streams (the ids are row
// numbers in event order).

import { AUDIT_COLUMNS, type Db, setUpSchema } from '@pcas/sql';

/** What every stored VIS message has: the event it came from, when, between which services, its id and type. */
const messageColumns = (defaultType: string) => `event_id uuid NOT NULL UNIQUE,
     time timestamptz NOT NULL,
     from_service_id text NOT NULL,
     to_service_id text NOT NULL,
     message_id text NOT NULL,
     message_type text NOT NULL DEFAULT '${defaultType}'`;

const DDL: string[] = [
  'CREATE SCHEMA IF NOT EXISTS vis',
  // GET /vis-vessels; the names of services in the message lists; a service's URL for sending. One row a service.
  `CREATE TABLE IF NOT EXISTS vis.vessels (
     id bigserial PRIMARY KEY,
     imo bigint NOT NULL,
     vessel_name text NOT NULL,
     service_id text NOT NULL UNIQUE,
     service_url text NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS vessels_imo ON vis.vessels (imo)',
  // GET /vis-text-messages: TXT messages received, and sent (direct mode; the agent posts back what it sent).
  // author, subject and body are read from the textMessage XML when it is stored.
  `CREATE TABLE IF NOT EXISTS vis.messages (
     id bigserial PRIMARY KEY,
     ${messageColumns('TXT')},
     payload jsonb NOT NULL,
     author text,
     subject text,
     body text,
     ack boolean NOT NULL DEFAULT false,
     operational_ack boolean NOT NULL DEFAULT false,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS messages_message_id ON vis.messages (message_id)',
  'CREATE INDEX IF NOT EXISTS messages_time ON vis.messages (time DESC, id)',
  // GET /vis-voyage-plans: RTZ voyage plans received, and RTA_SENT plans (what this port answered).
  `CREATE TABLE IF NOT EXISTS vis.voyage_plans (
     id bigserial PRIMARY KEY,
     ${messageColumns('RTZ')},
     rtz_state_id integer NOT NULL,
     rtz_state text NOT NULL,
     rtz_parse_results jsonb NOT NULL,
     payload jsonb NOT NULL,
     ack boolean NOT NULL DEFAULT false,
     operational_ack boolean NOT NULL DEFAULT false,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS voyage_plans_message_id ON vis.voyage_plans (message_id)',
  'CREATE INDEX IF NOT EXISTS voyage_plans_from ON vis.voyage_plans (from_service_id, time DESC, id DESC)',
  // GET /vis-notifications; an acknowledgement received before its message sets the message's ack at once.
  `CREATE TABLE IF NOT EXISTS vis.notifications (
     id bigserial PRIMARY KEY,
     event_id uuid NOT NULL UNIQUE,
     time timestamptz NOT NULL,
     from_service_id text NOT NULL,
     message_id text NOT NULL,
     message_type text NOT NULL,
     notification_type text NOT NULL,
     subject text NOT NULL,
     payload jsonb NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS notifications_message_id ON vis.notifications (message_id, notification_type)',
  // GET /ports; the whitelists; which services serve a UN/LOCODE (departures).
  `CREATE TABLE IF NOT EXISTS vis.ports (
     id bigserial PRIMARY KEY,
     name text NOT NULL,
     service_id text NOT NULL UNIQUE,
     whitelist_in boolean NOT NULL DEFAULT true,
     whitelist_out boolean NOT NULL DEFAULT true,
     locodes jsonb NOT NULL DEFAULT '[]',
     ${AUDIT_COLUMNS}
   )`,
  // GET /inbound-vessels: one row a vessel (the newest announcement).
  `CREATE TABLE IF NOT EXISTS vis.inbound_vessels (
     id bigserial PRIMARY KEY,
     time timestamptz NOT NULL,
     imo bigint NOT NULL UNIQUE,
     vessel_name text NOT NULL,
     from_service_id text NOT NULL,
     from_service_name text NOT NULL,
     ${AUDIT_COLUMNS}
   )`,
  // What was sent for each port call: the voyage-plan request (once) and the ETD last sent to the next port.
  `CREATE TABLE IF NOT EXISTS vis.port_calls (
     port_call_id bigint PRIMARY KEY,
     voyage_plan_requested boolean NOT NULL DEFAULT false,
     last_etd text
   )`,
];

/** Creates the schema if missing (setUpSchema); idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'vis', DDL);
}
