// Starts the vis-bridge service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite +
// the in-process bus). Its commands arrive on `cmd.vis-bridge`; it follows the projector's port-call changes for the
// voyage-plan requests and departures it sends (docs/domain.md#vis-and-other-ports).

import { commandHandler } from '@pcas/commands';
import { type RunningService, type ServiceDeps, VIS_BRIDGE } from '@pcas/contracts';
import { reportOutboxDepth } from '../adapters/outbox-depth.ts';
import { ensurePeerSchema } from '../adapters/peer-schema.ts';
import { ensureSchema } from '../adapters/schema.ts';
import type { VisTransport } from '../adapters/transport.ts';
import { visCommands } from './commands.ts';
import { startDirectMode } from './direct-mode.ts';
import { startPortCallWatch } from './port-calls.ts';
import { chooseTransport } from './transport.ts';

export async function startVisBridge(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  await ensurePeerSchema(deps.db);
  let transport: VisTransport | undefined;
  const current = (): VisTransport => {
    if (!transport) throw new Error('VIS transport not started');
    return transport;
  };
  const vis = visCommands(deps, current);
  // Direct mode (no VIS agent) is the default: the bridge itself is the endpoint its peers reach.
  const direct = deps.config.vis.agentApiUrl ? undefined : await startDirectMode(deps, vis.inbox);
  transport = chooseTransport(deps, direct?.transport);
  const rpc = await deps.bus.serveRpc(VIS_BRIDGE, commandHandler({ ...vis.commands, ...direct?.commands }));
  const watch = await startPortCallWatch(deps, vis, current);
  const stopReporting = reportOutboxDepth(deps.db);
  deps.log.info({ transport: transport.mode }, 'vis-bridge serving cmd.vis-bridge');
  return {
    async stop() {
      stopReporting();
      await watch.stop();
      await rpc.stop();
      await transport?.stop?.();
      await direct?.stop();
    },
  };
}
