// API keys: events on `apikey-<id>` (and `user-<id>` for the bound user), with gateway.api_keys updated in
// the same transaction. The key itself is a credential (credentials.ts), never in an event. Lookups by key hit
// the credentials' unique index; each gateway process reuses what a key resolved to for at most a second
// (entry-points/caller-cache.ts): a key disabled through a process is refused by it at once, by the others
// within a second.

import { randomBytes } from 'node:crypto';
import { type Actor, type ApiKeyCreated, type ApiKeyPermissionsSet, apiKeyStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { escapeLike } from '@pcas/http-kit';
import { type Db, pageWithTotal, type Queryable } from '@pcas/sql';
import { DEFAULT_KEY_PERMISSIONS } from '../domain/roles.ts';
import { apiKeyUser } from '../domain/users.ts';
import { secretOf, storeCredential } from './credentials.ts';
import { pgText } from './schema.ts';
import { createUser, metadataOf } from './users.ts';

export interface ActiveApiKey {
  id: number;
  bound_user_id: number;
  role: string | null;
  /** The bound user's role's permissions. */
  permissions: string[];
  /** The API-key permissions it holds; null: all of them. */
  key_permissions: string[] | null;
}

/** The active keys among `keys` (one query for many concurrent requests): key → what it may do. */
export async function findActiveApiKeys(db: Queryable, keys: string[]): Promise<Map<string, ActiveApiKey>> {
  const { rows } = await db.query<ActiveApiKey & { key: string }>(
    `SELECT c.secret AS key, k.id, k.bound_user_id, r.name AS role, k.permissions AS key_permissions,
       COALESCE((SELECT array_agg(p.name ORDER BY p.id) FROM gateway.role_permissions rp
                 JOIN gateway.permissions p ON p.id = rp.permission_id WHERE rp.role_id = u.role_id), '{}') AS permissions
     FROM gateway.credentials c JOIN gateway.api_keys k ON k.id = c.id
     LEFT JOIN gateway.users u ON u.id = k.bound_user_id LEFT JOIN gateway.roles r ON r.id = u.role_id
     WHERE c.kind = 'api_key' AND c.secret = ANY ($1::text[]) AND k.is_active`,
    [keys],
  );
  return new Map(rows.map(({ key, ...found }) => [key, found]));
}

/**
 * Creates the key and its hidden bound user in one transaction; returns what POST /api-keys answers. `permissions`:
 * the API-key permissions it holds (checked by the caller), null for all of them.
 */
export async function createApiKey(
  db: Db,
  store: EventStore,
  name: string,
  permissions: string[] | null,
  actor: Actor,
) {
  return db.transaction(async (tx) => {
    const user = await createUser(
      tx,
      store,
      apiKeyUser({
        now: Date.now() / 1000,
        suffix: randomBytes(7).toString('hex').slice(0, 13),
        createdBy: actor.user_id,
      }),
      actor,
    );
    const { rows } = await tx.query<{ id: number }>(`SELECT nextval('gateway.api_key_ids')::int AS id`);
    // 25 random bytes → 50 lowercase hex characters, the original's format.
    const key = randomBytes(25).toString('hex');
    const event: ApiKeyCreated = { id: rows[0].id, name, bound_user_id: user.id, permissions };
    await store.append(apiKeyStream(event.id), [{ type: 'ApiKeyCreated', data: event, metadata: metadataOf(actor) }], {
      tx,
      expectedVersion: 'no_stream',
    });
    await tx.query(
      `INSERT INTO gateway.api_keys (id, is_active, bound_user_id, name, permissions, created_by, modified_by)
       VALUES ($1, true, $2, $3, $4, $5, $5)`,
      [event.id, event.bound_user_id, event.name, permissions, actor.user_id],
    );
    await storeCredential(tx, 'api_key', event.id, key);
    return { id: event.id, name: event.name, key };
  });
}

/**
 * Sets which API-key permissions a key holds (null: all of them). Returns false for an unknown id; the set it
 * already has changes nothing and appends no event.
 */
export async function setApiKeyPermissions(
  db: Db,
  store: EventStore,
  id: number,
  permissions: string[] | null,
  actor: Actor,
) {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE gateway.api_keys SET permissions = $2, modified_at = now(), modified_by = $3
       WHERE id = $1 AND permissions IS DISTINCT FROM $2::text[] RETURNING id`,
      [id, permissions, actor.user_id],
    );
    if (rows.length === 0) {
      return (await tx.query('SELECT 1 FROM gateway.api_keys WHERE id = $1', [id])).rowCount > 0;
    }
    const event: ApiKeyPermissionsSet = { id, permissions };
    await store.append(apiKeyStream(id), [{ type: 'ApiKeyPermissionsSet', data: event, metadata: metadataOf(actor) }], {
      tx,
      expectedVersion: 'stream_exists',
    });
    return true;
  });
}

/**
 * Enables or disables a key. Returns false for an unknown id. Setting the state it already has changes
 * nothing and appends no event.
 */
export async function setApiKeyActive(db: Db, store: EventStore, id: number, active: boolean, actor: Actor) {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE gateway.api_keys SET is_active = $2, modified_at = now(), modified_by = $3
       WHERE id = $1 AND is_active <> $2 RETURNING id`,
      [id, active, actor.user_id],
    );
    if (rows.length === 0) {
      return (await tx.query('SELECT 1 FROM gateway.api_keys WHERE id = $1', [id])).rowCount > 0;
    }
    await store.append(
      apiKeyStream(id),
      [{ type: active ? 'ApiKeyEnabled' : 'ApiKeyDisabled', data: { id }, metadata: metadataOf(actor) }],
      { tx, expectedVersion: 'stream_exists' },
    );
    return true;
  });
}

