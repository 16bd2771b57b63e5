// The vis-bridge's consumer of the projector's portcall.PortCallChanged (queue `vis-bridge-portcalls`,
// docs/domain.md#vis-and-other-ports): at a port call's first ETA a VIS vessel that does not share its voyage plan
// yet is asked for it (once per port call), and when the ETD changes with a next port named, the departure goes to
// every whitelisted service of that UN/LOCODE. What was sent is recorded on `visportcall-<id>`, so a redelivered
// signal sends nothing twice. A failed send is only logged, as the original.
//
// A delivery batch is handled together: its port calls (each once, however often it changed) are asked of the
// projector and read with what was sent for them and their vessels' VIS services (adapters/watched-port-calls.ts),
// and the voyage-plan requests' markers of all of
// them are recorded in one transaction (one multi-stream append). The sends stay outside any transaction.

import { randomUUID } from 'node:crypto';
import { eventMetadata } from '@pcas/commands';
import {
  PORTCALL_CHANGED_ROUTING_KEY,
  type PortCallChanged,
  type ServiceDeps,
  visPortCallStream,
} from '@pcas/contracts';
import { type Consumer, toRecordedEvent } from '@pcas/messaging';
import type { VisTransport } from '../adapters/transport.ts';
import { locodeCoordinates } from '../adapters/unlocode.ts';
import {
  appendAndProject,
  appendManyAndProject,
  portsByLocode,
  type StreamEvents,
  visVesselByServiceId,
  withStreamLock,
} from '../adapters/vis-store.ts';
import { type LoadedPortCall, loadWatchedPortCalls } from '../adapters/watched-port-calls.ts';
import { nameBasedId } from '../domain/ids.ts';
import {
  departureDue,
  sharedImo,
  voyagePlanRequest,
  voyagePlanRequestDue,
  type WatchedPortCall,
} from '../domain/outgoing.ts';
import type { VisCommandSet } from './commands.ts';

const SYSTEM = eventMetadata({ user_id: null, api_key_id: null }, {});

