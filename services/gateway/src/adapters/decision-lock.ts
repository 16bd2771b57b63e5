// Deciders that read state, decide and append must not interleave on one stream (two equal PUTs would both
// see "absent" and both record a change). An advisory lock per stream serializes them; it assigns no
// transaction id, so `store.append` still comes before the transaction's first write (libs/eventstore).

import { lockForTransaction, type Queryable } from '@pcas/sql';

export async function lockStreamForDecision(tx: Queryable, streamId: string): Promise<void> {
  await lockForTransaction(tx, 'gateway-decide', streamId);
}
