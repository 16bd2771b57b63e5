// setVesselType: PUT /vessel (by the vessel's row id) and POST /agent/rest/vessel-type (by IMO).

import { decodeCommand, eventMetadata, positiveId } from '@pcas/commands';
import { type SetVesselTypeCommand, vesselStream } from '@pcas/contracts';
import { findVesselType, lockVesselType, saveVesselType } from '../adapters/vessels.ts';
import { decideSetVesselType } from '../domain/vessel-type.ts';
import type { Headers, IngestContext } from './command-context.ts';

export function createVesselTypeCommand(ctx: IngestContext) {
  const { db, store, cache } = ctx;

  /**
   * Decided against the vessels row under the vessel's type lock, appended to `vessel-<imo>` with the row's update
   * in one transaction. The decision depends on the row alone, which only this command changes and only under that
   * lock, so the append needs no expected version and concurrent timestamp posts of the vessel never conflict
   * with it.
   */
  async function setVesselType(payload: unknown, headers: Headers = {}): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SetVesselTypeCommand>(payload);
    const id = positiveId(input.id);
    const imo = positiveId(input.imo);
    const key = id !== undefined ? { id } : imo !== undefined ? { imo } : undefined;
    const found = key && (await findVesselType(db, key));
    await db.transaction(async (tx) => {
      if (found) await lockVesselType(tx, found.imo);
      const current = found && (await findVesselType(tx, { imo: found.imo }));
      const events = decideSetVesselType(current, input.vessel_type);
      if (!current || events.length === 0) return;
      const metadata = eventMetadata(actor, headers);
      await store.append(
        vesselStream(current.imo),
        events.map((e) => ({ ...e, metadata })),
        { expectedVersion: 'any', tx },
      );
      await saveVesselType(tx, current.imo, events[0].data.vessel_type, actor.user_id);
      // A cached snapshot is one event behind now; the next post reads it again.
      cache.delete(current.imo);
    });
    return { result: 'OK' };
  }

  return { setVesselType };
}
