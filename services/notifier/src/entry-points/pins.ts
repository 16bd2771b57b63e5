// cmd.notifier's pinned-vessel command: PUT /pinned-vessel-ids, decided against the user's pins-<userId> stream,
// the read model written in the append's transaction (the gateway reads it for GET /pinned-vessel-ids and
// GET /ongoing-port-calls).

import {
  type CommandFunction,
  decideAndAppendInTransaction,
  decodeCommand,
  eventMetadata,
  type Unchecked,
} from '@pcas/commands';
import { ApiError, PinCommands, pinsStream, type ServiceDeps, type SetPinnedVesselsCommand } from '@pcas/contracts';
import { loadPins, savePins } from '../adapters/pins.ts';
import { checkPinnedVessels, decideSetPins } from '../domain/pins.ts';

export function pinCommands(deps: Pick<ServiceDeps, 'db' | 'store' | 'log'>): Record<string, CommandFunction> {
  const { db, store, log } = deps;

  /** Replies the list as stored (the same list again appends nothing). */
  async function setPinnedVessels(payload: unknown, headers: Record<string, unknown> = {}): Promise<number[]> {
    const { actor, input } = decodeCommand<Unchecked<SetPinnedVesselsCommand>>(payload);
    const userId = actor.user_id;
    // Pins are a person's: the gateway only sends this for a signed-in user (or a key bound to one).
    if (userId === null) throw ApiError.forbidden('Pinned vessels belong to a user');
    const imos = checkPinnedVessels(input.vessel_ids ?? []);
    let loadedVersion = 0;
    await decideAndAppendInTransaction(
      db,
      store,
      {
        streamId: pinsStream(userId),
        async load(tx) {
          const loaded = await loadPins(tx, userId);
          loadedVersion = loaded.version;
          return loaded;
        },
        decide: (current) => decideSetPins(userId, current, imos),
        metadata: eventMetadata(actor, headers),
        async project(tx, events) {
          for (const [i, event] of events.entries()) await savePins(tx, event.data, loadedVersion + i + 1);
        },
      },
      { log },
    );
    return imos;
  }

  return { [PinCommands.setPinnedVessels]: setPinnedVessels };
}
