import { describe, expect, it } from 'vitest';
import {
  checkNominationWindow,
  DEFAULT_QUEUE_SETTINGS,
  HOUR_MS,
  isWindowGiven,
  laytimeFromHhMm,
  laytimeToHhMm,
  MINUTE_MS,
  msToHhMm,
  msToIsoDuration,
  nominationExpires,
  queueSettings,
  slotRequestCompletes,
} from './queue-rules.ts';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return [(error as { status: number }).status, (error as Error).message];
  }
  return 'accepted';
};

describe('queue settings', () => {
  it('default to the original’s durations, and a longest laytime of 72 hours', () => {
    expect(DEFAULT_QUEUE_SETTINGS).toEqual({
      travelToBerthMs: 30 * MINUTE_MS,
      rtaWindowMs: 30 * MINUTE_MS,
      laytimeBufferMs: 30 * MINUTE_MS,
      liveEtaAlertBufferMs: HOUR_MS,
      liveEtaAlertDelayMs: 2 * HOUR_MS,
      maxLaytimeMs: 72 * HOUR_MS,
    });
  });

  it('read stored ISO durations by name, a missing or unreadable one taking its default', () => {
    expect(
      queueSettings({
        queue_travel_duration_to_berth: 'PT1H15M',
        queue_rta_window_duration: 'bad',
        queue_laytime_buffer_duration: null,
        queue_live_eta_alert_delay_duration: 'P1D',
        queue_max_laytime_duration: 'PT100H',
        port_operator_emails: 'a@b.fi',
      }),
    ).toEqual({
      travelToBerthMs: 75 * MINUTE_MS,
      rtaWindowMs: 30 * MINUTE_MS,
      laytimeBufferMs: 30 * MINUTE_MS,
      liveEtaAlertBufferMs: HOUR_MS,
      liveEtaAlertDelayMs: 24 * HOUR_MS,
      maxLaytimeMs: 100 * HOUR_MS,
    });
  });
});

describe('ISO durations', () => {
  // Reading them is @pcas/values' (libs/values/src/duration.unit.test.ts).
  it('a month reads as 731 hours (as the original renders it)', () => {
    expect(laytimeToHhMm('P1M')).toBe('731:00');
  });

  it('written back in hours, minutes and seconds', () => {
    expect(msToIsoDuration(2 * HOUR_MS)).toBe('PT2H');
    expect(msToIsoDuration(150 * MINUTE_MS)).toBe('PT2H30M');
    expect(msToIsoDuration(36 * HOUR_MS + 1000)).toBe('PT36H1S');
    expect(msToIsoDuration(0)).toBe('PT0S');
  });
});

describe('laytimes', () => {
  it('hh:mm from a vessel becomes PT{h}H{m}M', () => {
    expect(laytimeFromHhMm('02:30')).toBe('PT2H30M');
    expect(laytimeFromHhMm('2:05')).toBe('PT2H5M');
    expect(laytimeFromHhMm('100:00')).toBe('PT100H0M');
    expect(laytimeFromHhMm('00:00')).toBe('PT0H0M');
    for (const bad of ['2:60', '-1:00', '02:3', '02-30', 'PT2H', '', ' 02:30', 230]) {
      expect(laytimeFromHhMm(bad), String(bad)).toBeUndefined();
    }
  });

  it('an ISO laytime reads as HH:MM, hours past a day counted on', () => {
    expect(laytimeToHhMm('PT2H')).toBe('02:00');
    expect(laytimeToHhMm('PT2H30M')).toBe('02:30');
    expect(laytimeToHhMm('PT36H')).toBe('36:00');
    expect(laytimeToHhMm('P1DT1H30M')).toBe('25:30');
    expect(laytimeToHhMm('x')).toBeUndefined();
    expect(msToHhMm(119 * MINUTE_MS + 59_000)).toBe('01:59');
  });
});

