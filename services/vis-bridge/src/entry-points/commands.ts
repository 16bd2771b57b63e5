// cmd.vis-bridge (docs/domain.md#vis-and-other-ports): the RPC table and the inbox, wired to one file per command
// group, each command reading decode → load state → decide (src/domain) → append (and project) → reply:
// - incoming-commands.ts: what comes in from ships and other ports (the agent's posts, direct mode's peers)
// - outgoing-commands.ts: what users send (text messages, RTAs)
// - port-commands.ts: the port admin and its whitelists
// The VIS services known here (adapters/vis-services.ts) and the recording of sends with their going out
// (adapters/send-recorder.ts) are adapters the commands use. A refused call is a 400 and stores nothing.

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type Actor,
  type FindVisServicesCommand,
  type SendVisRtaCommand,
  type SendVisTextMessageCommand,
  type SendVisTextMessageWithImoCommand,
  type ServiceDeps,
  VisBridgeCommands,
  type VisText,
} from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import { RPC_ID_HEADER } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { createSendRecorder } from '../adapters/send-recorder.ts';
import type { VisInbox, VisTransport } from '../adapters/transport.ts';
import { createVisServiceDirectory } from '../adapters/vis-services.ts';
import type { PortRow, VisPortSettings } from '../domain/outgoing.ts';
import {
  receiveMany,
  receiveNotification,
  receiveTextMessage,
  receiveVoyagePlan,
  recordInboundVessel,
  recordVisVessel,
} from './incoming-commands.ts';
import { sendRta, sendText, sendTextMessage, sendTextMessageWithImo } from './outgoing-commands.ts';
import { savePort, savePortIn, setPortWhitelist } from './port-commands.ts';
import { type SendReason, SYSTEM, type VisContext } from './vis-context.ts';

export interface VisCommandSet {
  commands: Record<string, CommandFunction>;
  /** The receiving side, for a transport that delivers in process (direct mode). */
  inbox: VisInbox;
  /** Sends a text message and records it (the automatic ones too). */
  sendText(
    to: { service_id: string; service_url: string },
    text: VisText,
    reason: SendReason,
    metadata: EventMetadata,
    requestId?: string,
  ): Promise<string>;
  /** Records a port (used when departures find the services of a UN/LOCODE). */
  savePort(
    tx: Queryable,
    name: string,
    serviceId: string,
    locodes: string[],
    metadata: EventMetadata,
  ): Promise<PortRow>;
  settings: VisPortSettings;
}

type Command<P> = (ctx: VisContext, input: P, metadata: EventMetadata) => Promise<unknown>;
type ActorCommand<P> = (
  ctx: VisContext,
  input: P,
  metadata: EventMetadata,
  actor: Actor,
  requestId?: string,
) => Promise<unknown>;

const ok = { result: 'OK' } as const;

export function visCommands(deps: ServiceDeps, transport: () => VisTransport): VisCommandSet {
  const { config } = deps;
  const settings: VisPortSettings = config.vis;
  const ctx: VisContext = {
    deps,
    settings,
    ownServiceId: config.vis.serviceInstanceUrn,
    transport,
    services: createVisServiceDirectory(deps.db),
    recordSend: createSendRecorder(deps.db, deps.store, transport),
  };

  // Decode, then the command with who acted (its events' metadata); an incoming one answers OK.
  const incoming =
    <P>(fn: Command<P>): CommandFunction =>
    async (payload, headers) => {
      const { actor, input } = decodeCommand<P>(payload);
      await fn(ctx, input, eventMetadata(actor, headers));
      return ok;
    };
  const withActor =
    <P>(fn: ActorCommand<P>): CommandFunction =>
    async (payload, headers) => {
      const { actor, input } = decodeCommand<P>(payload);
      const requestId = typeof headers[RPC_ID_HEADER] === 'string' ? headers[RPC_ID_HEADER] : undefined;
      return fn(ctx, input, eventMetadata(actor, headers), actor, requestId);
    };

  const commands: Record<string, CommandFunction> = {
    [VisBridgeCommands.recordVisVessel]: incoming(recordVisVessel),
    [VisBridgeCommands.receiveTextMessage]: incoming(receiveTextMessage),
    [VisBridgeCommands.receiveNotification]: incoming(receiveNotification),
    [VisBridgeCommands.receiveVoyagePlan]: incoming(receiveVoyagePlan),
    [VisBridgeCommands.recordInboundVessel]: incoming(recordInboundVessel),
    [VisBridgeCommands.sendTextMessage]: withActor((c, input: SendVisTextMessageCommand, metadata, _actor, requestId) =>
      sendTextMessage(c, input, metadata, requestId),
    ),
    [VisBridgeCommands.sendTextMessageWithImo]: withActor(
      (c, input: SendVisTextMessageWithImoCommand, metadata, _actor, requestId) =>
        sendTextMessageWithImo(c, input, metadata, requestId),
    ),
    [VisBridgeCommands.sendRta]: withActor((c, input: SendVisRtaCommand, metadata, actor, requestId) =>
      sendRta(c, input, actor, metadata, requestId),
    ),
    [VisBridgeCommands.findServices]: withActor(async (c, input: FindVisServicesCommand) => {
      await c.transport().findServices({ imo: input.imo, service_id: input.service_id });
      return ok;
    }),
    [VisBridgeCommands.poll]: withActor(async (c) => {
      await c.transport().poll();
      return ok;
    }),
    [VisBridgeCommands.configuration]: withActor((c) => c.transport().configuration()),
    [VisBridgeCommands.savePort]: withActor(savePort),
    [VisBridgeCommands.setPortWhitelist]: withActor(setPortWhitelist),
  };

  const system = () => eventMetadata(SYSTEM, {});
  const inbox: VisInbox = {
    recordVisVessel: (input) => recordVisVessel(ctx, input, system()),
    receiveTextMessage: (input) => receiveTextMessage(ctx, input, system()),
    receiveNotification: (input) => receiveNotification(ctx, input, system()),
    receiveMany: (items, alsoInTx) => receiveMany(ctx, items, system(), alsoInTx),
    receiveVoyagePlan: (input) => receiveVoyagePlan(ctx, input, system()),
    recordInboundVessel: (input) => recordInboundVessel(ctx, input, system()),
  };

  return {
    commands,
    inbox,
    sendText: (to, text, reason, metadata, requestId) => sendText(ctx, to, text, reason, metadata, requestId),
    savePort: (tx, name, serviceId, locodes, metadata) => savePortIn(ctx, tx, name, serviceId, locodes, metadata),
    settings,
  };
}
