// The sending side (docs/dcsa.md#sending). Our own times (vessel.TimestampReceived that did not come from DCSA) of a
// vessel a partner follows are queued to that partner as DCSA timestamps, with the port call, terminal call and
// service they need there created first (or the partner's own, when it sent us one); a partner's REQ or EST is
// answered with our PLN from the UI. Each queued timestamp is also a DcsaTimestampSent on its own stream, so the
// partner's GET /timestamps and the UI see both directions. A redelivered source event queues nothing twice.

import { type CommandFunction, decodeCommand } from '@pcas/commands';
import {
  type Actor,
  ApiError,
  type DcsaAnswerRequestCommand,
  DcsaCommands,
  type ServiceDeps,
  type TimestampReceived,
} from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import { type Consumer, toRecordedEvent } from '@pcas/messaging';
import type { Db, Queryable } from '@pcas/sql';
import { nameUuid, uuidNamespace } from '@pcas/values/name-uuid';
import { enqueue, partnersCall, partnersService, sentObject } from '../adapters/outbox-store.ts';
import {
  loadPortCall,
  loadService,
  loadTimestamp,
  type Partner,
  partnerById,
  partnersFollowing,
  project,
  streams,
} from '../adapters/store.ts';
import { type DcsaTime, fromS211, stateOfService, toS211 } from '../domain/mapping.ts';
import { messagesFor, type OurTime, type Placement } from '../domain/outbox.ts';
import type { PostToTimeline } from './ingest-link.ts';

const ID_NAMESPACE = uuidNamespace('2f0c8f7e5b1a4c3d9e8f7a6b5c4d3e2f');
export const TIMESTAMP_RECEIVED_BINDING = 'vessel.TimestampReceived';

/** Where a time goes at a partner: its own open service of that kind for the vessel, else objects of ours. */
async function placementFor(tx: Queryable, partner: Partner, time: OurTime): Promise<Placement> {
  const theirs = await partnersService(tx, partner.id, time.imo, time.dcsa.serviceType, time.dcsa.eventType);
  if (theirs) {
    return {
      portCall: { id: theirs.port_call_id, create: false },
      terminalCall: { id: theirs.terminal_call_id, create: false },
      service: { id: theirs.service_id, create: false },
      ...(theirs.reply_to ? { replyTo: theirs.reply_to } : {}),
    };
  }
  const call = await partnersCall(tx, partner.id, time.imo);
  const id = (key: string) => nameUuid(ID_NAMESPACE, `${partner.id}:${key}`);
  const portCall = call
    ? { id: call.port_call_id, created: false }
    : await sentObject(tx, partner.id, 'port-call', `${time.imo}`, id(`port-call:${time.imo}`));
  const terminalCall = call?.terminal_call_id
    ? { id: call.terminal_call_id, created: false }
    : await sentObject(tx, partner.id, 'terminal-call', portCall.id, id(`terminal-call:${portCall.id}`));
  const serviceKey = `${terminalCall.id}:${time.dcsa.serviceType}:${time.dcsa.eventType}:${time.dcsa.phase ?? ''}`;
  const service = await sentObject(tx, partner.id, 'port-call-service', serviceKey, id(`service:${serviceKey}`));
  return {
    portCall: { id: portCall.id, create: portCall.created },
    terminalCall: { id: terminalCall.id, create: terminalCall.created },
    service: { id: service.id, create: service.created },
  };
}

/** Queues one of our times to a partner and records it as sent; nothing when it was queued before. */
async function queueTime(
  db: Db,
  store: EventStore,
  partner: Partner,
  time: OurTime,
  fixed?: Placement,
): Promise<boolean> {
  if (await loadTimestamp(db, time.timestampId)) return false;
  await db.transaction(async (tx) => {
    const placement = fixed ?? (await placementFor(tx, partner, time));
    const messages = messagesFor(time, placement);
    const sent = messages.at(-1)!;
    const event = {
      type: 'DcsaTimestampSent',
      data: {
        timestamp_id: time.timestampId,
        port_call_service_id: placement.service.id,
        port_call_id: placement.portCall.id,
        partner_id: partner.id,
        body: sent.body,
        s211: {
          imo: time.imo,
          ...toS211(time.dcsa, time.dcsa.classifier),
          status: 'posted',
        },
      },
    };
    const appended = await store.append(
      streams.timestamp(time.timestampId),
      [{ id: nameUuid(ID_NAMESPACE, `sent:${time.timestampId}`), ...event }],
      { expectedVersion: 'no_stream', tx },
    );
    await project(tx, event, appended.nextExpectedVersion);
    await enqueue(tx, partner.id, messages);
  });
  return true;
}

export interface Sending {
  commands: Record<string, CommandFunction>;
  consumer: Consumer;
}

