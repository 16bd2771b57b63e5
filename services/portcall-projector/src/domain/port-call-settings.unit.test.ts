// Settings, templates and time helpers of the port-call rules.

import { ApiError } from '@pcas/contracts';
import { parseIsoDuration } from '@pcas/values';
import { describe, expect, it } from 'vitest';
import {
  compileSettings,
  DEFAULT_PORT_CALL_SETTINGS,
  isMasterMode,
  parsePortCallSettings,
} from './port-call-settings.ts';
import { parsePortCallTemplate, portCallTemplate, slotKey, templatePairs } from './port-call-template.ts';
import { DAY_MS, dbText, isoMs, isoUtc, parseStrictIso, shiftMs } from './port-call-time.ts';

describe('settings from the environment', () => {
  it('defaults: clustering mode, no buffers, departed at berth departure, the Gävle template', () => {
    const s = parsePortCallSettings({});
    expect(s).toEqual(DEFAULT_PORT_CALL_SETTINGS);
    expect(isMasterMode(s)).toBe(false);
    expect(compileSettings(s).departedStates).toEqual(new Set(['Departure_Vessel_Berth']));
  });

  it('reads the original’s variables', () => {
    const s = parsePortCallSettings({
      PORT_CALL_MASTER_SOURCE: 'portnet, MSW',
      PORT_CALL_MASTER_START_BUFFER_DURATION: 'PT6H',
      PORT_CALL_MASTER_END_BUFFER_DURATION: 'PT12H',
      PORT_CALL_DEPARTED_STATES: 'Departure_Vessel_PortArea',
      VISIBLE_UNLOCODES: 'SEGVX,SEKAS',
      NAMESPACE: 'rauma',
    });
    expect(s).toEqual({
      masterSources: ['portnet', 'MSW'],
      masterStartBuffer: 'PT6H',
      masterEndBuffer: 'PT12H',
      departedStates: ['Departure_Vessel_PortArea'],
      visibleUnlocodes: ['SEGVX', 'SEKAS'],
      namespace: 'rauma',
    });
    expect(isMasterMode(s)).toBe(true);
    expect(compileSettings(s).startBuffer).toMatchObject({ hours: 6 });
  });

  it('an invalid buffer is no buffer, as in the original', () => {
    const c = compileSettings(parsePortCallSettings({ PORT_CALL_MASTER_START_BUFFER_DURATION: '6 hours' }));
    expect(shiftMs(1000, c.startBuffer, 1)).toBe(1000);
  });

  it('forgives blanks around a buffer', () => {
    const c = compileSettings({ ...DEFAULT_PORT_CALL_SETTINGS, masterStartBuffer: ' PT6H ', masterEndBuffer: ' ' });
    expect(c.startBuffer).toMatchObject({ hours: 6 });
    expect(c.endBuffer).toMatchObject({ hours: 0 });
  });
});

describe('templates', () => {
  it('parses lines or `;`-separated entries with their payload', () => {
    expect(
      parsePortCallTemplate('seaArriving:Estimated:Arrival_Vessel_PortArea;atBerth:Actual:X:direction=inbound,a=b\n'),
    ).toMatchObject([
      { group: 'seaArriving', time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', payload: {} },
      { group: 'atBerth', time_type: 'Actual', state: 'X', payload: { direction: 'inbound', a: 'b' } },
    ]);
    expect(() => parsePortCallTemplate('nowhere:Actual:X')).toThrow('Invalid port call template entry');
  });

  it('picks the namespace’s template (libs/s211), 400 when there is none', () => {
    expect(portCallTemplate('gavle')).toHaveLength(24);
    expect(portCallTemplate('RAUMA')).toHaveLength(18);
    expect(() => portCallTemplate('kemi')).toThrow(ApiError);
    expect(() => portCallTemplate('kemi')).toThrow('No port call template for namespace kemi');
  });

  it('slot keys carry the direction; priority pairs are the distinct (time type, state) pairs', () => {
    expect(slotKey('Actual', 'Pilotage_Commenced', { direction: 'inbound' })).toBe('Actual_Pilotage_Commenced_inbound');
    expect(slotKey('Actual', 'Pilotage_Commenced', {})).toBe('Actual_Pilotage_Commenced');
    const pairs = templatePairs(portCallTemplate('gavle'));
    expect(pairs).toHaveLength(19); // 23 slots; inbound and outbound pilotage share 4 pairs
    expect(pairs).toContainEqual({ time_type: 'LiveEstimated', state: 'Arrival_Vessel_PortArea' });
  });
});

describe('time', () => {
  it('formats as stored (UTC, +00:00) and as PostgreSQL text', () => {
    expect(isoUtc(Date.UTC(2020, 1, 23, 20, 15, 0, 999))).toBe('2020-02-23T20:15:00+00:00');
    expect(dbText('2020-02-23T20:15:00+00:00')).toBe('2020-02-23 20:15:00+00');
    expect(dbText(null)).toBe('');
  });

  it('writes what Date#toISOString writes, whatever the time', () => {
    const edges = [0, 1, 999, DAY_MS - 1, Date.UTC(2000, 1, 29), Date.UTC(2100, 1, 28, 23, 59, 59, 999)];
    edges.push(Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -1, -DAY_MS * 400, 1.5);
    for (let i = 0; i < 5_000; i++) edges.push(Math.floor(((i * 7919) % 5_000) * 50_688_000_000 + i * 86_399_999));
    for (const ms of edges) {
      expect(isoMs(ms)).toBe(new Date(ms).toISOString());
      expect(isoUtc(ms)).toBe(`${new Date(ms).toISOString().slice(0, 19)}+00:00`);
    }
    expect(() => isoMs(Number.NaN)).toThrow(RangeError);
    expect(() => isoUtc(Number.NaN)).toThrow(RangeError);
  });

  it('accepts only strict ISO times with an offset, real calendar dates', () => {
    expect(parseStrictIso('2019-12-12T12:13:14+00:00')).toBe(Date.UTC(2019, 11, 12, 12, 13, 14));
    expect(parseStrictIso('2019-12-12T14:13:14+02:00')).toBe(Date.UTC(2019, 11, 12, 12, 13, 14));
    for (const bad of ['2019-12-12T12:13:14Z', '2019-12-12T12:13:14.5+00:00', '2019-02-30T00:00:00+00:00', 12, null]) {
      expect(parseStrictIso(bad)).toBeUndefined();
    }
    // Unlike the queue's (@pcas/values' parseAtom, which reads them as 19xx), the years 0000-0099 are refused.
    for (const early of ['0050-01-01T00:00:00+00:00', '0000-02-29T00:00:00+00:00', '0099-12-31T23:59:59+00:00']) {
      expect(parseStrictIso(early), early).toBeUndefined();
    }
  });

  it('adds ISO durations the calendar way', () => {
    const jan31 = Date.UTC(2020, 0, 31);
    expect(shiftMs(jan31, parseIsoDuration('P1M')!, 1)).toBe(Date.UTC(2020, 2, 2));
    expect(shiftMs(jan31, parseIsoDuration('PT12H')!, -1)).toBe(Date.UTC(2020, 0, 30, 12));
  });
});
