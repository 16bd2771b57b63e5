// The JIT ETA alert (docs/domain.md#queue): green while the vessel's live ETA is within the buffer
// after its JIT ETA, orange once it is later than that, red (and one alert mail) once it has been late for
// longer than the delay. Evaluated when a live ETA arrives and again when time passes without one. Pure.

export type AlertState = 'green' | 'orange' | 'red';

export interface LiveEtaAlertInput {
  /** The slot request's JIT ETA; without one there is nothing to compare (nothing changes). */
  jitEta: number | null;
  /** The live ETA that just arrived, or null when re-evaluating because time passed without one. */
  liveEta: number | null;
  state: AlertState;
  /** When the live ETA was first seen late in this episode; null when on time (or already red). */
  discrepancyTime: number | null;
  now: number;
  /** `queue_live_eta_alert_buffer_duration` */
  bufferMs: number;
  /** `queue_live_eta_alert_delay_duration` */
  delayMs: number;
}

export interface LiveEtaAlertOutcome {
  state: AlertState;
  discrepancyTime: number | null;
  /** Whether state or discrepancy time differ from the input (something to record). */
  changed: boolean;
  /** Send the alert mail: true exactly on the evaluation that turns the state red. */
  sendAlert: boolean;
  /** When to evaluate again if no live ETA arrives (the first instant after discrepancy + delay); null = never. */
  reevaluateAt: number | null;
}

/**
 * The next alert state. A live ETA later than JIT ETA + buffer turns green to orange and starts the discrepancy
 * time (if not started); one within it turns the state back to green and clears the time. Then, if the
 * discrepancy time is more than the delay ago, the state turns red, the time is cleared and the alert is sent.
 * Red stays red while live ETAs stay late and starts no new discrepancy time, so the mail goes once per turn to
 * red; a live ETA on time again makes it green and arms the alert anew.
 */
export function evaluateLiveEta(input: LiveEtaAlertInput): LiveEtaAlertOutcome {
  let { state, discrepancyTime } = input;
  if (input.jitEta !== null) {
    if (input.liveEta !== null) {
      if (input.liveEta > input.jitEta + input.bufferMs) {
        if (state === 'green') state = 'orange';
        if (discrepancyTime === null && state !== 'red') discrepancyTime = input.now;
      } else {
        state = 'green';
        discrepancyTime = null;
      }
    }
  }
  let sendAlert = false;
  if (input.jitEta !== null && discrepancyTime !== null && input.now > discrepancyTime + input.delayMs) {
    state = 'red';
    discrepancyTime = null;
    sendAlert = true;
  }
  return {
    state,
    discrepancyTime,
    changed: state !== input.state || discrepancyTime !== input.discrepancyTime,
    sendAlert,
    reevaluateAt: discrepancyTime === null || input.jitEta === null ? null : discrepancyTime + input.delayMs + 1,
  };
}
