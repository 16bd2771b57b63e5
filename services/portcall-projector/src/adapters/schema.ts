// The port-call context's read models live in schema `portcall`. Created at start-up by every instance.

import type { Db } from '@pcas/sql';

// Any constant shared by the instances of this service: serialises their DDL, because CREATE ... IF NOT EXISTS
// still fails with a unique violation when two sessions create the same object at the same moment.
const SCHEMA_LOCK = 0x70637331; // 'pcs1'

const DDL = [
  'CREATE SCHEMA IF NOT EXISTS portcall',
  `CREATE TABLE IF NOT EXISTS portcall.timestamps (
    id bigint PRIMARY KEY,
    imo bigint NOT NULL,
    vessel_name text NOT NULL,
    time_type text NOT NULL,
    state text NOT NULL,
    time timestamptz NOT NULL,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    port_call_id bigint NULL,
    is_trash boolean NOT NULL DEFAULT false,
    weight int NOT NULL DEFAULT 0,
    created_by int NULL,
    created_at timestamptz NOT NULL,
    modified_by int NULL,
    modified_at timestamptz NULL,
    version bigint NOT NULL
  )`,
  // The list filters: per vessel by time (admin vessel view, clustering agent), by time range, per port call.
  'CREATE INDEX IF NOT EXISTS timestamps_imo_time_idx ON portcall.timestamps (imo, time)',
  'CREATE INDEX IF NOT EXISTS timestamps_time_idx ON portcall.timestamps (time)',
  'CREATE INDEX IF NOT EXISTS timestamps_port_call_id_idx ON portcall.timestamps (port_call_id)',
];

export async function ensureSchema(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    for (const statement of DDL) await tx.query(statement);
  });
}
