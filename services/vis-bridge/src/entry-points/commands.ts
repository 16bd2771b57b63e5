// cmd.vis-bridge (docs/domain.md#vis-and-other-ports): what comes in from ships and other ports (the agent's posts,
// or direct mode's peers through the same VisInbox), what users send, the port admin and its whitelists. Each
// command checks its input with the domain, appends its events and writes its rows in one transaction, and calls
// the transport for what goes out (a refused call is a 400 and stores nothing).

import { randomUUID } from 'node:crypto';
import { createBatcher, type ItemOutcome } from '@pcas/batching';
import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type Actor,
  ApiError,
  type FindVisServicesCommand,
  type InboundVesselRecorded,
  PORTCALL_PROJECTOR,
  PortcallCommands,
  type ReceiveVisMessageCommand,
  type ReceiveVisNotificationCommand,
  type ReceiveVisVoyagePlanCommand,
  type RecordInboundVesselCommand,
  type RecordVisVesselCommand,
  type SavePortCommand,
  type SendVisRtaCommand,
  type SendVisTextMessageCommand,
  type SendVisTextMessageWithImoCommand,
  type ServiceDeps,
  type SetPortCallRtaCommand,
  type SetPortWhitelistCommand,
  toUtcTimestamp,
  VisBridgeCommands,
  type VisTextMessageReceived,
  type VisVesselRecorded,
  type VisVoyagePlanReceived,
  visInboundStream,
  visMessageStream,
  visPortStream,
  visVesselStream,
} from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import { RPC_ID_HEADER } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { buildTextMessage, parseTextMessage, textMessageId } from '@pcas/stm';
import type { InboxItem, SendOptions, VisInbox, VisTransport } from '../adapters/transport.ts';
import {
  acknowledgedAmong,
  appendAndProject,
  appendManyAndProject,
  isAcknowledged,
  newestPlanFrom,
  portByServiceId,
  type StreamEvents,
  type VisEvent,
  vesselImoByName,
  visVesselByImo,
  visVesselByServiceId,
  visVesselsByServiceIds,
  withStreamLock,
} from '../adapters/vis-store.ts';
import { nameBasedId } from '../domain/ids.ts';
import {
  decideVisVessel,
  needsImoByName,
  notificationEventId,
  parseJsonObject,
  parseResultsOf,
  readNotification,
  readTextMessage,
  readVisVessel,
  readVoyagePlan,
  resolveVisVesselImo,
  stmMessageOf,
  textMessageEventId,
  voyagePlanEventId,
} from '../domain/messages.ts';
import {
  type AutomaticText,
  checkInboundAllowed,
  mergeLocodes,
  type PortRow,
  readLocodes,
  readRtaTime,
  readWhitelist,
  requireServiceId,
  routeInconsistentReply,
  type VisPortSettings,
} from '../domain/outgoing.ts';

const SYSTEM: Actor = { user_id: null, api_key_id: null };
/** How long a VIS service found stays remembered (see serviceById). */
const KNOWN_SERVICE_TTL_MS = 1_000;

/**
 * The unique part of a message id we send: from the RPC request's id when the send is a request's (the same on a
 * broker redelivery, so a send delivered twice is one message, stored and queued once: the event and the outbox
 * row are keyed by the message id), else random.
 */
const uniquePart = (requestId: string | undefined): string =>
  requestId === undefined ? randomUUID() : nameBasedId(['VisSend', requestId]);

