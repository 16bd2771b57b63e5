// The JIT queue's vessel-facing routes (docs/domain.md#queue-e-mails-and-live-eta). The vessel's forms (our web UI's
// pages at /agent/eta-form/ and /agent/eta-form/rta/) have no session and no API key: the signed link's token is
// their credential, checked here with the queue-scheduler's public key (so the token goes no further than the
// gateway); these routes then do what the original's agent routes do for the one slot request it names (the agent
// routes themselves keep the original's API key, routes/queue.ts). A JIT ETA form link changes its request only
// while it is the newest mailed for it and the request is open (domain/eta-form-links.ts); otherwise GET still shows
// the request, with `link_read_only` saying why, and PUT/DELETE answer 403 with that reason. Also a data source's live
// ETA and the port's RTA web form.

import {
  ApiError,
  type CancelSlotRequestInput,
  PORTCALL_PROJECTOR,
  PortcallCommands,
  QUEUE_SCHEDULER,
  QueueCommands,
  QueueLinkCommands,
  type SendRtaWebFormCommand,
  type SetLiveEtaCommand,
  type SlotRequestInput,
} from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { etaFormLinks } from '../../adapters/eta-form-links.ts';
import { slotRequestById, slotRequestLinkState } from '../../adapters/read-models/queue.ts';
import { linkChangeRefusal } from '../../domain/eta-form-links.ts';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, int, optional, optionalInt, text } from './params.ts';

const TOKEN = text(8192);

export function etaFormRoutes(deps: GatewayDeps): Route[] {
  const { bus, db, config } = deps;
  const links = etaFormLinks(db, config);
  /** The link, when it may change its slot request; else 403 with the reason (nothing is sent on). */
  const changingLink = async (token: string) => {
    const link = await links.slotRequest(token);
    const refusal = linkChangeRefusal(link, await slotRequestLinkState(db, link.slot_request_id));
    if (refusal !== null) throw ApiError.forbidden(refusal);
    return link;
  };

  return [
    {
      method: 'GET',
      path: '/agent/rest/eta-form/slot-reservation',
      permission: 'public',
      module: 'queue',
      params: { token: TOKEN },
      async handle({ params }) {
        const link = await links.slotRequest(params.token);
        const [slot, state] = await Promise.all([
          slotRequestById(db, link.slot_request_id),
          slotRequestLinkState(db, link.slot_request_id),
        ]);
        if (slot === null) return null;
        return { ...(slot as object), link_expires: link.expires, link_read_only: linkChangeRefusal(link, state) };
      },
    },
    {
      method: 'PUT',
      path: '/agent/rest/eta-form/slot-reservations',
      permission: 'public',
      module: 'queue',
      params: { token: TOKEN, laytime: text(64), jit_eta: text(64) },
      async handle({ params, auth }) {
        const link = await changingLink(params.token);
        return sendAs<SlotRequestInput>(bus, QUEUE_SCHEDULER, QueueCommands.updateSlotRequest, auth, {
          id: link.slot_request_id,
          laytime: params.laytime,
          jit_eta: params.jit_eta,
          agent: true,
        });
      },
    },
    {
      method: 'DELETE',
      path: '/agent/rest/eta-form/slot-reservations',
      permission: 'public',
      module: 'queue',
      params: { token: TOKEN },
      async handle({ params, auth }) {
        const link = await changingLink(params.token);
        return sendAs<CancelSlotRequestInput>(bus, QUEUE_SCHEDULER, QueueCommands.cancelSlotRequest, auth, {
          id: link.slot_request_id,
          by_vessel: true,
        });
      },
    },
    {
      method: 'GET',
      path: '/agent/rest/eta-form/rta',
      permission: 'public',
      module: 'queue',
      params: { token: TOKEN },
      handle: ({ params }) => links.rtaForm(params.token),
    },
    {
      method: 'POST',
      path: '/agent/rest/live-eta',
      permission: 'timestamp',
      module: 'queue',
      params: {
        imo: int(),
        time: text(64),
        payload: { ...array(), default: {} },
      },
      handle: ({ params, auth }) =>
        sendAs<SetLiveEtaCommand>(bus, PORTCALL_PROJECTOR, PortcallCommands.setLiveEta, auth, {
          imo: params.imo,
          time: params.time,
          payload: params.payload,
        }),
    },
    {
      method: 'POST',
      path: '/rta-web-form',
      permission: 'send_rta_web_form',
      params: {
        port_call_id: optionalInt(),
        port: { ...text(255), default: '' },
        imo: int(),
        rta: text(64),
        eta_min: text(64),
        eta_max: text(64),
        payload: optional(array()),
      },
      handle: ({ params, auth }) =>
        sendAs<SendRtaWebFormCommand>(bus, QUEUE_SCHEDULER, QueueLinkCommands.sendRtaWebForm, auth, {
          port_call_id: params.port_call_id ?? null,
          port: params.port,
          imo: params.imo,
          rta: params.rta,
          eta_min: params.eta_min,
          eta_max: params.eta_max,
        }),
    },
  ];
}
