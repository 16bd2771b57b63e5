// Registration codes (docs/domain.md#registration): events on `regcode-<id>`, with the
// gateway.registration_codes row written in the same transaction. Changes run under the stream's lock. The code
// itself is a credential (credentials.ts): it lets anyone sign up with its role, so it is never in an event.

import { randomInt } from 'node:crypto';
import {
  type Actor,
  type RegistrationCodeCreated,
  type RegistrationCodeEvents,
  registrationCodeStream,
} from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { generateRegistrationCode } from '../domain/user-management.ts';
import { removeCredential, secretOf, storeCredential } from './credentials.ts';
import { type ManagedListQuery, managedPage } from './managed-list.ts';
import { pgText } from './schema.ts';
import { decideAndChange, isUniqueViolation, lockStream } from './stream-lock.ts';
import { metadataOf } from './users.ts';

export interface RegistrationCodeRow {
  id: number;
  code: string;
  enabled: boolean;
  role: string;
  description: string;
  created_at: string;
  created_by: number | null;
  modified_at: string;
  modified_by: number | null;
}

/** A list row: the code's columns plus the role's readable name and the creator's e-mail. */
export interface RegistrationCodeListRow extends RegistrationCodeRow {
  readable_name: string | null;
  email: string | null;
}

const CODE = secretOf('registration_code', 'c.id');

const COLUMNS = `c.id, ${CODE} AS code, c.enabled, c.role, c.description, ${pgText('c.created_at')} AS created_at, c.created_by,
  ${pgText('c.modified_at')} AS modified_at, c.modified_by`;

export async function loadRegistrationCode(db: Queryable, id: number): Promise<RegistrationCodeRow | null> {
  const { rows } = await db.query<RegistrationCodeRow>(
    `SELECT ${COLUMNS} FROM gateway.registration_codes c WHERE c.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** The code a sign-up typed: codes are upper case, so a lower-case entry still matches. */
export async function findRegistrationCode(db: Queryable, code: string): Promise<RegistrationCodeRow | null> {
  const { rows } = await db.query<RegistrationCodeRow>(
    `SELECT ${COLUMNS} FROM gateway.credentials s JOIN gateway.registration_codes c ON c.id = s.id
     WHERE s.kind = 'registration_code' AND s.secret = upper($1)`,
    [code],
  );
  return rows[0] ?? null;
}

async function append<K extends keyof RegistrationCodeEvents>(
  tx: Queryable,
  store: EventStore,
  id: number,
  type: K,
  data: RegistrationCodeEvents[K],
  actor: Actor,
  expectedVersion: 'no_stream' | 'stream_exists',
): Promise<void> {
  await store.append(registrationCodeStream(id), [{ type, data, metadata: metadataOf(actor) }], {
    tx,
    expectedVersion,
  });
}

/** Creates an enabled code with a fresh unique `AAAAAA-NNNNNN`; returns its id. */
export async function createRegistrationCode(
  db: Db,
  store: EventStore,
  input: { role: string; description: string },
  actor: Actor,
): Promise<number> {
  // 24^6 × 900,000 codes: a collision is rare, and a concurrent one surfaces as a unique violation: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (tx) => {
        let code = generateRegistrationCode(randomInt);
        const taken = (candidate: string) =>
          tx.query("SELECT 1 FROM gateway.credentials WHERE kind = 'registration_code' AND secret = $1", [candidate]);
        while ((await taken(code)).rowCount > 0) code = generateRegistrationCode(randomInt);
        const { rows } = await tx.query<{ id: number }>(`SELECT nextval('gateway.registration_code_ids')::int AS id`);
        const event: RegistrationCodeCreated = {
          id: rows[0].id,
          role: input.role,
          description: input.description,
          enabled: true,
          created_by: actor.user_id,
        };
        await append(tx, store, event.id, 'RegistrationCodeCreated', event, actor, 'no_stream');
        await tx.query(
          `INSERT INTO gateway.registration_codes (id, enabled, role, description, created_by, modified_by)
           VALUES ($1, $2, $3, $4, $5, $5)`,
          [event.id, event.enabled, event.role, event.description, event.created_by],
        );
        await storeCredential(tx, 'registration_code', event.id, code);
        return event.id;
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/**
 * Under the code's lock: once `decide` accepts its current row (it throws to refuse), runs `change`. False for an
 * unknown code.
 */
async function changeCode(
  db: Db,
  id: number,
  decide: (code: RegistrationCodeRow) => void,
  change: (tx: Queryable, code: RegistrationCodeRow) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockStream(tx, registrationCodeStream(id));
    return decideAndChange(tx, await loadRegistrationCode(tx, id), decide, change);
  });
}

/** PUT /registration-codes/:id. Returns false for an unknown code; an unchanged code appends nothing. */
export async function updateRegistrationCode(
  db: Db,
  store: EventStore,
  id: number,
  change: { enabled: boolean; role: string },
  actor: Actor,
  decide: (code: RegistrationCodeRow) => void,
): Promise<boolean> {
  return changeCode(db, id, decide, async (tx, code) => {
    if (code.enabled === change.enabled && code.role === change.role) return;
    await append(tx, store, id, 'RegistrationCodeUpdated', { id, ...change }, actor, 'stream_exists');
    await tx.query(
      `UPDATE gateway.registration_codes SET enabled = $2, role = $3, modified_at = now(), modified_by = $4
       WHERE id = $1`,
      [id, change.enabled, change.role, actor.user_id],
    );
  });
}

/** DELETE /registration-codes/:id. Users registered with it keep its id. Returns false for an unknown code. */
export async function deleteRegistrationCode(
  db: Db,
  store: EventStore,
  id: number,
  actor: Actor,
  decide: (code: RegistrationCodeRow) => void,
): Promise<boolean> {
  return changeCode(db, id, decide, async (tx) => {
    await append(tx, store, id, 'RegistrationCodeDeleted', { id }, actor, 'stream_exists');
    await tx.query('DELETE FROM gateway.registration_codes WHERE id = $1', [id]);
    await removeCredential(tx, 'registration_code', id);
  });
}

export const REGISTRATION_CODE_SORT_FIELDS: Record<string, string> = {
  id: 'c.id',
  code: CODE,
  enabled: 'c.enabled',
  role: 'c.role',
  description: 'c.description',
  created_at: 'c.created_at',
  created_by: 'c.created_by',
  modified_at: 'c.modified_at',
  modified_by: 'c.modified_by',
  readable_name: 'r.readable_name',
  email: 'u.email',
};

/** GET /registration-codes: search in the description; `createdBy` limits to one creator (level own). */
export function listRegistrationCodes(db: Queryable, query: ManagedListQuery) {
  return managedPage<RegistrationCodeListRow>(
    db,
    {
      select: `${COLUMNS}, r.readable_name, u.email`,
      from: `FROM gateway.registration_codes c LEFT JOIN gateway.roles r ON r.name = c.role
    LEFT JOIN gateway.users u ON u.id = c.created_by`,
      createdBy: 'c.created_by',
      searched: ['c.description'],
    },
    query,
  );
}
