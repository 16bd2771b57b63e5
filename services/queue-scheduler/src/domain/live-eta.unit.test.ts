// The live ETA alert's decisions as events: only slot requests waiting with a JIT ETA, only changes recorded.

import { describe, expect, it } from 'vitest';
import { type AlertSlotRequest, decideLiveEtaAlert } from './live-eta.ts';

const H = 3_600_000;
const settings = { liveEtaAlertBufferMs: H, liveEtaAlertDelayMs: 2 * H };
const t0 = Date.UTC(2024, 0, 1);
const slot: AlertSlotRequest = {
  id: 5,
  status: 'accepted',
  jit_eta: t0 + 10 * H,
  state: 'green',
  discrepancy_time: null,
};

describe('decideLiveEtaAlert', () => {
  it('late beyond the buffer: orange with the discrepancy time, re-evaluated after the delay', () => {
    const d = decideLiveEtaAlert(slot, t0 + 11 * H + 1, t0, settings);
    expect(d.event).toEqual({
      slot_request_id: 5,
      state: 'orange',
      discrepancy_time: '2024-01-01T00:00:00+00:00',
      live_eta: '2024-01-01T11:00:00+00:00',
      alert_sent: false,
    });
    expect(d.reevaluateAt).toBe(t0 + 2 * H + 1);
  });

  it('time passing past the delay: red once, with the alert', () => {
    const orange = { ...slot, state: 'orange' as const, discrepancy_time: t0 };
    const d = decideLiveEtaAlert(orange, null, t0 + 2 * H + 1, settings);
    expect(d.event).toMatchObject({ state: 'red', discrepancy_time: null, live_eta: null, alert_sent: true });
    expect(d.sendAlert).toBe(true);
    const again = decideLiveEtaAlert({ ...slot, state: 'red' }, t0 + 12 * H, t0 + 3 * H, settings);
    expect(again).toEqual({ event: null, sendAlert: false, reevaluateAt: null });
  });

  it('nothing for a request without JIT ETA or not waiting, and nothing when nothing changes', () => {
    expect(decideLiveEtaAlert({ ...slot, jit_eta: null }, t0 + 20 * H, t0, settings).event).toBeNull();
    expect(decideLiveEtaAlert({ ...slot, status: 'cancelled_by_port' }, t0 + 20 * H, t0, settings).event).toBeNull();
    expect(decideLiveEtaAlert(slot, t0 + 10 * H, t0, settings).event).toBeNull();
  });
});
