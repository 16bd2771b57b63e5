// What the gateway reads of this service's signed links (docs/domain.md#queue-e-mails-and-live-eta) to check them
// where they arrive: the public half of the key it generated (`queue.link_keys`) and since when links name their kind
// (`queue.link_kinds`). Both are empty until a queue-scheduler process has started.

import type { Queryable } from '@pcas/sql';

/** The PEM of the public key this service signs links with when none is configured; undefined until it made one. */
export async function linkPublicKey(db: Queryable): Promise<string | undefined> {
  const found = (await db.query<{ pem: string }>('SELECT public_key_pem AS pem FROM queue.link_keys WHERE id = 1'))
    .rows[0];
  return found?.pem;
}

/**
 * When links began to name their kind (epoch ms); undefined while no queue-scheduler of this version has started,
 * when every link there is was signed without.
 */
export async function linksTypedSince(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ since: string }>(
    'SELECT (extract(epoch FROM since) * 1000)::text AS since FROM queue.link_kinds WHERE id = 1',
  );
  return rows[0] ? Number(rows[0].since) : undefined;
}
