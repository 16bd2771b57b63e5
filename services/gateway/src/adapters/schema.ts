// The gateway's schema: read models of its own streams (users, API keys), reference data (roles,
// permissions, settings), sessions for the embedded mode, the secrets (credentials) and the shared JWT signing key. Set up the one
// way every owner sets up its schema (setUpSchema), so several gateway processes may start at once.

import { GATEWAY_LEGACY_EVENT_SECRETS } from '@pcas/contracts';
import { AUDIT_COLUMNS, type Db, type Queryable, setUpSchema } from '@pcas/sql';
import { DEFAULT_REALTIME_ANONYMOUS } from '../domain/realtime.ts';
import { DEFAULT_ROLE_PERMISSIONS, PERMISSIONS, ROLES } from '../domain/roles.ts';
import { DEFAULT_SETTINGS } from '../domain/settings.ts';

const DDL = [
  'CREATE SCHEMA IF NOT EXISTS gateway',
  `CREATE TABLE IF NOT EXISTS gateway.meta (
     key text PRIMARY KEY,
     value jsonb NOT NULL DEFAULT 'null'::jsonb,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE IF NOT EXISTS gateway.roles (
     id integer PRIMARY KEY,
     name text NOT NULL UNIQUE,
     readable_name text NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS gateway.permissions (
     id integer PRIMARY KEY,
     name text NOT NULL UNIQUE,
     readable_name text NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS gateway.role_permissions (
     role_id integer NOT NULL REFERENCES gateway.roles (id),
     permission_id integer NOT NULL REFERENCES gateway.permissions (id),
     PRIMARY KEY (role_id, permission_id)
   )`,
  `CREATE TABLE IF NOT EXISTS gateway.settings (
     id integer PRIMARY KEY,
     name text NOT NULL UNIQUE,
     value text NOT NULL DEFAULT '',
     ${AUDIT_COLUMNS}
   )`,
  'CREATE SEQUENCE IF NOT EXISTS gateway.user_ids',
  // Columns beyond this needs (lock/suspend, registration code) are the original's, for later issues.
  `CREATE TABLE IF NOT EXISTS gateway.users (
     id integer PRIMARY KEY,
     email text NOT NULL,
     first_name text NOT NULL DEFAULT '',
     last_name text NOT NULL DEFAULT '',
     role_id integer NOT NULL REFERENCES gateway.roles (id),
     status text NOT NULL,
     registration_type text NOT NULL,
     registration_code_id integer,
     time_zone text,
     last_login_time timestamptz,
     last_login_data jsonb,
     last_session_time timestamptz,
     failed_logins integer NOT NULL DEFAULT 0,
     suspend_start timestamptz,
     locked boolean NOT NULL DEFAULT false,
     ${AUDIT_COLUMNS}
   )`,
  'CREATE UNIQUE INDEX IF NOT EXISTS users_email_lower ON gateway.users (lower(email))',
  // Failed sign-ins per account and client address (UserLoginFailed with `client`; an IPv6 client by its /64), so
  // that failures suspend and lock an account only for the client making them
  // (docs/domain.md#login-suspension-and-lock); the counters in gateway.users are the account's own (an
  // administrator's lock or suspension, counts from before). A row goes at that client's successful login (UserLoggedIn's remote_addr), a user's every row at
  // unlocking, a password reset and deletion; unsuspending ends their suspensions. Read at sign-in by (user, client).
  `CREATE TABLE IF NOT EXISTS gateway.login_failures (
     user_id integer NOT NULL REFERENCES gateway.users (id),
     client text NOT NULL,
     failed_logins integer NOT NULL,
     suspend_start timestamptz,
     locked boolean NOT NULL,
     PRIMARY KEY (user_id, client)
   )`,
  'CREATE SEQUENCE IF NOT EXISTS gateway.api_key_ids',
  `CREATE TABLE IF NOT EXISTS gateway.api_keys (
     id integer PRIMARY KEY,
     is_active boolean NOT NULL DEFAULT true,
     bound_user_id integer NOT NULL REFERENCES gateway.users (id),
     name text NOT NULL DEFAULT '',
     ${AUDIT_COLUMNS}
   )`,
  // The API-key permissions a key holds (ApiKeyCreated, ApiKeyPermissionsSet); NULL: all of them.
  'ALTER TABLE gateway.api_keys ADD COLUMN IF NOT EXISTS permissions text[]',
  `CREATE TABLE IF NOT EXISTS gateway.sessions (
     id text PRIMARY KEY,
     user_id integer NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     expires_at timestamptz NOT NULL
   )`,
  'CREATE INDEX IF NOT EXISTS sessions_expires_at ON gateway.sessions (expires_at)',
  // Sessions ended within a socket token's lifetime, by digest (adapters/session-store.ts), embedded mode only.
  `CREATE TABLE IF NOT EXISTS gateway.ended_sessions (
     digest text PRIMARY KEY,
     expires_at timestamptz NOT NULL
   )`,
  'CREATE SEQUENCE IF NOT EXISTS gateway.registration_code_ids',
  // Registration codes (stream regcode-<id>); `role` is the role's name, as the original's list shows it.
  `CREATE TABLE IF NOT EXISTS gateway.registration_codes (
     id integer PRIMARY KEY,
     enabled boolean NOT NULL DEFAULT true,
     role text NOT NULL,
     description text NOT NULL DEFAULT '',
     ${AUDIT_COLUMNS}
   )`,
  'CREATE INDEX IF NOT EXISTS users_created_by ON gateway.users (created_by)',
  // The secrets (credentials.ts): not derived from the log, so a rebuild of the read models leaves them be.
  `CREATE TABLE IF NOT EXISTS gateway.credentials (
     kind text NOT NULL CHECK (kind IN ('password', 'api_key', 'registration_code')),
     id integer NOT NULL,
     secret text NOT NULL,
     PRIMARY KEY (kind, id)
   )`,
  // API keys and registration codes are looked up by their text; salted password hashes never are.
  `CREATE UNIQUE INDEX IF NOT EXISTS credentials_secret ON gateway.credentials (kind, secret)
     WHERE kind <> 'password'`,
  `CREATE TABLE IF NOT EXISTS gateway.signing_keys (
     id integer PRIMARY KEY CHECK (id = 1),
     private_key_pem text NOT NULL,
     public_key_pem text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  // Stored texts only; the S-211 defaults are computed (domain/translations.ts), so they never need a migration.
  `CREATE TABLE IF NOT EXISTS gateway.translations (
     namespace text NOT NULL,
     language text NOT NULL,
     key text NOT NULL,
     value text NOT NULL,
     modified_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer,
     PRIMARY KEY (namespace, language, key)
   )`,
  // Push tokens moved to the notifier (notifier.push_tokens), which adopts and drops an earlier version's table.
];

/** Creates the schema and seeds roles, permissions, the default matrix (once) and settings. */
export async function ensureGatewaySchema(db: Db): Promise<void> {
  await setUpSchema(db, 'gateway', DDL, async (tx) => {
    await moveSecretsOutOfTheLog(tx);
    await seedReferenceData(tx);
  });
}

/** Where earlier versions kept each secret: a column of a read model (moved to gateway.credentials). */
const LEGACY_SECRET_COLUMNS = [
  { table: 'users', column: 'password_hash', kind: 'password' },
  { table: 'api_keys', column: 'key', kind: 'api_key' },
  { table: 'registration_codes', column: 'code', kind: 'registration_code' },
] as const;

/**
 * A database written by an earlier version keeps the secrets in read-model columns and in the data of the
 * events that created them. Once, in the schema's transaction: the columns move to gateway.credentials and are
 * dropped, and the fields are removed from the stored events. Rewriting the log is the exception to its
 * append-only rule, for this one reason: a log that holds secrets cannot be published or replayed to anyone.
 * Only the secret field goes; ids, positions, types and the other fields stay, and nothing rebuilds from it.
 * Until this has run, the relay publishes those events without them (upcastEvent in @pcas/contracts).
 */
async function moveSecretsOutOfTheLog(tx: Queryable): Promise<void> {
  const { rows } = await tx.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'gateway'`,
  );
  const present = LEGACY_SECRET_COLUMNS.filter((legacy) =>
    rows.some((r) => r.table_name === legacy.table && r.column_name === legacy.column),
  );
  if (present.length === 0) return;
  for (const { table, column, kind } of present) {
    await tx.query(
      `INSERT INTO gateway.credentials (kind, id, secret) SELECT $1, id, ${column} FROM gateway.${table}
       WHERE ${column} <> '' ON CONFLICT DO NOTHING`,
      [kind],
    );
    await tx.query(`ALTER TABLE gateway.${table} DROP COLUMN ${column}`);
  }
  for (const [type, fields] of Object.entries(GATEWAY_LEGACY_EVENT_SECRETS)) {
    await tx.query(
      `UPDATE eventstore.events SET data = data - $2::text[] WHERE event_type = $1 AND data ?| $2::text[]`,
      [type, fields],
    );
  }
}

