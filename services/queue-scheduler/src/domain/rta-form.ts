// POST /rta-web-form (docs/domain.md#queue-e-mails-and-live-eta): the port sends the vessel a link to the RTA form
// with the port's RTA and ETA window. The port call must be arriving and know where to write and what the vessel
// is; the original's 400 names the first value missing. Pure: the port call is given as the read model has it.

import { ApiError, type SendRtaWebFormCommand } from '@pcas/contracts';

/** The port call's fields the form needs, as read from the port-call read model. */
export interface RtaFormPortCall {
  id: number;
  imo: number;
  status: string;
  eta_form_email: string | null;
  vessel_name: string | null;
  loa: number | null;
  beam: number | null;
  draft: number | null;
  berth: string | null;
}

const REQUIRED = ['eta_form_email', 'vessel_name', 'loa', 'beam', 'draft', 'berth'] as const;

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

function time(value: unknown, name: string): string {
  const ok = typeof value === 'string' && ISO_WITH_ZONE.test(value.trim()) && Number.isFinite(Date.parse(value));
  if (!ok) throw ApiError.badRequest(`Invalid ${name}: ${String(value)}`);
  return new Date(Date.parse(value as string)).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/**
 * Picks the port call (the named one when it is the IMO's, else the IMO's first arriving one by ETA) and checks
 * it; returns it with the times in UTC. `candidates` are the IMO's port calls, first ETA first.
 */
export function checkRtaForm(
  input: SendRtaWebFormCommand,
  candidates: readonly RtaFormPortCall[],
): { portCall: RtaFormPortCall; rta: string; eta_min: string; eta_max: string } {
  const rta = time(input.rta, 'RTA');
  const eta_min = time(input.eta_min, 'ETA min');
  const eta_max = time(input.eta_max, 'ETA max');
  const arriving = candidates.filter((pc) => pc.status === 'arriving');
  const portCall =
    (input.port_call_id ? arriving.find((pc) => pc.id === input.port_call_id) : undefined) ?? arriving[0];
  if (!portCall) throw ApiError.badRequest(`Cannot find arriving status port call for given IMO ${input.imo}`);
  for (const field of REQUIRED) {
    const value = portCall[field];
    if (value === null || value === undefined || value === '') {
      throw ApiError.badRequest(
        `Arriving status port call for given IMO ${input.imo} does not have required value ${field}`,
      );
    }
  }
  return { portCall, rta, eta_min, eta_max };
}
