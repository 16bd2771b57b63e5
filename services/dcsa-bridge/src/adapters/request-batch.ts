// Many requests of one command in one RPC (putTimestamps: the gateway gathers concurrent ones). Each is handled
// exactly as if it had come alone, all at once (so their posts to ingest share the ingest link's batches), and
// answered on its own: its outcome, or the error it alone would have failed with, as the RPC would have said it.

import type { CommandFunction } from '@pcas/commands';
import { ApiError, type DcsaRequestsCommand, type ItemReply, MAX_DCSA_BATCH } from '@pcas/contracts';
import type { Logger } from '@pcas/observability';

export function batchOf(one: CommandFunction, log: Logger): CommandFunction {
  return async (payload): Promise<ItemReply[]> => {
    const items = (payload as Partial<DcsaRequestsCommand> | null)?.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_DCSA_BATCH) {
      throw ApiError.badRequest('Invalid command');
    }
    return Promise.all(
      items.map(async (item): Promise<ItemReply> => {
        try {
          return { ok: true, result: await one(item?.body, item?.headers ?? {}) };
        } catch (error) {
          if (error instanceof ApiError) return { ok: false, status: error.status, error: error.message };
          log.error({ err: error }, 'a DCSA request in a batch failed');
          return { ok: false, status: 500, error: 'Internal error' };
        }
      }),
    );
  };
}
