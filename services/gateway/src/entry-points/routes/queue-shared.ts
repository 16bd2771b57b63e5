// What every queue route file shares (queue.ts composes them): the list parameters and their paging, the module
// every queue route belongs to, and sending a command to the queue-scheduler as the caller.

import { QUEUE_SCHEDULER } from '@pcas/contracts';
import { type AuthContext, type ParamSpec, parseLimit, parseOffset, type Route } from '@pcas/http-kit';
import type { ListQuery } from '../../adapters/read-models/queue.ts';
import { rowId } from '../../domain/user-management.ts';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { int, optionalInt, optionalText } from './params.ts';
import { getById } from './shapes.ts';

export const LIST_PARAMS: Record<string, ParamSpec> = {
  limit: optionalInt(),
  offset: optionalInt(),
  sort: optionalText(),
  search: optionalText(),
};
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

export const listQuery = (params: Record<string, any>): ListQuery => ({
  limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
  offset: parseOffset(params.offset),
  sort: params.sort,
  search: params.search,
});

/** A route of the queue module: off, it answers 403 naming it. */
export const route = (r: Omit<Route, 'module'>): Route => ({ ...r, module: 'queue' }) as Route;

/** GET <path>?id=: one row by its id, an id beyond int4 naming none (rowId). */
export const byIdRoute = (path: string, permission: string, read: (id: number) => Promise<unknown>): Route =>
  getById({ path, permission, module: 'queue' }, (id) => read(rowId(id)));

/** Sends a command over cmd.queue-scheduler on behalf of the caller. */
export const queueSender =
  ({ bus }: GatewayDeps) =>
  <I>(command: string, auth: AuthContext, input: I) =>
    sendAs(bus, QUEUE_SCHEDULER, command, auth, input);

/**
 * DELETE <path>?id=: sends `command` for the row the id names (rowId), with `fields`, the other keys of its input
 * as the command declares them.
 */
export const deleteByIdRoute = (
  deps: GatewayDeps,
  path: string,
  permission: string,
  command: string,
  fields: Record<string, unknown> = {},
): Route => {
  const send = queueSender(deps);
  return route({
    method: 'DELETE',
    path,
    permission,
    params: { id: int() },
    handle: ({ params, auth }) => send(command, auth, { id: rowId(params.id), ...fields }),
  });
};
