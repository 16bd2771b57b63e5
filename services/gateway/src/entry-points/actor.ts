// Who is acting, as a command's body and an event's metadata record it: the signed-in user, or the API key a
// data source sends. One definition for every route, and one way to send a command on the caller's behalf.

import type { Actor, CommandBody } from '@pcas/contracts';
import type { AuthContext } from '@pcas/http-kit';
import type { Bus } from '@pcas/messaging';

export const actorOf = (auth: AuthContext): Actor => ({ user_id: auth.userId, api_key_id: auth.apiKeyId });

/** Sends `command` over cmd.<service> on behalf of the caller: the body `{actor, input}` (CommandBody). */
export function sendAs<I, R = unknown>(
  bus: Bus,
  service: string,
  command: string,
  auth: AuthContext,
  input: I,
): Promise<R> {
  return bus.rpc<R>(service, command, { actor: actorOf(auth), input } satisfies CommandBody<I>);
}
