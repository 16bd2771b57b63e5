// The vis-bridge's consumer of the projector's portcall.PortCallChanged (queue `vis-bridge-portcalls`,
// docs/domain.md#vis-and-other-ports): at a port call's first ETA a VIS vessel that does not share its voyage plan
// yet is asked for it (once per port call), and when the ETD changes with a next port named, the departure goes to
// every whitelisted service of that UN/LOCODE. What was sent is recorded on `visportcall-<id>`, so a redelivered
// signal sends nothing twice. A failed send is only logged, as the original.

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
  portsByLocode,
  visVesselByImo,
  visVesselByServiceId,
  withStreamLock,
} from '../adapters/vis-store.ts';
import { nameBasedId } from '../domain/ids.ts';
import {
  departureDue,
  type PortCallSent,
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

  async function load(id: number): Promise<{ pc: WatchedPortCall; sent: PortCallSent } | undefined> {
    const { rows } = await db.query<WatchedPortCall>(
      `SELECT id::int AS id, imo::int AS imo, vessel_name, status,
              to_char(current_eta AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS current_eta,
              to_char(current_etd AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS current_etd,
              next_port, is_vis
         FROM portcall.port_calls WHERE id = $1`,
      [id],
    );
    if (!rows[0]) return undefined;
    const sent = await db.query<PortCallSent>(
      'SELECT voyage_plan_requested, last_etd FROM vis.port_calls WHERE port_call_id = $1',
      [id],
    );
    return { pc: rows[0], sent: sent.rows[0] ?? { voyage_plan_requested: false, last_etd: null } };
  }

  async function requestVoyagePlan(pc: WatchedPortCall): Promise<void> {
    if (pc.is_vis && !(await visVesselByImo(db, pc.imo))) {
      // A vessel reporting through VIS (a `source: vis` timestamp) whose service is not known yet: look it up.
      await transport()
        .findServices({ imo: pc.imo })
        .catch((error: unknown) => log.warn({ imo: pc.imo, err: error }, 'VIS service lookup failed'));
    }
    const vessel = pc.is_vis ? undefined : await visVesselByImo(db, pc.imo);
    let messageId: string | null = null;
    if (vessel && vessel.service_url !== '') {
      try {
        messageId = await vis.sendText(vessel, voyagePlanRequest(vis.settings), 'voyage_plan_request', SYSTEM);
      } catch (error) {
        log.warn({ port_call_id: pc.id, err: error }, 'voyage-plan request not sent');
      }
    }
    const stream = visPortCallStream(pc.id);
    await withStreamLock(db, stream, (tx) =>
      appendAndProject(
        tx,
        store,
        stream,
        [
          {
            id: nameBasedId(['VoyagePlanRequested', pc.id]),
            type: 'VoyagePlanRequested',
            data: { port_call_id: pc.id, imo: pc.imo, service_id: vessel?.service_id ?? null, message_id: messageId },
          },
        ],
        SYSTEM,
      ),
    );
  }

  async function sendDeparture(pc: WatchedPortCall): Promise<void> {
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

  return bus.consume(
    name,
    async (messages) => {
      const ids = new Set(
        messages
          .map(toRecordedEvent)
          .filter((e) => e.type === 'PortCallChanged' && !(e.data as PortCallChanged).deleted)
          .map((e) => (e.data as PortCallChanged).port_call_id),
      );
      for (const id of ids) {
        const loaded = await load(id);
        if (!loaded) continue;
        if (voyagePlanRequestDue(loaded.pc, loaded.sent)) await requestVoyagePlan(loaded.pc);
        if (departureDue(loaded.pc, loaded.sent)) await sendDeparture(loaded.pc);
      }
    },
    { bindings: [PORTCALL_CHANGED_ROUTING_KEY], maxBatch: 200, prefetch: 500 },
  );
}
