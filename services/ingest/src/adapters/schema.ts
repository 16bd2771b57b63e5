// The ingest schema. `ingest.vessels` is also the GET /vessels read model the gateway reads (docs/domain.md#vessels),
// so its column names follow the original's `vessel` table; the weight tables serve GET /*-api-key-weights.

import { AUDIT_COLUMNS, type Db, setUpSchema } from '@pcas/sql';
import { FIXED_VESSELS_DDL } from './fixed-vessels.ts';
import { fillMissingFeatures, POSITIONS_DDL } from './positions.ts';

const DDL = [
  'CREATE SCHEMA IF NOT EXISTS ingest',
  `CREATE TABLE IF NOT EXISTS ingest.vessels (
    id serial PRIMARY KEY,
    imo bigint UNIQUE,
    vessel_name text NOT NULL DEFAULT '',
    visible boolean NOT NULL DEFAULT true,
    vessel_type integer NOT NULL DEFAULT 1,
    ${AUDIT_COLUMNS}
  )`,
  // IMO-0 posts find their vessel by case-insensitive name; the gateway's vessel search uses it too.
  'CREATE INDEX IF NOT EXISTS vessels_lower_name_idx ON ingest.vessels (lower(vessel_name))',
  // Priorities (docs/domain.md#priorities): rows of the priorities-* streams, the gateway lists them joined with its
  // api_keys. The primary key serves the admission lookup of every API-key post.
  `CREATE TABLE IF NOT EXISTS ingest.timestamp_api_key_weights (
    time_type text NOT NULL,
    state text NOT NULL,
    api_key_id integer NOT NULL,
    weight integer NOT NULL,
    modified_at timestamptz NOT NULL DEFAULT now(),
    modified_by integer,
    PRIMARY KEY (time_type, state, api_key_id)
  )`,
  `CREATE TABLE IF NOT EXISTS ingest.payload_key_api_key_weights (
    payload_key text NOT NULL,
    api_key_id integer NOT NULL,
    weight integer NOT NULL,
    modified_at timestamptz NOT NULL DEFAULT now(),
    modified_by integer,
    PRIMARY KEY (payload_key, api_key_id)
  )`,
  // The sea chart (docs/domain.md#sea-chart): fixed vessels and each vessel's newest position.
  ...FIXED_VESSELS_DDL,
  ...POSITIONS_DDL,
];

/** Creates the schema if missing (setUpSchema); idempotent and safe when several processes start together. */
export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'ingest', DDL, fillMissingFeatures);
}
