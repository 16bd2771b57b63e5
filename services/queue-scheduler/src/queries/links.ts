// What the gateway reads of this service's signed links (docs/domain.md#queue-e-mails-and-live-eta) to check them
// where they arrive: the public half of the key it generated (`queue.link_keys`) and since when links name their kind
// (`queue.link_kinds`). Both tables are made at this service's start; until then there is nothing.

import type { Queryable } from '@pcas/sql';

const tableExists = async (db: Queryable, table: string) =>
  (await db.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [table])).rows[0]?.ok === true;

/** The PEM of the public key this service signs links with when none is configured; undefined until it made one. */
export async function linkPublicKey(db: Queryable): Promise<string | undefined> {
  const found = (await tableExists(db, 'queue.link_keys'))
    ? (await db.query<{ pem: string }>('SELECT public_key_pem AS pem FROM queue.link_keys WHERE id = 1')).rows[0]
    : undefined;
  return found?.pem;
}

/**
 * When links began to name their kind (epoch ms); undefined while no queue-scheduler of this version has started,
 * when every link there is was signed without.
 */
export async function linksTypedSince(db: Queryable): Promise<number | undefined> {
  if (!(await tableExists(db, 'queue.link_kinds'))) return undefined;
  const { rows } = await db.query<{ since: string }>(
    'SELECT (extract(epoch FROM since) * 1000)::text AS since FROM queue.link_kinds WHERE id = 1',
  );
  return rows[0] ? Number(rows[0].since) : undefined;
}
