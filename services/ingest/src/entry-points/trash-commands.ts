// deleteTimestamp and restoreTimestamp: decode the timestamp's id, load the trash state of its vessel stream,
// decide (domain/trash.ts), append with the loaded version (libs/commands), reply.

import { decideAndAppend, decodeCommand, eventMetadata, invalidTimestampId, parseTimestampId } from '@pcas/commands';
import type { TimestampIdCommand, TimestampReceived } from '@pcas/contracts';
import { loadTrash } from '../adapters/vessel-streams.ts';
import { decideDeleteTimestamp, decideRestoreTimestamp, type TrashEvent, type TrashState } from '../domain/trash.ts';
import { type Headers, type IngestContext, VESSEL_BUSY } from './command-context.ts';

const TRASH_ATTEMPTS = 2;

export function createTrashCommands(ctx: IngestContext) {
  const { store, log, cache } = ctx;

  async function changeTrash(
    payload: unknown,
    headers: Headers,
    decide: (state: TrashState, id: number) => TrashEvent[],
  ): Promise<true> {
    const { actor, input } = decodeCommand<TimestampIdCommand>(payload);
    const id = parseTimestampId(input.id);
    const received = await store.readByGlobalPosition(id);
    if (received?.type !== 'TimestampReceived') throw invalidTimestampId(id);
    const imo = (received.data as TimestampReceived).imo;
    const { version, appended } = await decideAndAppend(
      store,
      {
        streamId: received.streamId,
        load: () => loadTrash(store, received.streamId),
        decide: (state) => decide(state, id),
        metadata: eventMetadata(actor, headers),
      },
      { attempts: TRASH_ATTEMPTS, busyMessage: VESSEL_BUSY, log },
    );
    if (appended) {
      // Keep a cached snapshot that was current: trash events do not change the vessel, only the version.
      const cached = cache.get(imo);
      if (cached?.version === version) cache.set(imo, { ...cached, version: appended.nextExpectedVersion });
    }
    return true;
  }

  return {
    deleteTimestamp: (payload: unknown, headers: Headers = {}) => changeTrash(payload, headers, decideDeleteTimestamp),
    restoreTimestamp: (payload: unknown, headers: Headers = {}) =>
      changeTrash(payload, headers, decideRestoreTimestamp),
  };
}
