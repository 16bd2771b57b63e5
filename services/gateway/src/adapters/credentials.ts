// The gateway's secrets: password hashes, API keys and registration codes live in gateway.credentials, never in
// an event (the relay publishes every event to the broker). The event says what happened (UserCreated,
// ApiKeyCreated, ...) and the secret is written here in the same transaction. Nothing derives this table from
// the log, so a rebuild of the read models leaves it as it is. API keys and codes are kept readable, as the
// original shows them to the administrators and managers who hand them out.

import type { Queryable } from '@pcas/sql';
import { isUniqueViolation } from './stream-lock.ts';

export type CredentialKind = 'password' | 'api_key' | 'registration_code';

/**
 * SQL: the secret of kind for the row whose id is `idColumn`; '' when it has none (e.g. an API key's user). The
 * table's alias is one no caller uses, so `idColumn` always names the caller's row.
 */
export const secretOf = (kind: CredentialKind, idColumn: string) =>
  `COALESCE((SELECT credential.secret FROM gateway.credentials credential
             WHERE credential.kind = '${kind}' AND credential.id = ${idColumn}), '')`;

/** Sets (or replaces) the secret; an empty one removes it. */
export async function storeCredential(tx: Queryable, kind: CredentialKind, id: number, secret: string) {
  if (secret === '') {
    await removeCredential(tx, kind, id);
    return;
  }
  try {
    await tx.query(
      `INSERT INTO gateway.credentials (kind, id, secret) VALUES ($1, $2, $3)
       ON CONFLICT (kind, id) DO UPDATE SET secret = EXCLUDED.secret`,
      [kind, id, secret],
    );
  } catch (error) {
    // PostgreSQL's duplicate-key error quotes the value (its detail), and errors end up in the log: keep the
    // code callers retry on, drop the rest.
    if (isUniqueViolation(error)) throw Object.assign(new Error(`duplicate ${kind}`), { code: '23505' });
    throw error;
  }
}

export async function removeCredential(tx: Queryable, kind: CredentialKind, id: number) {
  await tx.query('DELETE FROM gateway.credentials WHERE kind = $1 AND id = $2', [kind, id]);
}