export async function startSending(
  deps: ServiceDeps,
  postToTimeline: PostToTimeline,
  kick: () => void,
): Promise<Sending> {
  const { db, store, bus, config, log } = deps;
  const portLocode = /^[A-Z]{2}[A-Z2-9]{3}$/.test(config.vis.portUnlocode) ? config.vis.portUnlocode : 'ZZZZZ';

  const consumer = await bus.consume(
    'dcsa-bridge-timestamps',
    async (messages) => {
      const ours: { event: RecordedEvent; t: TimestampReceived; dcsa: DcsaTime }[] = [];
      for (const message of messages) {
        const event = toRecordedEvent(message);
        if (event.type !== 'TimestampReceived') continue;
        const t = event.data as TimestampReceived;
        // A DCSA partner's time (or our answer to one) is not ours to send again.
        if ((t.payload as { source?: unknown } | undefined)?.source === 'dcsa') continue;
        const dcsa = fromS211(t.time_type, t.state);
        if (dcsa) ours.push({ event, t, dcsa });
      }
      // Which partners follow these vessels: one look-up for the batch, not one a time.
      const following = await partnersFollowing(
        db,
        ours.map(({ t }) => t.imo),
      );
      let queued = 0;
      for (const { event, t, dcsa } of ours) {
        for (const partner of following.get(t.imo) ?? []) {
          const time: OurTime = {
            imo: t.imo,
            vessel_name: t.vessel_name,
            unLocationCode: portLocode,
            dcsa,
            timestampId: nameUuid(ID_NAMESPACE, `${partner.id}:event:${event.id}`),
            dateTime: t.time.replace('+00:00', 'Z'),
          };
          if (await queueTime(db, store, partner, time)) queued++;
        }
      }
      if (queued > 0) {
        log.debug({ queued }, 'times queued to DCSA partners');
        kick();
      }
    },
    { bindings: [TIMESTAMP_RECEIVED_BINDING], maxBatch: 200, prefetch: 500 },
  );

  /** POST /dcsa-timestamps/:id/plan: our PLN answering a partner's timestamp, on the timeline and to the partner. */
  async function answerRequest(payload: unknown): Promise<{ timestamp_id: string }> {
    const { actor, input } = decodeCommand<DcsaAnswerRequestCommand>(payload);
    const answered = typeof input.timestamp_id === 'string' ? await loadTimestamp(db, input.timestamp_id) : undefined;
    if (answered?.direction !== 'in') throw new ApiError(404, 'DCSA timestamp not found');
    const dateTime = typeof input.date_time === 'string' ? new Date(input.date_time) : new Date(Number.NaN);
    if (Number.isNaN(dateTime.getTime())) throw ApiError.badRequest('Invalid date_time');
    const service = await loadService(db, answered.service_id);
    const partner = await partnerById(db, answered.partner_id);
    const portCall = service ? await loadPortCall(db, service.port_call_id) : undefined;
    if (!service || !partner || !portCall) throw new ApiError(404, 'DCSA port call service not found');
    if (service.cancelled || service.declined) throw new ApiError(409, 'The port call service is no longer open');
    const key = {
      serviceType: String(service.body.portCallServiceType),
      eventType: String(service.body.portCallServiceEventTypeCode),
      phase: service.body.portCallPhaseTypeCode as string | undefined,
    };
    const timestampId = nameUuid(ID_NAMESPACE, `answer:${answered.timestamp_id}:${dateTime.toISOString()}`);
    const remark = typeof input.remark === 'string' ? input.remark : undefined;
    const time: OurTime = {
      imo: portCall.imo ?? 0,
      vessel_name: portCall.vessel_name ?? '',
      unLocationCode: portCall.body.UNLocationCode as string,
      dcsa: {
        serviceType: key.serviceType as never,
        eventType: key.eventType as never,
        ...(key.phase ? { phase: key.phase as never } : {}),
        classifier: 'PLN',
      },
      timestampId,
      dateTime: dateTime.toISOString(),
      ...(remark ? { remark } : {}),
    };
    const state = stateOfService(key);
    if (state && portCall.imo !== null) {
      const answer = await postToTimeline(actor as Actor, {
        imo: portCall.imo,
        vessel_name: portCall.vessel_name ?? '',
        time_type: 'Planned',
        state,
        time: time.dateTime,
        manual: true,
        payload: {
          source: 'dcsa',
          dcsa_partner: partner.name,
          dcsa_classifier: 'PLN',
          dcsa_service_type: key.serviceType,
          dcsa_port_call_id: portCall.port_call_id,
          dcsa_timestamp_id: timestampId,
        },
      });
      if (answer.status === 'refused') throw ApiError.badRequest(answer.error.replace(/^\d+ /, ''));
    }
    const placement: Placement = {
      portCall: { id: portCall.port_call_id, create: false },
      terminalCall: { id: service.terminal_call_id, create: false },
      service: { id: service.service_id, create: false },
      replyTo: answered.timestamp_id,
    };
    if (await queueTime(db, store, partner, time, placement)) kick();
    return { timestamp_id: timestampId };
  }

  return { commands: { [DcsaCommands.answerRequest]: answerRequest }, consumer };
}
