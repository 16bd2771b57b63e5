// What comes in from ships and other ports (the agent's posts, or direct mode's peers through the same VisInbox):
// each read and checked by the domain (domain/messages.ts), appended and projected under its stream's lock.

import { eventMetadata } from '@pcas/commands';
import {
  ApiError,
  INGEST,
  type InboundVesselRecorded,
  IngestLookups,
  type ReceiveVisMessageCommand,
  type ReceiveVisNotificationCommand,
  type ReceiveVisVoyagePlanCommand,
  type RecordInboundVesselCommand,
  type RecordVisVesselCommand,
  toUtcTimestamp,
  type VesselImoByNameQuery,
  type VisTextMessageReceived,
  visInboundStream,
  visMessageStream,
  visPortStream,
  visVesselStream,
} from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { parseTextMessage } from '@pcas/stm';
import type { InboxItem } from '../adapters/transport.ts';
import {
  acknowledgedAmong,
  appendAndProject,
  appendManyAndProject,
  isAcknowledged,
  portByServiceId,
  type StreamEvents,
  type VisEvent,
  visVesselByServiceId,
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
import { checkInboundAllowed, requireServiceId, routeInconsistentReply } from '../domain/outgoing.ts';
import { sendText } from './outgoing-commands.ts';
import { savePortIn } from './port-commands.ts';
import { lookUpUnknown, SYSTEM, type VisContext } from './vis-context.ts';

/** How long a vessel's IMO by name is waited for from ingest before the vessel is recorded without it. */
const NAME_LOOKUP_TIMEOUT_MS = 5_000;

/** The IMO of the vessel register's vessel of this name (ingest's lookup); none when ingest cannot say. */
async function vesselImoByName(ctx: VisContext, vesselName: string): Promise<number | undefined> {
  const query: VesselImoByNameQuery = { vessel_name: vesselName };
  try {
    const imo = await ctx.deps.bus.rpc<number | null>(
      INGEST,
      IngestLookups.vesselImoByName,
      { actor: SYSTEM, input: query },
      {
        timeoutMs: NAME_LOOKUP_TIMEOUT_MS,
      },
    );
    return imo ?? undefined;
  } catch (error) {
    ctx.deps.log.warn({ vessel_name: vesselName, err: error }, 'vessel IMO by name not found out; recorded without');
    return undefined;
  }
}

export async function recordVisVessel(
  ctx: VisContext,
  input: RecordVisVesselCommand,
  metadata: EventMetadata,
): Promise<void> {
  const { db, store } = ctx.deps;
  const vessel = readVisVessel(input);
  // Asked before the transaction; used only when the service id gives no IMO.
  const namedImo = needsImoByName(vessel) ? await vesselImoByName(ctx, vessel.vessel_name) : undefined;
  await withStreamLock(db, visVesselStream(vessel.service_id), async (tx) => {
    const current = await visVesselByServiceId(tx, vessel.service_id);
    const events = decideVisVessel(resolveVisVesselImo(vessel, { current, namedImo }), current);
    await appendAndProject(tx, store, visVesselStream(vessel.service_id), events, metadata);
  });
  ctx.services.forget(vessel.service_id);
}

/** The author, subject and body of a TXT payload's textMessage XML (malformed XML: 400, nothing stored). */
function textFields(payloadText: string): Pick<VisTextMessageReceived, 'author' | 'subject' | 'body'> {
  const xml = stmMessageOf(parseJsonObject('payload', payloadText));
  if (xml === undefined) return {};
  const m = parseTextMessage(xml);
  return { author: m.author, subject: m.subject, body: m.body };
}

/** A text message's event on its stream (decided from the input and whether it was acknowledged before). */
function textMessageEvents(input: ReceiveVisMessageCommand, acknowledged: boolean) {
  const message = { ...readTextMessage(input, acknowledged) };
  Object.assign(message, textFields(message.payload));
  const events: VisEvent[] = [{ id: textMessageEventId(message), type: 'VisTextMessageReceived', data: message }];
  return { stream: visMessageStream(message.message_id), events, sender: message.from_service_id };
}

export async function receiveTextMessage(
  ctx: VisContext,
  input: ReceiveVisMessageCommand,
  metadata: EventMetadata,
): Promise<void> {
  const { db, store } = ctx.deps;
  const { stream, events, sender } = textMessageEvents(input, await isAcknowledged(db, input.message_id.trim()));
  await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, events, metadata));
  await lookUpUnknown(ctx, sender);
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

