// What every cmd.vis-bridge command group shares: the stores, the port's settings, the transport, the VIS
// services known here and the recorder of sends (adapters).

import { randomUUID } from 'node:crypto';
import type { Actor, ServiceDeps } from '@pcas/contracts';
import type { SendRecorder } from '../adapters/send-recorder.ts';
import type { VisTransport } from '../adapters/transport.ts';
import type { VisServiceDirectory } from '../adapters/vis-services.ts';
import { nameBasedId } from '../domain/ids.ts';
import type { VisPortSettings } from '../domain/outgoing.ts';

export interface VisContext {
  deps: ServiceDeps;
  settings: VisPortSettings;
  /** This port's VIS service instance (config VIS_SERVICE_INSTANCE_URN). */
  ownServiceId: string;
  transport: () => VisTransport;
  services: VisServiceDirectory;
  recordSend: SendRecorder;
}

export const SYSTEM: Actor = { user_id: null, api_key_id: null };

export type SendReason = 'user' | 'route_inconsistent' | 'voyage_plan_request';

/**
 * The unique part of a message id we send: from the RPC request's id when the send is a request's (the same on a
 * broker redelivery, so a send delivered twice is one message, stored and queued once: the event and the outbox
 * row are keyed by the message id), else random.
 */
export const uniquePart = (requestId: string | undefined): string =>
  requestId === undefined ? randomUUID() : nameBasedId(['VisSend', requestId]);

/** A sender not known as a VIS service is looked up, as the original did; a failure there is only logged. */
export async function lookUpUnknown(ctx: VisContext, serviceId: string): Promise<void> {
  if (serviceId === '' || (await ctx.services.byId(serviceId))) return;
  try {
    await ctx.transport().findServices({ service_id: serviceId });
  } catch (error) {
    ctx.deps.log.warn({ service_id: serviceId, err: error }, 'VIS service lookup failed');
  }
}
