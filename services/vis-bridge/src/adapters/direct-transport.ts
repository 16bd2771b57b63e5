// Direct mode's transport (docs/architecture.md#vis-direct-mode): no VIS agent; what the API sends goes into the
// per-peer outbox (vis.outbox) and the deliverer carries it to the peer's endpoint. A peer is a service with a
// link (URL and shared secret, POST /port-peer); `whitelist_out` of its ports row decides what may go to it.

import { createBatcher } from '@pcas/batching';
import { ApiError } from '@pcas/contracts';
import type { Logger } from '@pcas/observability';
import type { Db, Queryable } from '@pcas/sql';
import {
  buildTextMessage,
  parseRtz,
  parseTextMessage,
  type RtzParseResults,
  type TextMessageArea,
  withRta,
} from '@pcas/stm';
import { outgoingRefusal, type PeerMessage } from '../domain/outbox.ts';
import type { Deliverer } from './delivery-worker.ts';
import { enqueue, enqueueAcross } from './outbox-store.ts';
import { type Peer, peerFor, peerOverview } from './peer-store.ts';
import type { InterPortService, OutgoingRta, SendBatch, SendOptions, VisInbox, VisTransport } from './transport.ts';

export interface DirectTransportOptions {
  db: Db;
  log: Logger;
  inbox: VisInbox;
  deliverer: Deliverer;
  /** This port's VIS service id (VIS_SERVICE_INSTANCE_URN) and name (VIS_PORT_NAME). */
  serviceId: string;
  portName: string;
}

export type DirectTransport = VisTransport;

export function createDirectTransport(options: DirectTransportOptions): DirectTransport {
  const { db, log, inbox, deliverer, serviceId } = options;

  // Sends made at the same moment are queued with one statement (one commit to wait for, not one each).
  const enqueueTogether = createBatcher<{ peer: string; message: PeerMessage }, void>(
    async (items) => {
      await enqueueAcross(db, items);
      return items.map(() => ({ ok: true, value: undefined }));
    },
    { maxItems: 200, maxInFlight: 2 },
  );

  async function queue(to: string, message: PeerMessage, send: SendOptions = {}): Promise<void> {
    const batch = send.batch instanceof DirectBatch ? send.batch : undefined;
    const peer = await (batch ? batch.peer(to) : peerFor(send.tx ?? db, to));
    if (!peer) throw ApiError.badRequest(`No direct VIS link to service: ${to}`);
    const refusal = outgoingRefusal(message.operation, outgoingWhitelists(peer), to);
    if (refusal) throw ApiError.badRequest(refusal);
    // The time of sending travels with the message: the receiver stores it as the message's time.
    const queued = { ...message, body: { ...message.body, sent_at: new Date().toISOString() } };
    if (batch) {
      batch.queued.push({ peer: to, message: queued });
      return;
    }
    if (send.tx) await enqueue(send.tx, to, queued);
    else await enqueueTogether({ peer: to, message: queued });
    // Inside the caller's transaction the row is not visible yet: the kick comes a moment later, and the sweep
    // finds it in any case.
    if (send.tx) setTimeout(() => void deliverer.kick(to).catch(() => {}), 200).unref?.();
    else
      await deliverer
        .kick(to)
        .catch((error) => log.warn({ err: error, peer: to }, 'delivery not kicked; the sweep will'));
  }

  /** A batch's sends: each peer read once, the outbox rows written in one statement, each peer kicked once. */
  class DirectBatch implements SendBatch {
    readonly queued: { peer: string; message: PeerMessage }[] = [];
    private readonly peers = new Map<string, Promise<Peer | undefined>>();
    constructor(private readonly tx: Queryable) {}
    peer(serviceId: string): Promise<Peer | undefined> {
      let found = this.peers.get(serviceId);
      if (!found) {
        found = peerFor(this.tx, serviceId);
        this.peers.set(serviceId, found);
      }
      return found;
    }
    async flush(): Promise<void> {
      await enqueueAcross(this.tx, this.queued);
    }
    committed(): void {
      for (const peer of new Set(this.queued.map((q) => q.peer))) {
        void deliverer
          .kick(peer)
          .catch((error) => log.warn({ err: error, peer }, 'delivery not kicked; the sweep will'));
      }
    }
  }

  return {
    mode: 'direct',

    batch: (tx) => new DirectBatch(tx),

    async findServices(query) {
      // A port's own service id is known here when it is linked as a peer: recorded as a VIS service, so the API
      // can address it (as the agent answers find-services with what it found).
      if (!query.service_id) return;
      const peer = await peerFor(db, query.service_id);
      if (!peer) return;
      await inbox.recordVisVessel({
        imo: 0,
        vessel_name: peer.name ?? peer.service_id,
        service_id: peer.service_id,
        service_url: peer.url,
      });
    },

    async findInterPortServicesByLocode(locode): Promise<InterPortService[]> {
      const { rows } = await db.query<InterPortService>(
        `SELECT o.name, o.service_id FROM vis.ports o JOIN vis.peers p USING (service_id)
         WHERE o.locodes ? $1 ORDER BY o.id`,
        [locode],
      );
      return rows;
    },

    async uploadTextMessage(message, send) {
      const built = message.area === undefined ? message.xml : undefined;
      const xml =
        built ??
        buildTextMessage({
          id: message.message_id,
          informationObjectReferenceId: message.information_object_reference_id,
          informationObjectReferenceType: message.information_object_reference_type,
          author: message.author,
          from: serviceId,
          createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
          subject: message.subject,
          body: message.body,
          area: message.area ? areaOf(message.area, log) : undefined,
        });
      await queue(
        message.to_service_id,
        { message_id: message.message_id, operation: 'textMessage', body: { message: xml } },
        send,
      );
    },

    async sendRta(rta, send) {
      await queue(
        rta.to_service_id,
        {
          message_id: rta.message_id,
          operation: 'voyagePlan',
          body: {
            message: routeWithRta(rta, options.portName, log),
            rta: rta.rta,
            eta_min: rta.eta_min,
            eta_max: rta.eta_max,
          },
        },
        send,
      );
    },

    async sendDeparture(departure, send) {
      const { message_id, to_service_id, to_url: _url, ...fields } = departure;
      await queue(to_service_id, { message_id, operation: 'departure', body: { ...fields } }, send);
    },

    async poll() {
      // Peers push to us; a poll asks for an attempt at once for everything still waiting to go out.
      await deliverer.sweep();
    },

    async configuration() {
      return { mode: 'direct', service_id: serviceId, peers: await peerOverview(db) };
    },
  };
}