export interface VisCommandSet {
  commands: Record<string, CommandFunction>;
  /** The receiving side, for a transport that delivers in process (direct mode). */
  inbox: VisInbox;
  /** Sends a text message and records it (the automatic ones too). */
  sendText(
    to: { service_id: string; service_url: string },
    text: AutomaticText,
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

type SendReason = 'user' | 'route_inconsistent' | 'voyage_plan_request';

export function visCommands(deps: ServiceDeps, transport: () => VisTransport): VisCommandSet {
  const { db, store, log, bus, config } = deps;
  const settings: VisPortSettings = {
    portName: config.vis.portName,
    portUnlocode: config.vis.portUnlocode,
    rtaPointLocationName: config.vis.rtaPointLocationName,
    syncPointLat: config.vis.syncPointLat,
    syncPointLon: config.vis.syncPointLon,
    syncPointRadius: config.vis.syncPointRadius,
  };
  const ownServiceId = config.vis.serviceInstanceUrn;

  // The VIS service of an id, read outside a transaction: lookups made at the same moment (concurrent sends) share
  // one query.
  const lookUpServices = createBatcher<string, VisVesselRecorded | undefined>(
    async (ids) => {
      const found = await visVesselsByServiceIds(db, [...new Set(ids)]);
      return ids.map((id) => ({ ok: true, value: found.get(id) }));
    },
    { maxItems: 64, maxInFlight: 1 },
  );
  // A service found is remembered for a moment: a busy port sends to the same few services, and the lookup was a
  // round trip in every send's path. VIS services are never removed; a change recorded by this process forgets
  // its entry at once, one recorded by another process is seen within KNOWN_SERVICE_TTL_MS.
  const knownServices = new Map<string, { service: VisVesselRecorded; until: number }>();
  const serviceById = async (id: string): Promise<VisVesselRecorded | undefined> => {
    const cached = knownServices.get(id);
    if (cached && cached.until > Date.now()) return cached.service;
    const service = await lookUpServices(id);
    if (service) knownServices.set(id, { service, until: Date.now() + KNOWN_SERVICE_TTL_MS });
    else knownServices.delete(id);
    return service;
  };

  /** A sender not known as a VIS service is looked up, as the original did; a failure there is only logged. */
  async function lookUpUnknown(serviceId: string): Promise<void> {
    if (serviceId === '' || (await serviceById(serviceId))) return;
    try {
      await transport().findServices({ service_id: serviceId });
    } catch (error) {
      log.warn({ service_id: serviceId, err: error }, 'VIS service lookup failed');
    }
  }

  // ---- incoming ----

  async function recordVisVessel(input: RecordVisVesselCommand, metadata: EventMetadata): Promise<void> {
    const vessel = readVisVessel(input);
    // Read before the transaction (a register not made yet must not abort it); used only when the service id
    // gives no IMO.
    const namedImo = needsImoByName(vessel) ? await vesselImoByName(db, vessel.vessel_name) : undefined;
    await withStreamLock(db, visVesselStream(vessel.service_id), async (tx) => {
      const current = await visVesselByServiceId(tx, vessel.service_id);
      const events = decideVisVessel(resolveVisVesselImo(vessel, { current, namedImo }), current);
      await appendAndProject(tx, store, visVesselStream(vessel.service_id), events, metadata);
    });
    knownServices.delete(vessel.service_id);
  }

  /** The author, subject and body of a TXT payload's textMessage XML (malformed XML: 400, nothing stored). */
  function textFields(payloadText: string): Pick<VisTextMessageReceived, 'author' | 'subject' | 'body'> {
    const xml = stmMessageOf(parseJsonObject('payload', payloadText));
    if (xml === undefined) return {};
    const m = parseTextMessage(xml);
    return { author: m.author, subject: m.subject, body: m.body };
  }

  async function receiveTextMessage(input: ReceiveVisMessageCommand, metadata: EventMetadata): Promise<void> {
    const message = { ...readTextMessage(input, await isAcknowledged(db, input.message_id.trim())) };
    Object.assign(message, textFields(message.payload));
    const stream = visMessageStream(message.message_id);
    const event: VisEvent = { id: textMessageEventId(message), type: 'VisTextMessageReceived', data: message };
    await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, [event], metadata));
    await lookUpUnknown(message.from_service_id);
  }

  /**
   * A notification is one event; what an acknowledgement marks follows from it (acknowledges(), applied by its
   * projection). Logs written before also hold a VisMessageAcknowledged beside each, which projects the same mark.
   */
  function notificationEvents(input: ReceiveVisNotificationCommand): { stream: string; events: VisEvent[] } {
    const n = readNotification(input);
    const events: VisEvent[] = [{ id: notificationEventId(n), type: 'VisNotificationReceived', data: n }];
    return { stream: visMessageStream(n.message_id), events };
  }

