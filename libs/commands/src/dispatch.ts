// The reply side: one RPC handler per service (`cmd.<service>`) that hands each command to its function. What
// the function returns is the reply; an ApiError it throws goes back to the caller with its status and message.

import { ApiError } from '@pcas/contracts';
import type { RpcHandler } from '@pcas/messaging';

export type CommandFunction = (payload: unknown, headers: Record<string, unknown>) => Promise<unknown>;

/** Serves the named commands; any other name is refused with 400 "Unknown command: <name>". */
export function commandHandler(commands: Readonly<Record<string, CommandFunction>>): RpcHandler {
  return async (command, payload, headers) => {
    if (!Object.hasOwn(commands, command)) throw ApiError.badRequest(`Unknown command: ${command}`);
    return commands[command](payload, headers);
  };
}
