// RPC of the in-process bus (in-process-bus.ts): a service's handlers, and a call that waits for a server to be
// registered, as a durable `cmd.<service>` queue would hold the request.

import { randomUUID } from 'node:crypto';
import { isApiError } from '@pcas/errors';
import type { Logger } from '@pcas/observability';
import { currentTraceCarrier, rpcDuration, timed } from '@pcas/observability';
import { didNotAnswer, errorToReply, type RpcReply, unwrapReply, wireCopy } from './rpc-reply.ts';
import type { Consumer, RpcHandler, RpcOptions } from './types.ts';
import { RPC_ID_HEADER } from './types.ts';

export interface LocalServers {
  handlers: Map<string, RpcHandler[]>;
  /** Calls waiting for a service's first server. */
  waiters: Map<string, Set<() => void>>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function serveLocalRpc(servers: LocalServers, service: string, handler: RpcHandler): Consumer {
  servers.handlers.set(service, [...(servers.handlers.get(service) ?? []), handler]);
  for (const wake of servers.waiters.get(service) ?? []) wake();
  return {
    async stop() {
      servers.handlers.set(
        service,
        (servers.handlers.get(service) ?? []).filter((h) => h !== handler),
      );
    },
  };
}

export async function callLocalRpc<T>(
  servers: LocalServers,
  log: Logger,
  service: string,
  command: string,
  payload: unknown,
  opts: RpcOptions,
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers = wireCopy({ ...currentTraceCarrier(), ...opts.headers });
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(didNotAnswer(service)), timeoutMs);
  });
  const call = async (): Promise<RpcReply> => {
    // A server registered later still answers, as a durable `cmd.<service>` queue would hold the request.
    while (!servers.handlers.get(service)?.length) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        const waiters = servers.waiters.get(service) ?? new Set();
        waiters.add(resolve);
        servers.waiters.set(service, waiters);
      });
    }
    const handler = servers.handlers.get(service)![0];
    try {
      const served = { ...headers, [RPC_ID_HEADER]: randomUUID() };
      return { ok: true, result: wireCopy(await handler(command, wireCopy(payload), served)) };
    } catch (error) {
      if (!isApiError(error)) log.error({ err: error, service, command }, 'rpc handler failed');
      return errorToReply(error);
    }
  };
  try {
    // One side only: in one process the caller's wait is the handler's time.
    return await timed(rpcDuration, { side: 'client', service, command }, async () =>
      unwrapReply<T>(await Promise.race([call(), timeout])),
    );
  } finally {
    clearTimeout(timer);
    if (wake) servers.waiters.get(service)?.delete(wake);
  }
}
