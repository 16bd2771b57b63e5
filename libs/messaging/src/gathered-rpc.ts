// Calls of a command that takes many items (`{ items }`, answered with a reply each, in RpcReply's shape) gathered
// into one RPC: the first goes at once (with `sameTurn`, at the end of its turn of the event loop, with the calls of
// that turn), the calls made while it is on its way leave together when it returns (@pcas/batching). Each caller
// gets its own item's result, or its refusal as the ApiError it would have got alone. For requests that arrive in
// bulk: the agent API's posts to ingest, a DCSA partner's timestamps.

import { createBatcher } from '@pcas/batching';
import { type RpcReply, unwrapReply } from './rpc-reply.ts';
import type { Bus } from './types.ts';

export function gatheredRpc<I, R>(
  bus: Bus,
  service: string,
  command: string,
  options: { maxItems: number; maxInFlight?: number; sameTurn?: boolean },
): (item: I) => Promise<R> {
  return createBatcher<I, R>(
    async (items) => {
      const replies = await bus.rpc<RpcReply[]>(service, command, { items });
      return replies.map((reply) => {
        try {
          return { ok: true, value: unwrapReply<R>(reply) };
        } catch (error) {
          return { ok: false, error };
        }
      });
    },
    { maxItems: options.maxItems, maxInFlight: options.maxInFlight ?? 1, sameTurn: options.sameTurn },
  );
}
