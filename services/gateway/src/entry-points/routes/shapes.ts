// The route shapes many areas share, declared once: a list also served with the original's `/:limit` segment,
// one row read by its id, and a route that only sends one command to the service owning it, as the caller.

import type { Route } from '@pcas/http-kit';
import type { Bus } from '@pcas/messaging';
import { sendAs } from '../actor.ts';
import { int } from './params.ts';

/**
 * The list at `path` and at `path/:limit`: the original's router matched by prefix, so its clients call either.
 * The list reads a `limit` itself, if at all.
 */
export const withLimitSegment = (path: string, list: Omit<Route, 'path'>): Route[] => [
  { ...list, path },
  { ...list, path: `${path}/:limit` },
];

/** GET <path>?id=: one row by its id, answered as `read` gives it. */
export const getById = (
  declared: Pick<Route, 'path' | 'permission' | 'module'>,
  read: (id: number) => Promise<unknown>,
): Route => ({
  method: 'GET',
  ...declared,
  params: { id: int() },
  handle: ({ params }) => read(params.id),
});

/** A route whose parameters, as `input` takes them, are a command of one service; its reply is the answer. */
export type CommandRoute<I> = Omit<Route, 'handle'> & {
  command: string;
  input: (params: Record<string, any>) => I;
};

/**
 * Declares the command routes of one service, each sent over cmd.<service> on behalf of the caller; `settled`,
 * when given, runs once the reply or the error has come back.
 */
export const commandRoutes =
  (bus: Bus, service: string, settled?: () => void) =>
  <I>({ command, input, ...declared }: CommandRoute<I>): Route => ({
    ...declared,
    handle: async ({ params, auth }) => {
      const reply = sendAs<I>(bus, service, command, auth, input(params));
      return settled ? reply.finally(settled) : reply;
    },
  });

/** A command whose whole input is the `id` parameter (closing or deleting one row). */
export const idCommand = (
  declared: Omit<CommandRoute<{ id: number }>, 'params' | 'input'>,
): CommandRoute<{ id: number }> => ({
  ...declared,
  params: { id: int() },
  input: (params) => ({ id: params.id }),
});