export interface ApiKeyRow {
  id: number;
  name: string;
  key: string;
  is_active: boolean;
  bound_user_id: number;
  created_at: string;
  created_by: number | null;
  modified_at: string;
  modified_by: number | null;
  /** The API-key permissions it holds (ours; the original's keys hold all, as a key without a list does). */
  permissions: string[];
}

const KEY = secretOf('api_key', 'k.id');
/** Every API-key permission as an SQL array (our own constants): what a key without a list holds. */
const ALL_KEY_PERMISSIONS = `ARRAY[${DEFAULT_KEY_PERMISSIONS.map((p) => `'${p}'`).join(', ')}]::text[]`;

/** API field → SQL expression, for the original's sort syntax. */
export const API_KEY_SORT_FIELDS: Record<string, string> = {
  id: 'k.id',
  name: 'k.name',
  key: KEY,
  is_active: 'k.is_active',
  bound_user_id: 'k.bound_user_id',
  created_at: 'k.created_at',
  created_by: 'k.created_by',
  modified_at: 'k.modified_at',
  modified_by: 'k.modified_by',
};

export async function listApiKeys(
  db: Queryable,
  query: { limit: number; offset: number; orderBy: string; search: string },
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const params: unknown[] = [];
  let where = '';
  if (query.search !== '') {
    params.push(`%${escapeLike(query.search)}%`);
    where = `WHERE k.name ILIKE $${params.length}`;
  }
  return pageWithTotal<ApiKeyRow>(db, {
    select: `k.id, k.name, ${KEY} AS key, k.is_active, k.bound_user_id, ${pgText('k.created_at')} AS created_at,
       k.created_by, ${pgText('k.modified_at')} AS modified_at, k.modified_by,
       COALESCE(k.permissions, ${ALL_KEY_PERMISSIONS}) AS permissions`,
    from: `FROM gateway.api_keys k ${where}`,
    params,
    orderBy: query.orderBy,
    limit: query.limit,
    offset: query.offset,
  });
}
