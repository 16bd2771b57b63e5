// The port admin's commands (savePort, setPortWhitelist) and the recording of a port met on the way (an inbound
// vessel's sender, a departure's next port): load the port under its stream's lock, decide (domain/outgoing.ts),
// append and project.

import { randomUUID } from 'node:crypto';
import { ApiError, type SavePortCommand, type SetPortWhitelistCommand, visPortStream } from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { appendAndProject, portByServiceId, type VisEvent, withStreamLock } from '../adapters/vis-store.ts';
import { mergeLocodes, type PortRow, readLocodes, readWhitelist } from '../domain/outgoing.ts';
import type { VisContext } from './vis-context.ts';

/** Records a port (its name, and the UN/LOCODEs added to its own) inside `tx`, which holds its stream's lock. */
export async function savePortIn(
  ctx: VisContext,
  tx: Queryable,
  name: string,
  serviceId: string,
  locodes: string[],
  metadata: EventMetadata,
): Promise<PortRow> {
  const current = await portByServiceId(tx, serviceId);
  const merged = mergeLocodes(current?.locodes ?? [], locodes);
  const next: PortRow = {
    name,
    service_id: serviceId,
    whitelist_in: current?.whitelist_in ?? true,
    whitelist_out: current?.whitelist_out ?? true,
    locodes: merged,
  };
  if (current && current.name === name && current.locodes.length === merged.length) return next;
  const event: VisEvent = {
    id: randomUUID(),
    type: 'VisPortRecorded',
    data: { name, service_id: serviceId, locodes: merged },
  };
  await appendAndProject(tx, ctx.deps.store, visPortStream(serviceId), [event], metadata);
  return next;
}

export async function savePort(ctx: VisContext, input: SavePortCommand, metadata: EventMetadata) {
  const serviceId = input.service_id.trim();
  if (serviceId === '') throw ApiError.badRequest('Missing service_id');
  const name = input.name.trim();
  if (name === '') throw ApiError.badRequest('Missing name');
  const locodes = readLocodes(input.locodes);
  await withStreamLock(ctx.deps.db, visPortStream(serviceId), (tx) =>
    savePortIn(ctx, tx, name, serviceId, locodes, metadata),
  );
  return { result: 'OK' };
}

export async function setPortWhitelist(ctx: VisContext, input: SetPortWhitelistCommand, metadata: EventMetadata) {
  const whitelist = readWhitelist(input.whitelist);
  const serviceId = input.service_id.trim();
  if (whitelist === undefined || (input.direction !== 'in' && input.direction !== 'out')) return { result: 'ERROR' };
  return withStreamLock(ctx.deps.db, visPortStream(serviceId), async (tx) => {
    const port = await portByServiceId(tx, serviceId);
    if (!port) return { result: 'ERROR' };
    if ((input.direction === 'in' ? port.whitelist_in : port.whitelist_out) !== whitelist) {
      const event: VisEvent = {
        id: randomUUID(),
        type: 'VisPortWhitelistSet',
        data: { service_id: serviceId, direction: input.direction, whitelist },
      };
      await appendAndProject(tx, ctx.deps.store, visPortStream(serviceId), [event], metadata);
    }
    return { result: 'OK' };
  });
}
