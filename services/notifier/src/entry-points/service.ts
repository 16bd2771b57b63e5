// Starts the notifier on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ + Redis; embedded: PGlite +
// the in-process bus). Its commands arrive on `cmd.notifier`; each area contributes its command functions.

import { commandHandler } from '@pcas/commands';
import { NOTIFIER, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { notificationObject } from '../adapters/notifications.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { startCopies } from './copies.ts';
import { notificationCommands } from './notifications.ts';
import { pinCommands } from './pins.ts';
import { startPortCallChanges } from './port-call-changes.ts';
import { startPush } from './push.ts';
import { pushTokenCommands } from './push-tokens.ts';
import { startRealtimeFeed } from './realtime-feed.ts';
import { startVisChanges } from './vis-changes.ts';

export async function startNotifier(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  const copies = await startCopies(deps);
  const rpc = await deps.bus.serveRpc(
    NOTIFIER,
    commandHandler({ ...pinCommands(deps), ...notificationCommands(deps), ...pushTokenCommands(deps) }),
  );
  const realtime = await startRealtimeFeed(deps, { readNotification: notificationObject });
  const portCalls = await startPortCallChanges(deps, { send: realtime.send });
  const vis = await startVisChanges(deps, { send: realtime.send });
  const push = await startPush(deps);
  deps.log.info('notifier serving cmd.notifier');
  return {
    async stop() {
      await rpc.stop();
      await portCalls.stop();
      await vis.stop();
      await realtime.stop();
      await push.stop();
      await copies.stop();
    },
  };
}
