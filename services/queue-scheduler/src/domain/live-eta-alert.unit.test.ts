import { describe, expect, it } from 'vitest';
import { evaluateLiveEta, type LiveEtaAlertInput } from './live-eta-alert.ts';
import { HOUR_MS, MINUTE_MS } from './queue-rules.ts';

const JIT = Date.UTC(2026, 10, 28, 10);
const NOW = Date.UTC(2026, 10, 27, 12);
const input = (over: Partial<LiveEtaAlertInput>): LiveEtaAlertInput => ({
  jitEta: JIT,
  liveEta: null,
  state: 'green',
  discrepancyTime: null,
  now: NOW,
  bufferMs: HOUR_MS,
  delayMs: 2 * HOUR_MS,
  ...over,
});

describe('the live ETA alert', () => {
  it('stays green while the live ETA is at most JIT ETA + buffer', () => {
    expect(evaluateLiveEta(input({ liveEta: JIT + HOUR_MS }))).toEqual({
      state: 'green',
      discrepancyTime: null,
      changed: false,
      sendAlert: false,
      reevaluateAt: null,
    });
  });

  it('turns orange when later than that, starting the discrepancy time and asking to look again after the delay', () => {
    expect(evaluateLiveEta(input({ liveEta: JIT + HOUR_MS + 1 }))).toEqual({
      state: 'orange',
      discrepancyTime: NOW,
      changed: true,
      sendAlert: false,
      reevaluateAt: NOW + 2 * HOUR_MS + 1,
    });
  });

  it('keeps the first discrepancy time while further late live ETAs arrive', () => {
    const since = NOW - HOUR_MS;
    expect(
      evaluateLiveEta(input({ liveEta: JIT + 5 * HOUR_MS, state: 'orange', discrepancyTime: since })),
    ).toMatchObject({ state: 'orange', discrepancyTime: since, changed: false, sendAlert: false });
  });

  it('turns red with one alert once late for longer than the delay, by a live ETA or by time passing', () => {
    const since = NOW - 2 * HOUR_MS;
    expect(evaluateLiveEta(input({ state: 'orange', discrepancyTime: since }))).toMatchObject({
      state: 'orange',
      sendAlert: false,
      reevaluateAt: NOW + 1,
    });
    const byTime = evaluateLiveEta(input({ state: 'orange', discrepancyTime: since, now: NOW + 1 }));
    expect(byTime).toEqual({ state: 'red', discrepancyTime: null, changed: true, sendAlert: true, reevaluateAt: null });
    const byLiveEta = evaluateLiveEta(
      input({ liveEta: JIT + 3 * HOUR_MS, state: 'orange', discrepancyTime: since - 1 }),
    );
    expect(byLiveEta).toMatchObject({ state: 'red', sendAlert: true });
  });

  it('stays red without another alert while the live ETA stays late', () => {
    const red = input({ state: 'red', liveEta: JIT + 3 * HOUR_MS });
    expect(evaluateLiveEta(red)).toEqual({
      state: 'red',
      discrepancyTime: null,
      changed: false,
      sendAlert: false,
      reevaluateAt: null,
    });
    expect(evaluateLiveEta({ ...red, liveEta: null, now: NOW + 10 * HOUR_MS })).toMatchObject({ sendAlert: false });
  });

  it('goes back to green, clearing the discrepancy, when a live ETA is on time again; the next lateness alerts anew', () => {
    expect(evaluateLiveEta(input({ state: 'red', liveEta: JIT - 30 * MINUTE_MS }))).toMatchObject({
      state: 'green',
      changed: true,
    });
    expect(evaluateLiveEta(input({ state: 'orange', discrepancyTime: NOW - 1, liveEta: JIT }))).toEqual({
      state: 'green',
      discrepancyTime: null,
      changed: true,
      sendAlert: false,
      reevaluateAt: null,
    });
  });

  it('changes nothing without a JIT ETA', () => {
    expect(
      evaluateLiveEta(
        input({ jitEta: null, liveEta: JIT + 9 * HOUR_MS, state: 'orange', discrepancyTime: NOW - 9 * HOUR_MS }),
      ),
    ).toEqual({
      state: 'orange',
      discrepancyTime: NOW - 9 * HOUR_MS,
      changed: false,
      sendAlert: false,
      reevaluateAt: null,
    });
  });
});
