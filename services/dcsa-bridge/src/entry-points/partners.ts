// cmd.dcsa-bridge, administration (docs/dcsa.md#partners): registering and changing a DCSA partner (its event on
// dcsapartner-<id>, its row and its credentials in one transaction; the credentials never in the event), and putting
// a partner's refused messages back in its queue.

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import { ApiError, DcsaCommands, type DcsaPartnerCommand, type ServiceDeps } from '@pcas/contracts';
import { requeueRefused, saveCredentials } from '../adapters/outbox-store.ts';
import { partnerById, project, streams } from '../adapters/store.ts';
import { partnerEvent, readPartner } from '../domain/partners.ts';

export function partnerCommands(deps: ServiceDeps, kick: () => void): Record<string, CommandFunction> {
  const { db, store } = deps;

  async function save(payload: unknown, headers: Record<string, unknown>, existingId?: number) {
    const { actor, input } = decodeCommand<DcsaPartnerCommand>(payload);
    const partner = readPartner(input as unknown as Record<string, unknown>);
    const taken = await db.query<{ id: number; name: string }>(
      'SELECT id, name FROM dcsa.partners WHERE api_key_id = $1',
      [partner.api_key_id],
    );
    const other = taken.rows.find((row) => row.id !== existingId);
    if (other) throw ApiError.badRequest(`API key ${partner.api_key_id} already belongs to partner ${other.name}`);
    const current = existingId === undefined ? undefined : await partnerById(db, existingId);
    if (existingId !== undefined && !current) throw new ApiError(404, 'DCSA partner not found');
    return db.transaction(async (tx) => {
      const id =
        existingId ?? (await tx.query<{ id: number }>("SELECT nextval('dcsa.partner_ids')::int AS id")).rows[0].id;
      const event = partnerEvent(id, partner, current !== undefined);
      const appended = await store.append(
        streams.partner(id),
        [{ ...event, metadata: eventMetadata(actor, headers) }],
        {
          expectedVersion: current ? current.version : 'no_stream',
          tx,
        },
      );
      await project(tx, event, appended.nextExpectedVersion);
      if (partner.credentials !== undefined) await saveCredentials(tx, id, partner.credentials);
      return { id };
    });
  }

  return {
    [DcsaCommands.registerPartner]: (payload, headers) => save(payload, headers),
    [DcsaCommands.changePartner]: async (payload, headers) => {
      const id = Number((payload as { input?: { id?: unknown } })?.input?.id);
      if (!Number.isSafeInteger(id) || id <= 0) throw ApiError.badRequest('Invalid id');
      const result = await save(payload, headers, id);
      kick();
      return result;
    },
    [DcsaCommands.retryOutbox]: async (payload) => {
      const { input } = decodeCommand<{ id: number }>(payload);
      const requeued = await requeueRefused(db, Number(input.id));
      kick();
      return { requeued };
    },
  };
}