describe('a nomination’s window', () => {
  // 2026-11-27 12:00 in Helsinki (UTC+2): yesterday 00:00 there is 2026-11-25T22:00Z; today 23:59:59 + 1 month +
  // 1 day there is 2026-12-28T23:59:59+02:00.
  const now = Date.UTC(2026, 10, 27, 10, 0, 0);
  const zone = 'Europe/Helsinki';
  const check = (start: unknown, end: unknown, at = now, tz = zone) =>
    refusal(() => checkNominationWindow(start, end, at, tz));

  it('is both dates or neither', () => {
    expect(isWindowGiven(undefined, null)).toBe(false);
    expect(isWindowGiven('a', 'b')).toBe(true);
    expect(refusal(() => isWindowGiven('2026-11-27T10:00:00+00:00', undefined))).toEqual([
      400,
      'Only one window date given',
    ]);
    expect(refusal(() => isWindowGiven(null, '2026-11-27T10:00:00+00:00'))).toEqual([
      400,
      'Only one window date given',
    ]);
  });

  it('comes back as epoch ms', () => {
    expect(checkNominationWindow('2026-11-28T00:00:00+02:00', '2026-11-29T00:00:00+00:00', now, zone)).toEqual({
      start: Date.UTC(2026, 10, 27, 22),
      end: Date.UTC(2026, 10, 29),
    });
  });

  it('refuses dates not in the ISO form, start first', () => {
    expect(check('2026-11-28T00:00:00Z', 'x')).toEqual([
      400,
      'Given window start is not in ISO format: 2026-11-28T00:00:00Z',
    ]);
    expect(check('2026-11-28T00:00:00+00:00', '2026-11-29')).toEqual([
      400,
      'Given window end is not in ISO format: 2026-11-29',
    ]);
  });

  it('refuses a start after the end; the same instant is fine', () => {
    expect(check('2026-11-28T00:00:01+00:00', '2026-11-28T00:00:00+00:00')).toEqual([
      400,
      'Window start must be before window end',
    ]);
    expect(check('2026-11-28T00:00:00+00:00', '2026-11-28T02:00:00+02:00')).toBe('accepted');
  });

  it('starts no earlier than yesterday 00:00 in the server’s zone', () => {
    expect(check('2026-11-26T00:00:00+02:00', '2026-11-28T00:00:00+00:00')).toBe('accepted');
    expect(check('2026-11-25T23:59:59+02:00', '2026-11-28T00:00:00+00:00')).toEqual([
      400,
      'Window start must be after current date',
    ]);
    // In UTC yesterday 00:00 is two hours later.
    expect(check('2026-11-26T00:00:00+02:00', '2026-11-28T00:00:00+00:00', now, 'UTC')).toEqual([
      400,
      'Window start must be after current date',
    ]);
  });

  it('ends no later than today 23:59:59 + 1 month + 1 day in the server’s zone', () => {
    expect(check('2026-11-28T00:00:00+00:00', '2026-12-28T23:59:59+02:00')).toBe('accepted');
    expect(check('2026-11-28T00:00:00+00:00', '2026-12-29T00:00:00+02:00')).toEqual([
      400,
      'Window end can be maximum one month in advance',
    ]);
  });

  it('counts the month as PHP does at a month’s end (31 January + 1 month + 1 day = 4 March)', () => {
    const jan31 = Date.UTC(2026, 0, 31, 12);
    expect(check('2026-02-01T00:00:00+00:00', '2026-03-04T23:59:59+00:00', jan31, 'UTC')).toBe('accepted');
    expect(check('2026-02-01T00:00:00+00:00', '2026-03-05T00:00:00+00:00', jan31, 'UTC')).toEqual([
      400,
      'Window end can be maximum one month in advance',
    ]);
  });

  it('follows a daylight-saving change: the day before summer time began had a +02:00 midnight', () => {
    const afterChange = Date.UTC(2026, 2, 29, 12); // summer time in Helsinki began 29 March 2026
    expect(check('2026-03-28T00:00:00+02:00', '2026-03-30T00:00:00+03:00', afterChange)).toBe('accepted');
    expect(check('2026-03-27T23:59:59+02:00', '2026-03-30T00:00:00+03:00', afterChange)).toEqual([
      400,
      'Window start must be after current date',
    ]);
  });
  it('takes a midnight that summer time skips as the hour after it, as PHP does', () => {
    // The Azores moved from 00:00 (−01:00) to 01:00 (+00:00) on 29 March 2026: that midnight never was.
    const next = Date.UTC(2026, 2, 30, 12);
    const azores = 'Atlantic/Azores';
    expect(check('2026-03-29T01:00:00+00:00', '2026-04-01T00:00:00+00:00', next, azores)).toBe('accepted');
    expect(check('2026-03-29T00:59:59+00:00', '2026-04-01T00:00:00+00:00', next, azores)).toEqual([
      400,
      'Window start must be after current date',
    ]);
  });
});

describe('expiry and completion', () => {
  const now = Date.UTC(2026, 10, 27, 10);

  it('a nomination not yet expired expires once its window end has passed', () => {
    expect(nominationExpires('open', now - 1, now)).toBe(true);
    expect(nominationExpires('reserved', now - 1, now)).toBe(true);
    expect(nominationExpires('open', now, now)).toBe(false);
    expect(nominationExpires('expired', now - 1, now)).toBe(false);
  });

  it('a slot request completes after (RTA start or ETA) + laytime + RTA window + travel + buffer', () => {
    const laytimeMs = 2 * HOUR_MS;
    const extra = laytimeMs + 90 * MINUTE_MS; // + RTA window, travel and buffer of 30 minutes each
    const s = DEFAULT_QUEUE_SETTINGS;
    const rtaWindowStart = now - extra;
    expect(slotRequestCompletes({ status: 'accepted', eta: now + HOUR_MS, rtaWindowStart, laytimeMs }, s, now)).toBe(
      false,
    );
    expect(
      slotRequestCompletes({ status: 'accepted', eta: now + HOUR_MS, rtaWindowStart, laytimeMs }, s, now + 1),
    ).toBe(true);
    expect(
      slotRequestCompletes({ status: 'offered', eta: 0, rtaWindowStart: rtaWindowStart - 1, laytimeMs }, s, now),
    ).toBe(true);
    expect(slotRequestCompletes({ status: 'updated', eta: 0, rtaWindowStart: null, laytimeMs }, s, now)).toBe(false);
    expect(
      slotRequestCompletes({ status: 'no_free_slot', eta: now - extra - 1, rtaWindowStart: null, laytimeMs }, s, now),
    ).toBe(true);
    expect(
      slotRequestCompletes({ status: 'requested', eta: now - extra, rtaWindowStart: null, laytimeMs }, s, now),
    ).toBe(false);
    expect(
      slotRequestCompletes({ status: 'no_nomination', eta: now - extra - 1, rtaWindowStart: null, laytimeMs }, s, now),
    ).toBe(true);
  });

  it('cancelled and completed ones stay as they are', () => {
    for (const status of ['cancelled_by_vessel', 'cancelled_by_port', 'completed'] as const) {
      expect(
        slotRequestCompletes({ status, eta: 0, rtaWindowStart: null, laytimeMs: 0 }, DEFAULT_QUEUE_SETTINGS, now),
      ).toBe(false);
    }
  });
});
