// The public half of this service's peer sealing key (vis.peer_sealing_key, made at its first start), which the
// gateway seals a peer's secret to before it sends the secret on (docs/architecture.md#vis-direct-mode).

import type { Queryable } from '@pcas/sql';

/** The key's PEM, or undefined while this service has not made it yet. */
export async function peerSealingKey(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ public_pem: string }>('SELECT public_pem FROM vis.peer_sealing_key WHERE id = 1');
  return rows[0]?.public_pem;
}
