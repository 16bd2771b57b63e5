// The dcsa schema: the dcsa-bridge's read models (docs/dcsa.md#who-owns-it-the-dcsa-bridge). Every row of the DCSA objects is written in
// the transaction of the event it comes from, with its stream's version, and can be rebuilt from the dcsa* streams.
// Outside the log: partner credentials (secrets never go into an event) and the outbox's delivery state.

import { type Db, setUpSchema } from '@pcas/sql';

const DDL: string[] = [
  'CREATE SCHEMA IF NOT EXISTS dcsa',
  // GET /dcsa-partners; the API key a partner calls with, and where its times go. Stream dcsapartner-<id>.
  `CREATE TABLE IF NOT EXISTS dcsa.partners (
     id integer PRIMARY KEY,
     name text NOT NULL,
     api_key_id integer NOT NULL UNIQUE,
     base_url text NOT NULL,
     vessel_imos integer[] NOT NULL DEFAULT '{}',
     active boolean NOT NULL DEFAULT true,
     version integer NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE SEQUENCE IF NOT EXISTS dcsa.partner_ids',
  // The Authorization value sent to a partner's API. A secret: never in an event.
  `CREATE TABLE IF NOT EXISTS dcsa.partner_secrets (
     partner_id integer PRIMARY KEY,
     credentials text NOT NULL
   )`,
  // Port calls, terminal calls and port-call services as the partner sent them (streams dcsaportcall-<id>,
  // dcsaterminalcall-<id>, dcsaservice-<id>), for the standard's GET endpoints and the mapping.
  `CREATE TABLE IF NOT EXISTS dcsa.port_calls (
     port_call_id text PRIMARY KEY,
     partner_id integer NOT NULL,
     imo integer,
     vessel_name text,
     mmsi text,
     un_location_code text NOT NULL,
     port_visit_reference text,
     body jsonb NOT NULL,
     omitted boolean NOT NULL DEFAULT false,
     version integer NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS port_calls_imo ON dcsa.port_calls (imo)',
  `CREATE TABLE IF NOT EXISTS dcsa.terminal_calls (
     terminal_call_id text PRIMARY KEY,
     port_call_id text NOT NULL,
     partner_id integer NOT NULL,
     body jsonb NOT NULL,
     omitted boolean NOT NULL DEFAULT false,
     version integer NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS terminal_calls_port_call ON dcsa.terminal_calls (port_call_id)',
  `CREATE TABLE IF NOT EXISTS dcsa.services (
     service_id text PRIMARY KEY,
     terminal_call_id text NOT NULL,
     port_call_id text NOT NULL,
     partner_id integer NOT NULL,
     service_type text NOT NULL,
     event_type text NOT NULL,
     body jsonb NOT NULL,
     cancelled boolean NOT NULL DEFAULT false,
     declined boolean NOT NULL DEFAULT false,
     version integer NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS services_terminal_call ON dcsa.services (terminal_call_id)',
  // Every DCSA timestamp, received (direction 'in', stream dcsatimestamp-<id>) or sent by us ('out'), with the
  // S-211 time it was mapped to and what ingest said (s211_status: posted | dcsa_only | refused).
  `CREATE TABLE IF NOT EXISTS dcsa.timestamps (
     timestamp_id text PRIMARY KEY,
     seq bigserial,
     service_id text NOT NULL,
     port_call_id text NOT NULL,
     partner_id integer NOT NULL,
     direction text NOT NULL,
     classifier text NOT NULL,
     date_time timestamptz NOT NULL,
     body jsonb NOT NULL,
     imo integer,
     time_type text,
     state text,
     s211_status text NOT NULL,
     s211_error text,
     version integer NOT NULL,
     received_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS timestamps_service ON dcsa.timestamps (service_id, seq)',
  'CREATE INDEX IF NOT EXISTS timestamps_imo ON dcsa.timestamps (imo, date_time)',
  // Vessel statuses, newest last (stream dcsavesselstatus-<port call service id>).
  `CREATE TABLE IF NOT EXISTS dcsa.vessel_statuses (
     id bigserial PRIMARY KEY,
     service_id text NOT NULL,
     partner_id integer NOT NULL,
     body jsonb NOT NULL,
     received_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS vessel_statuses_service ON dcsa.vessel_statuses (service_id, id)',
  // What goes to each partner, in order (id), at least once (docs/dcsa.md#sending). dedupe_key makes a source
  // event handled twice queue one message.
  `CREATE TABLE IF NOT EXISTS dcsa.outbox (
     id bigserial PRIMARY KEY,
     partner_id integer NOT NULL,
     dedupe_key text NOT NULL,
     method text NOT NULL,
     path text NOT NULL,
     body jsonb NOT NULL,
     status text NOT NULL DEFAULT 'pending',
     attempts integer NOT NULL DEFAULT 0,
     next_attempt_at timestamptz NOT NULL DEFAULT now(),
     last_error text,
     created_at timestamptz NOT NULL DEFAULT now(),
     delivered_at timestamptz,
     UNIQUE (partner_id, dedupe_key)
   )`,
  "CREATE INDEX IF NOT EXISTS outbox_pending ON dcsa.outbox (partner_id, id) WHERE status = 'pending'",
  // One deliverer per partner at a time, across processes.
  `CREATE TABLE IF NOT EXISTS dcsa.outbox_leases (
     partner_id integer PRIMARY KEY,
     holder text NOT NULL,
     until timestamptz NOT NULL
   )`,
  // The DCSA ids we created at a partner for our own port calls and services (so each is created once).
  `CREATE TABLE IF NOT EXISTS dcsa.sent_objects (
     partner_id integer NOT NULL,
     kind text NOT NULL,
     key text NOT NULL,
     dcsa_id text NOT NULL,
     PRIMARY KEY (partner_id, kind, key)
   )`,
];

/** Creates the schema if missing; idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'dcsa', DDL);
}