  async function receiveNotification(input: ReceiveVisNotificationCommand, metadata: EventMetadata): Promise<void> {
    const { stream, events } = notificationEvents(input);
    await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, events, metadata));
  }

  /**
   * VisInbox.receiveMany: the events of each item as receiveTextMessage and receiveNotification make them, all
   * appended in one transaction. Neither reads the stream's state to decide, so the store's own stream locks
   * suffice; an event stored before is a duplicate there and projects nothing.
   */
  async function receiveMany(
    items: readonly InboxItem[],
    metadata: EventMetadata,
    alsoInTx?: (tx: Queryable, accepted: readonly boolean[]) => Promise<void>,
  ): Promise<(unknown | undefined)[]> {
    const refusals: (unknown | undefined)[] = items.map(() => undefined);
    const acknowledged = await acknowledgedAmong(
      db,
      items.flatMap((item) => (item.kind === 'text' ? [item.input.message_id.trim()] : [])),
    );
    const entries: StreamEvents[] = [];
    const senders = new Set<string>();
    items.forEach((item, i) => {
      try {
        if (item.kind === 'text') {
          const message = { ...readTextMessage(item.input, acknowledged.has(item.input.message_id.trim())) };
          Object.assign(message, textFields(message.payload));
          entries.push({
            streamId: visMessageStream(message.message_id),
            events: [{ id: textMessageEventId(message), type: 'VisTextMessageReceived', data: message }],
            metadata,
          });
          senders.add(message.from_service_id);
        } else {
          const { stream, events } = notificationEvents(item.input);
          entries.push({ streamId: stream, events, metadata });
        }
      } catch (error) {
        refusals[i] = error;
      }
    });
    await db.transaction(async (tx) => {
      await appendManyAndProject(tx, store, entries);
      await alsoInTx?.(
        tx,
        refusals.map((r) => r === undefined),
      );
    });
    for (const sender of senders) await lookUpUnknown(sender);
    return refusals;
  }

  async function receiveVoyagePlan(input: ReceiveVisVoyagePlanCommand, metadata: EventMetadata): Promise<void> {
    const plan = readVoyagePlan(input, await isAcknowledged(db, input.message_id.trim()));
    const stream = visMessageStream(plan.message_id);
    const event: VisEvent = { id: voyagePlanEventId(plan), type: 'VisVoyagePlanReceived', data: plan };
    const fresh = await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, [event], metadata));
    if (fresh.length === 0) return;
    const reply = routeInconsistentReply(
      plan.rtz_state,
      plan.message_id,
      parseResultsOf(plan.rtz_parse_results).route_name,
      settings,
    );
    const sender = await visVesselByServiceId(db, plan.from_service_id);
    if (reply && sender) {
      try {
        await sendText(sender, reply, 'route_inconsistent', eventMetadata(SYSTEM, {}));
      } catch (error) {
        log.warn({ message_id: plan.message_id, err: error }, '"Route inconsistent" reply not sent');
      }
    } else if (reply) {
      log.warn({ from_service_id: plan.from_service_id }, '"Route inconsistent" reply not sent: sender unknown');
    }
    await lookUpUnknown(plan.from_service_id);
  }

  async function savePortIn(
    tx: Queryable,
    name: string,
    serviceId: string,
    locodes: string[],
    metadata: EventMetadata,
  ): Promise<PortRow> {
    const current = await portByServiceId(tx, serviceId);
    const merged = mergeLocodes(current?.locodes ?? [], locodes);
    const next: PortRow = {
      name,
      service_id: serviceId,
      whitelist_in: current?.whitelist_in ?? true,
      whitelist_out: current?.whitelist_out ?? true,
      locodes: merged,
    };
    if (current && current.name === name && current.locodes.length === merged.length) return next;
    const event: VisEvent = {
      id: randomUUID(),
      type: 'VisPortRecorded',
      data: { name, service_id: serviceId, locodes: merged },
    };
    await appendAndProject(tx, store, visPortStream(serviceId), [event], metadata);
    return next;
  }

  async function recordInboundVessel(input: RecordInboundVesselCommand, metadata: EventMetadata): Promise<void> {
    if (!Number.isSafeInteger(input.imo) || input.imo < 0) throw ApiError.badRequest(`Invalid IMO: ${input.imo}`);
    const time = toUtcTimestamp(input.time);
    const serviceId = requireServiceId(input.from_service_id);
    const port = await withStreamLock(db, visPortStream(serviceId), async (tx) => {
      const known = await portByServiceId(tx, serviceId);
      if (known) return known;
      // Not a known port: named after its VIS service when that is known (the original crashed when it was not).
      const service = await visVesselByServiceId(tx, serviceId);
      return savePortIn(tx, service?.vessel_name || serviceId, serviceId, [], metadata);
    });
    checkInboundAllowed(port);
    const data: InboundVesselRecorded = {
      time,
      imo: input.imo,
      vessel_name: input.vessel_name.trim(),
      from_service_id: serviceId,
      from_service_name: port.name,
    };
    const stream = visInboundStream(input.imo);
    const event: VisEvent = { id: nameBasedId(['InboundVesselRecorded', data]), type: 'InboundVesselRecorded', data };
    await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, [event], metadata));
  }

  // ---- outgoing ----

  /**
   * Sends a message and records the send (see SendOptions): in direct mode the peer's outbox row and the event
   * commit together, so a send is neither lost nor recorded without going out; in agent mode the agent takes it
   * first, outside any transaction, and only a send it took is recorded.
   */
  async function sendAndRecord(
    t: VisTransport,
    stream: string,
    event: VisEvent,
    metadata: EventMetadata,
    send: (options: SendOptions) => Promise<void>,
  ): Promise<void> {
    if (t.mode === 'agent') {
      await send({});
      await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, [event], metadata));
      return;
    }
    await sendTogether({ stream, event, metadata, send });
  }

  /** One direct-mode send: its event, and the transport's queueing of it. */
  interface DirectSend {
    stream: string;
    event: VisEvent;
    metadata: EventMetadata;
    send: (options: SendOptions) => Promise<void>;
  }

  /**
   * Direct-mode sends recorded together: the events (each a new message's first, so no state is read to decide)
   * appended first, as a transaction's first write must be, then each message queued for its peer; one commit,
   * and the deliveries kicked after it. Should the transaction fail (say, one send refused), each goes again
   * alone, so every caller gets its own outcome and nothing was stored of the failed one.
   */
  async function recordSends(items: readonly DirectSend[]): Promise<void> {
    const t = transport();
    const batch = await db.transaction(async (tx) => {
      await appendManyAndProject(
        tx,
        store,
        items.map((i) => ({ streamId: i.stream, events: [i.event], metadata: i.metadata })),
      );
      const batch = t.batch?.(tx);
      for (const item of items) await item.send({ tx, batch });
      await batch?.flush();
      return batch;
    });
    batch?.committed();
  }
  const settle = async (fn: () => Promise<void>): Promise<ItemOutcome<void>> => {
    try {
      return { ok: true, value: await fn() };
    } catch (error) {
      return { ok: false, error };
    }
  };
  const sendTogether = createBatcher<DirectSend, void>(
    async (items) => {
      if (items.length === 1) return [await settle(() => recordSends(items))];
      const together = await settle(() => recordSends(items));
      if (together.ok) return items.map(() => together);
      return Promise.all(items.map((item) => settle(() => recordSends([item]))));
    },
    // Two transactions on their way at most: the sends arriving meanwhile wait and share the next. With one, a
    // steady load settled into alternating batches (one send, then the fifteen that came back meanwhile), each
    // waiting out the other's commit: half the throughput a commit's latency allows.
    { maxItems: 64, maxInFlight: 2 },
  );

  async function sendText(
    to: { service_id: string; service_url: string },
    text: AutomaticText,
    reason: SendReason,
    metadata: EventMetadata,
    requestId?: string,
  ): Promise<string> {
    const t = transport();
    const messageId = textMessageId(settings.portUnlocode || 'port', uniquePart(requestId));
    const time = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
    const xml = buildTextMessage({
      id: messageId,
      informationObjectReferenceId: text.information_object_reference_id,
      informationObjectReferenceType: text.information_object_reference_type,
      author: text.author,
      from: ownServiceId,
      createdAt: time,
      subject: text.subject,
      body: text.body,
    });
    const outgoing = { message_id: messageId, to_service_id: to.service_id, to_url: to.service_url, ...text, xml };
    const stream = visMessageStream(messageId);
    const event: VisEvent = {
      id: nameBasedId(['VisTextMessageSent', messageId]),
      type: 'VisTextMessageSent',
      data: {
        time,
        from_service_id: ownServiceId,
        to_service_id: to.service_id,
        to_url: to.service_url,
        message_id: messageId,
        ...text,
        payload: JSON.stringify({ stmMessage: { message: xml } }),
        reason,
        transport: t.mode,
      },
    };
    await sendAndRecord(t, stream, event, metadata, (options) => t.uploadTextMessage(outgoing, options));
    return messageId;
  }

  async function knownService(serviceId: string): Promise<VisVesselRecorded> {
    const id = requireServiceId(serviceId);
    const service = await serviceById(id);
    if (!service) throw ApiError.badRequest(`VIS service ID not found: ${id}`);
    if (service.service_url === '') throw ApiError.badRequest(`VIS service URL not found: ${id}`);
    return service;
  }

  async function sendTextMessage(input: SendVisTextMessageCommand, metadata: EventMetadata, requestId?: string) {
    const to = await knownService(input.vis_service_id);
    const text: AutomaticText = { author: input.author, subject: input.subject, body: input.body };
    if (input.informationObjectReferenceId) text.information_object_reference_id = input.informationObjectReferenceId;
    if (input.informationObjectReferenceType) {
      text.information_object_reference_type = input.informationObjectReferenceType;
    }
    if (input.area) text.area = input.area;
    await sendText(to, text, 'user', metadata, requestId);
    return { result: 'OK' };
  }

  async function sendTextMessageWithImo(
    input: SendVisTextMessageWithImoCommand,
    metadata: EventMetadata,
    requestId?: string,
  ) {
    const vessel = await visVesselByImo(db, input.imo);
    if (!vessel) throw ApiError.badRequest("Can't send message since no service_id known");
    return sendTextMessage(
      { vis_service_id: vessel.service_id, author: input.author, subject: input.subject, body: input.body },
      metadata,
      requestId,
    );
  }

  async function sendRta(input: SendVisRtaCommand, actor: Actor, metadata: EventMetadata, requestId?: string) {
    const rta = readRtaTime('rta', input.rta);
    const etaMin = input.eta_min.trim() === '' ? '' : readRtaTime('eta_min', input.eta_min);
    const etaMax = input.eta_max.trim() === '' ? '' : readRtaTime('eta_max', input.eta_max);
    const serviceId = requireServiceId(input.vis_service_id);
    const portCallId = input.port_call_id ?? null;
    if (portCallId !== null) {
      const { rows } = await db.query<{ status: string }>('SELECT status FROM portcall.port_calls WHERE id = $1', [
        portCallId,
      ]);
      if (rows[0]?.status !== 'arriving') throw ApiError.badRequest('Port call is not at arriving status');
    }
    const plan = await newestPlanFrom(db, serviceId);
    if (!plan) throw ApiError.badRequest(`Cannot find voyage plan for VIS service ID: ${serviceId}`);
    const rtz = stmMessageOf(plan.payload);
    if (rtz === undefined)
      throw ApiError.badRequest(`Cannot find voyage plan message for VIS service ID: ${serviceId}`);
    const to = await knownService(serviceId);
    const t = transport();
    const messageId = `urn:mrn:stm:rtz:${settings.portUnlocode || 'port'}:${uniquePart(requestId)}`;
    const time = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
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
      from_service_id: ownServiceId,
      to_service_id: to.service_id,
      message_id: messageId,
      message_type: 'RTZ',
      rtz_state: 'RTA_SENT',
      rtz_parse_results: plan.rtz_parse_results,
      payload: JSON.stringify({ stmMessage: { message: rtz }, rta, eta_min: etaMin, eta_max: etaMax }),
      ack: false,
    };
    const stream = visMessageStream(messageId);
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
    await sendAndRecord(t, stream, event, metadata, (options) => t.sendRta(outgoing, options));
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
        await bus.rpc(PORTCALL_PROJECTOR, PortcallCommands.setPortCallRta, { actor, input: rtaInput });
      } catch (error) {
        if (portCallId !== null) throw error;
        log.info({ imo: to.imo, err: error }, 'RTA sent; no port call to store it on');
      }
    }
    return { result: 'OK' };
  }

  // ---- ports ----

  async function savePort(input: SavePortCommand, metadata: EventMetadata) {
    const serviceId = input.service_id.trim();
    if (serviceId === '') throw ApiError.badRequest('Missing service_id');
    const name = input.name.trim();
    if (name === '') throw ApiError.badRequest('Missing name');
    const locodes = readLocodes(input.locodes);
    await withStreamLock(db, visPortStream(serviceId), (tx) => savePortIn(tx, name, serviceId, locodes, metadata));
    return { result: 'OK' };
  }

  async function setPortWhitelist(input: SetPortWhitelistCommand, metadata: EventMetadata) {
    const whitelist = readWhitelist(input.whitelist);
    const serviceId = input.service_id.trim();
    if (whitelist === undefined || (input.direction !== 'in' && input.direction !== 'out')) return { result: 'ERROR' };
    return withStreamLock(db, visPortStream(serviceId), async (tx) => {
      const port = await portByServiceId(tx, serviceId);
      if (!port) return { result: 'ERROR' };
      if ((input.direction === 'in' ? port.whitelist_in : port.whitelist_out) !== whitelist) {
        const event: VisEvent = {
          id: randomUUID(),
          type: 'VisPortWhitelistSet',
          data: { service_id: serviceId, direction: input.direction, whitelist },
        };
        await appendAndProject(tx, store, visPortStream(serviceId), [event], metadata);
      }
      return { result: 'OK' };
    });
  }

  // ---- the RPC table ----

  const ok = { result: 'OK' } as const;
  const incoming = <P>(fn: (input: P, metadata: EventMetadata) => Promise<void>): CommandFunction => {
    return async (payload, headers) => {
      const { actor, input } = decodeCommand<P>(payload);
      await fn(input, eventMetadata(actor, headers));
      return ok;
    };
  };
  const withActor = <P>(
    fn: (input: P, metadata: EventMetadata, actor: Actor, requestId?: string) => Promise<unknown>,
  ): CommandFunction => {
    return async (payload, headers) => {
      const { actor, input } = decodeCommand<P>(payload);
      const requestId = typeof headers[RPC_ID_HEADER] === 'string' ? headers[RPC_ID_HEADER] : undefined;
      return fn(input, eventMetadata(actor, headers), actor, requestId);
    };
  };

  const commands: Record<string, CommandFunction> = {
    [VisBridgeCommands.recordVisVessel]: incoming(recordVisVessel),
    [VisBridgeCommands.receiveTextMessage]: incoming(receiveTextMessage),
    [VisBridgeCommands.receiveNotification]: incoming(receiveNotification),
    [VisBridgeCommands.receiveVoyagePlan]: incoming(receiveVoyagePlan),
    [VisBridgeCommands.recordInboundVessel]: incoming(recordInboundVessel),
    [VisBridgeCommands.sendTextMessage]: withActor((input: SendVisTextMessageCommand, metadata, _actor, requestId) =>
      sendTextMessage(input, metadata, requestId),
    ),
    [VisBridgeCommands.sendTextMessageWithImo]: withActor(
      (input: SendVisTextMessageWithImoCommand, metadata, _actor, requestId) =>
        sendTextMessageWithImo(input, metadata, requestId),
    ),
    [VisBridgeCommands.sendRta]: withActor((input: SendVisRtaCommand, metadata, actor, requestId) =>
      sendRta(input, actor, metadata, requestId),
    ),
    [VisBridgeCommands.findServices]: withActor(async (input: FindVisServicesCommand) => {
      await transport().findServices({ imo: input.imo, service_id: input.service_id });
      return ok;
    }),
    [VisBridgeCommands.poll]: withActor(async () => {
      await transport().poll();
      return ok;
    }),
    [VisBridgeCommands.configuration]: withActor(() => transport().configuration()),
    [VisBridgeCommands.savePort]: withActor(savePort),
    [VisBridgeCommands.setPortWhitelist]: withActor(setPortWhitelist),
  };

  const system = () => eventMetadata(SYSTEM, {});
  const inbox: VisInbox = {
    recordVisVessel: (input) => recordVisVessel(input, system()),
    receiveTextMessage: (input) => receiveTextMessage(input, system()),
    receiveNotification: (input) => receiveNotification(input, system()),
    receiveMany: (items, alsoInTx) => receiveMany(items, system(), alsoInTx),
    receiveVoyagePlan: (input) => receiveVoyagePlan(input, system()),
    recordInboundVessel: (input) => recordInboundVessel(input, system()),
  };

  return { commands, inbox, sendText, savePort: savePortIn, settings };
}
