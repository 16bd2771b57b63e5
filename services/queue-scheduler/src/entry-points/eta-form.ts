// POST /rta-web-form on cmd.queue-scheduler (docs/domain.md#queue-e-mails-and-live-eta): the port call checked, its
// RTA stored by the portcall-projector, the signed link to the RTA form mailed. (The links are checked by the
// gateway with this service's public key.)

import { randomUUID } from 'node:crypto';
import { decodeCommand } from '@pcas/commands';
import {
  PORTCALL_PROJECTOR,
  PortcallCommands,
  PortcallQueries,
  QueueLinkCommands,
  type SendRtaWebFormCommand,
  type ServiceDeps,
  type SetPortCallRtaCommand,
  type VesselPortCall,
  type VesselPortCallsQuery,
} from '@pcas/contracts';
import { rtaFormMail } from '../domain/mails.ts';
import { checkRtaForm } from '../domain/rta-form.ts';
import type { QueueMails } from './mails.ts';

export function etaFormCommands(deps: ServiceDeps, mails: QueueMails) {
  const { db, bus, config } = deps;

  async function sendRtaWebForm(payload: unknown): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SendRtaWebFormCommand>(payload);
    const imo = Number(input.imo);
    // The vessel's port calls are the portcall-projector's: asked for, by current ETA.
    const query: VesselPortCallsQuery = { imo };
    const portCalls = await bus.rpc<VesselPortCall[]>(PORTCALL_PROJECTOR, PortcallQueries.vesselPortCalls, {
      actor,
      input: query,
    });
    const checked = checkRtaForm({ ...input, imo }, portCalls);
    const pc = checked.portCall;
    // The port call's RTA belongs to the portcall-projector; it is stored before the link goes out.
    const rta: SetPortCallRtaCommand = {
      imo,
      port_call_id: pc.id,
      rta: checked.rta,
      eta_min: checked.eta_min,
      eta_max: checked.eta_max,
    };
    await bus.rpc(PORTCALL_PROJECTOR, PortcallCommands.setPortCallRta, { actor, input: rta });
    const link = mails.links.rtaForm({
      port: String(input.port ?? ''),
      rta: checked.rta,
      eta_min: checked.eta_min,
      eta_max: checked.eta_max,
      email: pc.eta_form_email!,
      imo,
      vessel_name: pc.vessel_name!,
      vessel_loa: pc.loa!,
      vessel_beam: pc.beam!,
      vessel_draft: pc.draft!,
      berth: pc.berth!,
    });
    const id = `rtaform-${randomUUID()}`;
    await db.transaction(async (tx) => {
      const mail = rtaFormMail(
        {
          email: pc.eta_form_email!,
          link: `${config.baseUrl}/agent/eta-form/rta/?token=${link.token}`,
          linkExpires: link.expires,
        },
        await mails.texts(tx),
        mails.timeZone,
      );
      await mails.record(tx, id, mail);
    });
    await mails.deliver([id]);
    return { result: 'OK' };
  }

  return {
    [QueueLinkCommands.sendRtaWebForm]: sendRtaWebForm,
  };
}
