// What users send (docs/domain.md#vis-and-other-ports): text messages and RTAs. Each finds its addressee among the
// VIS services known here, builds the message, and records the send with its going out (adapters/send-recorder.ts).

import {
  type Actor,
  ApiError,
  type LookedUpPortCall,
  PORTCALL_PROJECTOR,
  type PortCallsByIdsQuery,
  PortcallCommands,
  PortcallLookups,
  type SendVisRtaCommand,
  type SendVisTextMessageCommand,
  type SendVisTextMessageWithImoCommand,
  type SetPortCallRtaCommand,
  type VisText,
  type VisVesselRecorded,
  type VisVoyagePlanReceived,
  visMessageStream,
} from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import { buildTextMessage, textMessageId } from '@pcas/stm';
import { newestPlanFrom, type VisEvent, visVesselByImo } from '../adapters/vis-store.ts';
import { nameBasedId } from '../domain/ids.ts';
import { stmMessageOf } from '../domain/messages.ts';
import { readRtaTime, requireServiceId } from '../domain/outgoing.ts';
import { type SendReason, SYSTEM, uniquePart, type VisContext } from './vis-context.ts';

const nowUtc = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** Sends a text message and records it (the automatic ones too); resolves to its message id. */
export async function sendText(
  ctx: VisContext,
  to: { service_id: string; service_url: string },
  text: VisText,
  reason: SendReason,
  metadata: EventMetadata,
  requestId?: string,
): Promise<string> {
  const t = ctx.transport();
  const messageId = textMessageId(ctx.settings.portUnlocode || 'port', uniquePart(requestId));
  const time = nowUtc();
  const xml = buildTextMessage({
    id: messageId,
    informationObjectReferenceId: text.information_object_reference_id,
    informationObjectReferenceType: text.information_object_reference_type,
    author: text.author,
    from: ctx.ownServiceId,
    createdAt: time,
    subject: text.subject,
    body: text.body,
  });
  const outgoing = { message_id: messageId, to_service_id: to.service_id, to_url: to.service_url, ...text, xml };
  const event: VisEvent = {
    id: nameBasedId(['VisTextMessageSent', messageId]),
    type: 'VisTextMessageSent',
    data: {
      time,
      from_service_id: ctx.ownServiceId,
      to_service_id: to.service_id,
      to_url: to.service_url,
      message_id: messageId,
      ...text,
      payload: JSON.stringify({ stmMessage: { message: xml } }),
      reason,
      transport: t.mode,
    },
  };
  const stream = visMessageStream(messageId);
  await ctx.recordSend(t, { stream, event, metadata, send: (options) => t.uploadTextMessage(outgoing, options) });
  return messageId;
}

async function knownService(ctx: VisContext, serviceId: string): Promise<VisVesselRecorded> {
  const id = requireServiceId(serviceId);
  const service = await ctx.services.byId(id);
  if (!service) throw ApiError.badRequest(`VIS service ID not found: ${id}`);
  if (service.service_url === '') throw ApiError.badRequest(`VIS service URL not found: ${id}`);
  return service;
}

export async function sendTextMessage(
  ctx: VisContext,
  input: SendVisTextMessageCommand,
  metadata: EventMetadata,
  requestId?: string,
) {
  const to = await knownService(ctx, input.vis_service_id);
  const text: VisText = { author: input.author, subject: input.subject, body: input.body };
  if (input.informationObjectReferenceId) text.information_object_reference_id = input.informationObjectReferenceId;
  if (input.informationObjectReferenceType) {
    text.information_object_reference_type = input.informationObjectReferenceType;
  }
  if (input.area) text.area = input.area;
  await sendText(ctx, to, text, 'user', metadata, requestId);
  return { result: 'OK' };
}

export async function sendTextMessageWithImo(
  ctx: VisContext,
  input: SendVisTextMessageWithImoCommand,
  metadata: EventMetadata,
  requestId?: string,
) {
  const vessel = await visVesselByImo(ctx.deps.db, input.imo);
  if (!vessel) throw ApiError.badRequest("Can't send message since no service_id known");
  return sendTextMessage(
    ctx,
    { vis_service_id: vessel.service_id, author: input.author, subject: input.subject, body: input.body },
    metadata,
    requestId,
  );
}

