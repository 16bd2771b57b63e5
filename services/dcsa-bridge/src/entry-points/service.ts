// Starts the dcsa-bridge on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite + the
// in-process bus). Its commands arrive on `cmd.dcsa-bridge`; it follows vessel.TimestampReceived for the times it
// sends to partners, and delivers its outbox (docs/dcsa.md).

import { commandHandler } from '@pcas/commands';
import { DCSA_BRIDGE, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { partnerClient, type SendToPartner } from '../adapters/partner-client.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { type DeliveryOptions, startDelivery } from './delivery.ts';
import { timelineLink } from './ingest-link.ts';
import { partnerCommands } from './partners.ts';
import { receiveCommands } from './receive.ts';
import { startSending } from './sending.ts';

export interface DcsaBridgeOptions {
  send?: SendToPartner;
  delivery?: DeliveryOptions;
}

export async function startDcsaBridge(deps: ServiceDeps, options: DcsaBridgeOptions = {}): Promise<RunningService> {
  await ensureSchema(deps.db);
  const postToTimeline = timelineLink(deps.bus);
  const delivery = startDelivery(deps, options.send ?? partnerClient(), options.delivery);
  const sending = await startSending(deps, postToTimeline, delivery.kick);
  const rpc = await deps.bus.serveRpc(
    DCSA_BRIDGE,
    commandHandler({
      ...receiveCommands(deps, postToTimeline),
      ...partnerCommands(deps, delivery.kick),
      ...sending.commands,
    }),
  );
  deps.log.info('dcsa-bridge serving cmd.dcsa-bridge');
  return {
    async stop() {
      await rpc.stop();
      await sending.consumer.stop();
      await delivery.stop();
    },
  };
}