export function startPortCallWatch(
  deps: ServiceDeps,
  vis: VisCommandSet,
  transport: () => VisTransport,
  options: { name?: string } = {},
): Promise<Consumer> {
  const { bus, db, store } = deps;
  const name = options.name ?? 'vis-bridge-portcalls';
  const log = deps.log.child({ consumer: name });

  /** Sends one port call's voyage-plan request (when its vessel has a service) and answers its marker. */
  async function requestVoyagePlan({ pc, vessel: known }: LoadedPortCall): Promise<StreamEvents> {
    if (pc.is_vis && !known) {
      // A vessel reporting through VIS (a `source: vis` timestamp) whose service is not known yet: look it up.
      await transport()
        .findServices({ imo: pc.imo })
        .catch((error: unknown) => log.warn({ imo: pc.imo, err: error }, 'VIS service lookup failed'));
    }
    const vessel = pc.is_vis ? undefined : known;
    let messageId: string | null = null;
    if (vessel && vessel.service_url !== '') {
      try {
        messageId = await vis.sendText(vessel, voyagePlanRequest(vis.settings), 'voyage_plan_request', SYSTEM);
      } catch (error) {
        log.warn({ port_call_id: pc.id, err: error }, 'voyage-plan request not sent');
      }
    }
    return {
      streamId: visPortCallStream(pc.id),
      events: [
        {
          id: nameBasedId(['VoyagePlanRequested', pc.id]),
          type: 'VoyagePlanRequested',
          data: { port_call_id: pc.id, imo: pc.imo, service_id: vessel?.service_id ?? null, message_id: messageId },
        },
      ],
      metadata: SYSTEM,
    };
  }

  /**
   * Records the markers in one transaction. The event id is name-based and unique in its stream, so a redelivery or
   * another consumer's copy is stored once (a duplicate, not projected again). Should that transaction fail, each
   * goes alone, so one port call's failure does not lose the others' (their requests are sent already); the
   * errors are returned for the batch to fail with, and the consumer tries its messages again one by one.
   */
  async function recordMarkers(markers: readonly StreamEvents[]): Promise<unknown[]> {
    if (markers.length === 0) return [];
    try {
      await db.transaction((tx) => appendManyAndProject(tx, store, markers));
      return [];
    } catch (error) {
      if (markers.length === 1) return [error];
      log.warn({ err: error, count: markers.length }, 'voyage-plan markers failed together; recording one by one');
    }
    const errors: unknown[] = [];
    for (const marker of markers) {
      try {
        await withStreamLock(db, marker.streamId, (tx) =>
          appendAndProject(tx, store, marker.streamId, marker.events, marker.metadata),
        );
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }

  return bus.consume(
    name,
    async (messages) => {
      const ids = new Set(
        messages
          .map(toRecordedEvent)
          .filter((e) => e.type === 'PortCallChanged' && !(e.data as PortCallChanged).deleted)
          .map((e) => (e.data as PortCallChanged).port_call_id),
      );
      if (ids.size === 0) return;
      const loaded = await loadWatchedPortCalls(db, bus, [...ids]);
      // The sends run together (the sends' own records then share transactions); a port call whose send failed
      // unexpectedly does not keep the others' markers from being recorded.
      const requested = await Promise.allSettled(
        loaded.filter((l) => voyagePlanRequestDue(l.pc, l.sent)).map((l) => requestVoyagePlan(l)),
      );
      const errors = requested.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      const markers = requested.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      errors.push(...(await recordMarkers(markers)));
      for (const l of loaded.filter((x) => departureDue(x.pc, x.sent))) {
        try {
          await sendDeparture({ db, store, log, vis, transport }, l.pc);
        } catch (error) {
          errors.push(error);
        }
      }
      // What succeeded is recorded and is not done again when the consumer retries the messages one by one.
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, `${errors.length} port calls failed`);
    },
    { bindings: [PORTCALL_CHANGED_ROUTING_KEY], maxBatch: 200, prefetch: 500 },
  );
}

/** What a departure's sending uses. */
interface Watch {
  db: ServiceDeps['db'];
  store: ServiceDeps['store'];
  log: ServiceDeps['log'];
  vis: VisCommandSet;
  transport: () => VisTransport;
}

/**
 * Sends a port call's departure to every whitelisted service of its next port (the ports of that UN/LOCODE found
 * first when none is known) and records where it went.
 */
async function sendDeparture(w: Watch, pc: WatchedPortCall): Promise<void> {
  const { db, store, log, vis, transport } = w;
  const etd = pc.current_etd as string;
  const toLocode = (pc.next_port ?? '').trim().toUpperCase();
  const sentTo: string[] = [];
  const position = await locodeCoordinates(toLocode);
  if (position) {
    let ports = await portsByLocode(db, toLocode);
    if (ports.length === 0) {
      try {
        const found = await transport().findInterPortServicesByLocode(toLocode);
        for (const service of found) {
          await withStreamLock(db, `visport-${service.service_id}`, (tx) =>
            vis.savePort(tx, service.name, service.service_id, [toLocode], SYSTEM),
          );
        }
      } catch (error) {
        log.warn({ locode: toLocode, err: error }, 'inter-port services not found');
      }
      ports = await portsByLocode(db, toLocode);
    }
    for (const port of ports.filter((p) => p.whitelist_out)) {
      const service = await visVesselByServiceId(db, port.service_id);
      try {
        if (!service || service.service_url === '') {
          await transport().findServices({ service_id: port.service_id });
          continue;
        }
        await transport().sendDeparture({
          message_id: randomUUID(),
          to_service_id: service.service_id,
          to_url: service.service_url,
          from_locode: vis.settings.portUnlocode,
          to_locode: toLocode,
          vessel_imo: sharedImo(pc.imo),
          vessel_name: pc.vessel_name,
          to_lat: position.lat,
          to_lon: position.lon,
          time: etd,
        });
        sentTo.push(service.service_id);
      } catch (error) {
        log.warn({ port_call_id: pc.id, service_id: port.service_id, err: error }, 'departure not sent');
      }
    }
  } else {
    log.info({ port_call_id: pc.id, locode: toLocode }, 'next port has no known position: no departure sent');
  }
  const stream = visPortCallStream(pc.id);
  await withStreamLock(db, stream, (tx) =>
    appendAndProject(
      tx,
      store,
      stream,
      [
        {
          id: nameBasedId(['VisDepartureSent', pc.id, etd, toLocode]),
          type: 'VisDepartureSent',
          data: { port_call_id: pc.id, imo: pc.imo, etd, to_locode: toLocode, to_service_ids: sentTo },
        },
      ],
      SYSTEM,
    ),
  );
}