/** The text message's area, given as the original's `<Circle>…</Circle>` text, read with the STM library. */
function areaOf(area: string, log: Logger): TextMessageArea | undefined {
  try {
    const probe = buildTextMessage({
      id: 'area',
      author: '',
      from: '',
      createdAt: '1970-01-01T00:00:00Z',
      subject: '',
      body: '',
    });
    return parseTextMessage(probe.replace('</textMessage>', `<area>${area}</area></textMessage>`)).area;
  } catch (error) {
    log.warn({ err: error }, 'text message area not readable; sent without it');
    return undefined;
  }
}

/** The received route with the RTA written at the sync waypoint (or a new one on the leg near it). */
function routeWithRta(rta: OutgoingRta, portName: string, log: Logger): string {
  try {
    const results = JSON.parse(rta.rtz_parse_results || '{}') as RtzParseResults;
    const target =
      results.waypointId !== undefined
        ? { waypointId: results.waypointId }
        : results.legEndWaypointId !== undefined && results.lat !== undefined && results.lon !== undefined
          ? { legEndWaypointId: results.legEndWaypointId, lat: results.lat, lon: results.lon, name: portName || 'RTA' }
          : undefined;
    if (!target) return rta.rtz;
    parseRtz(rta.rtz);
    return withRta(rta.rtz, {
      rta: rta.rta,
      etaMin: rta.eta_min,
      etaMax: rta.eta_max,
      target,
      scheduleName: portName || undefined,
    }).xml;
  } catch (error) {
    // The RTA and its window travel beside the route in any case.
    log.warn({ err: error }, 'RTA not written into the route; sent beside it');
    return rta.rtz;
  }
}

/** A peer's whitelists as the outgoing check reads them: none set (the default) lets everything go. */
const outgoingWhitelists = (peer: Peer) =>
  peer.whitelist_out === null
    ? undefined
    : { whitelist_in: peer.whitelist_in ?? true, whitelist_out: peer.whitelist_out };
