// A command that creates something (a slot request, a notification) gets a new id from a sequence each time it is
// decided, so the stream's expected version cannot tell a redelivered request from a new one. The request's RPC id
// (`rpc_id`, the same on every delivery of one request) is recorded in the decision's own transaction with the
// reply: a redelivery after a crash between the commit and the reply finds it and answers the same, deciding nothing.

import { RPC_ID_HEADER } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';

/** How long a decided request is remembered: far longer than any request waits in its queue (its RPC timeout). */
const REMEMBERED = '1 day';
/** One decision in this many also forgets the requests older than that. */
const PRUNE_EVERY = 1000;

/** The table, in the service's own schema; part of its schema statements. */
export const decidedCommandsTableSql = (schema: string) => `
  CREATE TABLE IF NOT EXISTS ${schema}.decided_commands (
    rpc_id text PRIMARY KEY,
    reply jsonb,
    decided_at timestamptz NOT NULL DEFAULT now()
  )`;

let decisions = 0;

/**
 * Runs `decide` inside `tx` unless the request with these headers was decided before, in which case its reply is
 * returned and nothing is decided. A concurrent delivery of the same request waits on the first one's row and then
 * answers with its reply. Requests without an RPC id (a direct call) are always decided.
 */
export async function decideOnce<T>(
  tx: Queryable,
  schema: string,
  headers: Record<string, unknown>,
  decide: () => Promise<T>,
): Promise<T> {
  const rpcId = headers[RPC_ID_HEADER];
  if (typeof rpcId !== 'string' || rpcId === '') return decide();
  const table = `${schema}.decided_commands`;
  const claimed = await tx.query(`INSERT INTO ${table} (rpc_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1`, [
    rpcId,
  ]);
  if (claimed.rows.length === 0) {
    const { rows } = await tx.query<{ reply: T }>(`SELECT reply FROM ${table} WHERE rpc_id = $1`, [rpcId]);
    return rows[0]?.reply as T;
  }
  const reply = await decide();
  await tx.query(`UPDATE ${table} SET reply = $2 WHERE rpc_id = $1`, [rpcId, JSON.stringify(reply ?? null)]);
  if (++decisions % PRUNE_EVERY === 0) {
    await tx.query(`DELETE FROM ${table} WHERE decided_at < now() - interval '${REMEMBERED}'`);
  }
  return reply;
}