/** The status of a port call, as the projector has it (its lookup); undefined for none. */
async function portCallStatus(ctx: VisContext, id: number): Promise<string | undefined> {
  const query: PortCallsByIdsQuery = { ids: [id] };
  const found = await ctx.deps.bus.rpc<LookedUpPortCall[]>(PORTCALL_PROJECTOR, PortcallLookups.portCallsByIds, {
    actor: SYSTEM,
    input: query,
  });
  return found[0]?.status;
}

/** The RTA's times and its voyage plan, checked before anything is sent. */
async function readRta(ctx: VisContext, input: SendVisRtaCommand) {
  const rta = readRtaTime('rta', input.rta);
  const etaMin = input.eta_min.trim() === '' ? '' : readRtaTime('eta_min', input.eta_min);
  const etaMax = input.eta_max.trim() === '' ? '' : readRtaTime('eta_max', input.eta_max);
  const serviceId = requireServiceId(input.vis_service_id);
  const portCallId = input.port_call_id ?? null;
  if (portCallId !== null && (await portCallStatus(ctx, portCallId)) !== 'arriving') {
    throw ApiError.badRequest('Port call is not at arriving status');
  }
  const plan = await newestPlanFrom(ctx.deps.db, serviceId);
  if (!plan) throw ApiError.badRequest(`Cannot find voyage plan for VIS service ID: ${serviceId}`);
  const rtz = stmMessageOf(plan.payload);
  if (rtz === undefined) throw ApiError.badRequest(`Cannot find voyage plan message for VIS service ID: ${serviceId}`);
  return { rta, etaMin, etaMax, serviceId, portCallId, plan, rtz };
}

export async function sendRta(
  ctx: VisContext,
  input: SendVisRtaCommand,
  actor: Actor,
  metadata: EventMetadata,
  requestId?: string,
) {
  const { rta, etaMin, etaMax, serviceId, portCallId, plan, rtz } = await readRta(ctx, input);
  const to = await knownService(ctx, serviceId);
  const t = ctx.transport();
  const messageId = `urn:mrn:stm:rtz:${ctx.settings.portUnlocode || 'port'}:${uniquePart(requestId)}`;
  const time = nowUtc();
  const outgoing = {
    message_id: messageId,
    to_service_id: to.service_id,
    to_url: to.service_url,
    rtz_parse_results: plan.rtz_parse_results,
    rtz,
    rta,
    eta_min: etaMin,
    eta_max: etaMax,
  };
  const sentPlan: VisVoyagePlanReceived = {
    time,
    from_service_id: ctx.ownServiceId,
    to_service_id: to.service_id,
    message_id: messageId,
    message_type: 'RTZ',
    rtz_state: 'RTA_SENT',
    rtz_parse_results: plan.rtz_parse_results,
    payload: JSON.stringify({ stmMessage: { message: rtz }, rta, eta_min: etaMin, eta_max: etaMax }),
    ack: false,
  };
  const event: VisEvent = {
    id: nameBasedId(['VisRtaSent', messageId]),
    type: 'VisRtaSent',
    data: {
      message_id: messageId,
      time,
      to_service_id: to.service_id,
      to_url: to.service_url,
      voyage_plan_message_id: plan.message_id,
      rta,
      eta_min: etaMin,
      eta_max: etaMax,
      port_call_id: portCallId,
      transport: t.mode,
      ...(t.mode === 'direct' ? { plan: sentPlan } : {}),
    },
  };
  const stream = visMessageStream(messageId);
  await ctx.recordSend(t, { stream, event, metadata, send: (options) => t.sendRta(outgoing, options) });
  // The port call's rta and rta_details are the projector's (its timeline shows them).
  if (to.imo > 0 || portCallId !== null) {
    const rtaInput: SetPortCallRtaCommand = {
      imo: to.imo,
      port_call_id: portCallId,
      rta,
      eta_min: etaMin || null,
      eta_max: etaMax || null,
    };
    try {
      await ctx.deps.bus.rpc(PORTCALL_PROJECTOR, PortcallCommands.setPortCallRta, { actor, input: rtaInput });
    } catch (error) {
      if (portCallId !== null) throw error;
      ctx.deps.log.info({ imo: to.imo, err: error }, 'RTA sent; no port call to store it on');
    }
  }
  return { result: 'OK' };
}