export async function receiveNotification(
  ctx: VisContext,
  input: ReceiveVisNotificationCommand,
  metadata: EventMetadata,
): Promise<void> {
  const { stream, events } = notificationEvents(input);
  await withStreamLock(ctx.deps.db, stream, (tx) => appendAndProject(tx, ctx.deps.store, stream, events, metadata));
}

/**
 * VisInbox.receiveMany: the events of each item as receiveTextMessage and receiveNotification make them, all
 * appended in one transaction. Neither reads the stream's state to decide, so the store's own stream locks
 * suffice; an event stored before is a duplicate there and projects nothing.
 */
export async function receiveMany(
  ctx: VisContext,
  items: readonly InboxItem[],
  metadata: EventMetadata,
  alsoInTx?: (tx: Queryable, accepted: readonly boolean[]) => Promise<void>,
): Promise<(unknown | undefined)[]> {
  const { db, store } = ctx.deps;
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
        const { stream, events, sender } = textMessageEvents(
          item.input,
          acknowledged.has(item.input.message_id.trim()),
        );
        entries.push({ streamId: stream, events, metadata });
        senders.add(sender);
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
  for (const sender of senders) await lookUpUnknown(ctx, sender);
  return refusals;
}

export async function receiveVoyagePlan(
  ctx: VisContext,
  input: ReceiveVisVoyagePlanCommand,
  metadata: EventMetadata,
): Promise<void> {
  const { db, store, log } = ctx.deps;
  const plan = readVoyagePlan(input, await isAcknowledged(db, input.message_id.trim()));
  const stream = visMessageStream(plan.message_id);
  const event: VisEvent = { id: voyagePlanEventId(plan), type: 'VisVoyagePlanReceived', data: plan };
  const fresh = await withStreamLock(db, stream, (tx) => appendAndProject(tx, store, stream, [event], metadata));
  if (fresh.length === 0) return;
  const reply = routeInconsistentReply(
    plan.rtz_state,
    plan.message_id,
    parseResultsOf(plan.rtz_parse_results).route_name,
    ctx.settings,
  );
  const sender = await visVesselByServiceId(db, plan.from_service_id);
  if (reply && sender) {
    try {
      await sendText(ctx, sender, reply, 'route_inconsistent', eventMetadata(SYSTEM, {}));
    } catch (error) {
      log.warn({ message_id: plan.message_id, err: error }, '"Route inconsistent" reply not sent');
    }
  } else if (reply) {
    log.warn({ from_service_id: plan.from_service_id }, '"Route inconsistent" reply not sent: sender unknown');
  }
  await lookUpUnknown(ctx, plan.from_service_id);
}

export async function recordInboundVessel(
  ctx: VisContext,
  input: RecordInboundVesselCommand,
  metadata: EventMetadata,
): Promise<void> {
  const { db, store } = ctx.deps;
  if (!Number.isSafeInteger(input.imo) || input.imo < 0) throw ApiError.badRequest(`Invalid IMO: ${input.imo}`);
  const time = toUtcTimestamp(input.time);
  const serviceId = requireServiceId(input.from_service_id);
  const port = await withStreamLock(db, visPortStream(serviceId), async (tx) => {
    const known = await portByServiceId(tx, serviceId);
    if (known) return known;
    // Not a known port: named after its VIS service when that is known (the original crashed when it was not).
    const service = await visVesselByServiceId(tx, serviceId);
    return savePortIn(ctx, tx, service?.vessel_name || serviceId, serviceId, [], metadata);
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