async function seedReferenceData(tx: Queryable): Promise<void> {
  await tx.query(
    `INSERT INTO gateway.roles (id, name, readable_name)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) ON CONFLICT (id) DO NOTHING`,
    [ROLES.map((r) => r.id), ROLES.map((r) => r.name), ROLES.map((r) => r.readable_name)],
  );
  await tx.query(
    `INSERT INTO gateway.permissions (id, name, readable_name)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) ON CONFLICT (id) DO NOTHING`,
    [PERMISSIONS.map((p) => p.id), PERMISSIONS.map((p) => p.name), PERMISSIONS.map((p) => p.readable_name)],
  );
  // Role permissions are editable, so the defaults go in once: re-seeding would undo an admin's removals.
  const marker = await tx.query(
    `INSERT INTO gateway.meta (key, value) VALUES ('seed.role_permissions', '1') ON CONFLICT (key) DO NOTHING
     RETURNING key`,
  );
  if (marker.rowCount > 0) {
    const roles: string[] = [];
    const permissions: string[] = [];
    for (const [role, names] of Object.entries(DEFAULT_ROLE_PERMISSIONS)) {
      for (const name of names) {
        roles.push(role);
        permissions.push(name);
      }
    }
    await tx.query(
      `INSERT INTO gateway.role_permissions (role_id, permission_id)
       SELECT r.id, p.id FROM unnest($1::text[], $2::text[]) AS d(role, permission)
       JOIN gateway.roles r ON r.name = d.role JOIN gateway.permissions p ON p.name = d.permission
       ON CONFLICT DO NOTHING`,
      [roles, permissions],
    );
  }
  await tx.query(
    `INSERT INTO gateway.settings (id, name, value)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
    [DEFAULT_SETTINGS.map((s) => s.id), DEFAULT_SETTINGS.map((s) => s.name), DEFAULT_SETTINGS.map((s) => s.value)],
  );
  // realtime_anonymous was on/off before its three modes: the old seed (`enabled`, never changed by anyone) takes
  // the new default; a value an administrator chose keeps its meaning (domain/realtime.ts realtimeAnonymousMode).
  await tx.query(
    `UPDATE gateway.settings SET value = $1 WHERE name = 'realtime_anonymous' AND value = 'enabled' AND modified_by IS NULL`,
    [DEFAULT_REALTIME_ANONYMOUS],
  );
}

/** A timestamptz column in PostgreSQL's text output at UTC (`2020-02-23 20:15:00+00`), as the original's rows. */
export const pgText = (column: string) => `((${column}) AT TIME ZONE 'UTC')::text || '+00'`;
