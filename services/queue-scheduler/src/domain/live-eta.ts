// The live ETA against the slot request's JIT ETA (docs/domain.md#queue-e-mails-and-live-eta): each evaluation that
// changes the alert state is an event on the slot request's alert stream (`liveetaalert-<id>`, owned by this
// service), so the alert's history reads back; the green/orange/red rule itself is live-eta-alert.ts. Pure.

import { type AlertState, evaluateLiveEta } from './live-eta-alert.ts';

export const liveEtaAlertStream = (slotRequestId: number): string => `liveetaalert-${slotRequestId}`;

/** liveetaalert-<slot request id>: the alert state changed (and, when it turned red, the alert was mailed). */
export interface LiveEtaAlertChanged {
  slot_request_id: number;
  state: AlertState;
  /** When the live ETA was first seen late in this episode (UTC ISO), or null. */
  discrepancy_time: string | null;
  /** The live ETA that caused it; null when time passing did. */
  live_eta: string | null;
  alert_sent: boolean;
}

/** What the evaluation needs of a slot request (its read model row). */
export interface AlertSlotRequest {
  id: number;
  status: string;
  jit_eta: number | null;
  state: AlertState;
  discrepancy_time: number | null;
}

/** Statuses with a JIT ETA the port waits for; the others are never alerted. */
const WATCHED = new Set(['offered', 'accepted', 'updated']);

export interface AlertDecision {
  event: LiveEtaAlertChanged | null;
  sendAlert: boolean;
  /** Evaluate again then if no live ETA arrives (epoch ms), or null. */
  reevaluateAt: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** A live ETA arrived (`liveEta`) or time passed (`liveEta` null): the event to record, if anything changed. */
export function decideLiveEtaAlert(
  slot: AlertSlotRequest,
  liveEta: number | null,
  now: number,
  settings: { liveEtaAlertBufferMs: number; liveEtaAlertDelayMs: number },
): AlertDecision {
  if (!WATCHED.has(slot.status) || slot.jit_eta === null) return { event: null, sendAlert: false, reevaluateAt: null };
  const outcome = evaluateLiveEta({
    jitEta: slot.jit_eta,
    liveEta,
    state: slot.state,
    discrepancyTime: slot.discrepancy_time,
    now,
    bufferMs: settings.liveEtaAlertBufferMs,
    delayMs: settings.liveEtaAlertDelayMs,
  });
  const event: LiveEtaAlertChanged | null = outcome.changed
    ? {
        slot_request_id: slot.id,
        state: outcome.state,
        discrepancy_time: outcome.discrepancyTime === null ? null : iso(outcome.discrepancyTime),
        live_eta: liveEta === null ? null : iso(liveEta),
        alert_sent: outcome.sendAlert,
      }
    : null;
  return { event, sendAlert: outcome.sendAlert, reevaluateAt: outcome.reevaluateAt };
}
