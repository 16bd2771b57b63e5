// The timeline object (docs/domain.md#the-timeline): the original's eight factory scenarios, re-expressed
// as our own data from their descriptions, then the weight filter and the synthetic slots.

import { describe, expect, it } from 'vitest';
import { newPortCall } from './port-call-scan.ts';
import { portCallTemplate } from './port-call-template.ts';
import { at, context, project, VesselStream } from './port-call-test-kit.ts';
import type { PortCall } from './port-call-types.ts';
import type { Priorities } from './priorities.ts';
import { buildTimeline, portCallTimeline, type TimelineInput, type TimelineSlot, timelineSlots } from './timeline.ts';
import { timestampsOfPortCall } from './vessel-port-calls.ts';

const gavle = portCallTemplate('gavle');
const testKey = () => 'Test api key';

const ts = (time_type: string, state: string, time: string, extra: Partial<TimelineInput> = {}): TimelineInput => ({
  time_type,
  state,
  time,
  created_at: at(-24),
  created_by: 3,
  ...extra,
});
const slot = (timeline: ReturnType<typeof buildTimeline>, group: number, index: number) =>
  timeline.events[group].timestamps[index];
const filled = (t: TimelineInput): TimelineSlot => {
  const { payload, ...rest } = t;
  return { ...rest, ...(payload && Object.keys(payload).length ? { payload } : {}), source: 'Test api key' };
};

const PLACEHOLDERS = {
  sea: [
    { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea' },
    { time_type: 'LiveEstimated', state: 'Arrival_Vessel_PortArea' },
    { time_type: 'Recommended', state: 'Arrival_Vessel_PortArea' },
    { time_type: 'Planned', state: 'Arrival_Vessel_PortArea' },
    { time_type: 'Actual', state: 'Arrival_Vessel_TrafficArea' },
    { time_type: 'Actual', state: 'Arrival_Vessel_AnchorageArea' },
    { time_type: 'Estimated', state: 'Pilotage_Commenced', payload: { direction: 'inbound' } },
    { time_type: 'Planned', state: 'Pilotage_Commenced', payload: { direction: 'inbound' } },
    { time_type: 'Actual', state: 'Pilotage_Commenced', payload: { direction: 'inbound' } },
    { time_type: 'Actual', state: 'Arrival_Vessel_PortArea' },
  ],
  port: [
    { time_type: 'Actual', state: 'Arrival_Vessel_Berth' },
    { time_type: 'Actual', state: 'Pilotage_Completed', payload: { direction: 'inbound' } },
    { time_type: 'Actual', state: 'CargoOp_Commenced' },
    { time_type: 'Estimated', state: 'CargoOp_Completed' },
    { time_type: 'Actual', state: 'CargoOp_Completed' },
    { time_type: 'Estimated', state: 'Departure_Vessel_Berth' },
    { time_type: 'Planned', state: 'Departure_Vessel_Berth' },
  ],
  departing: [
    { time_type: 'Estimated', state: 'Pilotage_Commenced', payload: { direction: 'outbound' } },
    { time_type: 'Planned', state: 'Pilotage_Commenced', payload: { direction: 'outbound' } },
    { time_type: 'Actual', state: 'Pilotage_Commenced', payload: { direction: 'outbound' } },
    { time_type: 'Actual', state: 'Departure_Vessel_Berth' },
    { time_type: 'Actual', state: 'Pilotage_Completed', payload: { direction: 'outbound' } },
    { time_type: 'Actual', state: 'Departure_Vessel_PortArea' },
  ],
};

describe('the factory: the original scenarios on the Gävle template', () => {
  it('1. no timestamps: all 23 slots are placeholders, in three groups', () => {
    expect(buildTimeline(gavle, [], testKey)).toEqual({
      id: 1,
      events: [
        { id: 1, location: 'sea', timestamps: PLACEHOLDERS.sea },
        { id: 2, location: 'port', timestamps: PLACEHOLDERS.port },
        { id: 3, location: 'sea', timestamps: PLACEHOLDERS.departing },
      ],
    });
  });

  it('2. one estimate fills the first sea slot', () => {
    const eta = ts('Estimated', 'Arrival_Vessel_PortArea', at(10));
    const timeline = buildTimeline(gavle, [eta], testKey);
    expect(slot(timeline, 0, 0)).toEqual(filled(eta));
    expect(timelineSlots(timeline).slice(1)).toEqual([
      ...PLACEHOLDERS.sea.slice(1),
      ...PLACEHOLDERS.port,
      ...PLACEHOLDERS.departing,
    ]);
  });

  it('3. of two estimates the later in input order wins', () => {
    const first = ts('Estimated', 'Arrival_Vessel_PortArea', at(12), { created_at: at(-1) });
    const second = ts('Estimated', 'Arrival_Vessel_PortArea', at(10), { created_at: at(-30) });
    expect(slot(buildTimeline(gavle, [first, second], testKey), 0, 0)).toEqual(filled(second));
  });

  it('4. two estimates and an arrival at berth: the second ETA and the ATA', () => {
    const etas = [
      ts('Estimated', 'Arrival_Vessel_PortArea', at(10)),
      ts('Estimated', 'Arrival_Vessel_PortArea', at(11)),
    ];
    const ata = ts('Actual', 'Arrival_Vessel_Berth', at(11.5));
    const timeline = buildTimeline(gavle, [...etas, ata], testKey);
    expect(slot(timeline, 0, 0)).toEqual(filled(etas[1]));
    expect(slot(timeline, 1, 0)).toEqual(filled(ata));
    expect(timeline.events[1].timestamps.slice(1)).toEqual(PLACEHOLDERS.port.slice(1));
  });

  it('5. pilotage: misspelt and template-less pilotage timestamps are dropped, inbound ones fill their slots', () => {
    const inbound = { payload: { direction: 'inbound' } };
    const input = [
      ts('Estimated', 'Arrival_Vessel_PortArea', at(10)),
      ts('Estimated', 'Arrival_Vessel_PortArea', at(11)),
      ts('Estimate', 'Pilotage_Commenced', at(9), inbound),
      ts('Estimated', 'Pilotage_Confirmed', at(9), inbound),
      ts('Actual', 'Pilotage_Commenced', at(9.5), inbound),
      ts('Actual', 'Pilotage_Completed', at(11), inbound),
    ];
    const timeline = buildTimeline(gavle, input, testKey);
    expect(slot(timeline, 0, 8)).toEqual(filled(input[4]));
    expect(slot(timeline, 1, 1)).toEqual(filled(input[5]));
    expect(slot(timeline, 0, 6)).toEqual(PLACEHOLDERS.sea[6]);
    const shown = timelineSlots(timeline).filter((s) => 'source' in s);
    expect(shown.map((s) => `${s.time_type} ${s.state}`)).toEqual([
      'Estimated Arrival_Vessel_PortArea',
      'Actual Pilotage_Commenced',
      'Actual Pilotage_Completed',
    ]);
  });

  it('6. cargo operations: the port group shows ATA, cargo commenced and completed, ETD', () => {
    const input = [
      ts('Estimated', 'Arrival_Vessel_PortArea', at(10)),
      ts('Estimated', 'Arrival_Vessel_PortArea', at(11)),
      ts('Actual', 'Arrival_Vessel_Berth', at(11)),
      ts('Actual', 'CargoOp_Commenced', at(12)),
      ts('Estimated', 'Departure_Vessel_Berth', at(30)),
      ts('Actual', 'CargoOp_Completed', at(28)),
    ];
    const timeline = buildTimeline(gavle, input, testKey);
    expect(timeline.events[1].timestamps).toEqual([
      filled(input[2]),
      PLACEHOLDERS.port[1],
      filled(input[3]),
      PLACEHOLDERS.port[3],
      filled(input[5]),
      filled(input[4]),
      PLACEHOLDERS.port[6],
    ]);
  });

  it('7. a complex port call: per slot the last in input order wins, whatever its time or creation time', () => {
    const inbound = { payload: { direction: 'inbound' } };
    const outbound = { payload: { direction: 'outbound' } };
    const input = [
      ts('Estimated', 'Arrival_Vessel_PortArea', at(10)),
      ts('Estimated', 'Departure_Vessel_Berth', at(40), { created_at: at(1) }),
      ts('Estimated', 'Arrival_Vessel_PortArea', at(9)),
      ts('Actual', 'Pilotage_Commenced', at(8), inbound),
      ts('Actual', 'Arrival_Vessel_Berth', at(10)),
      ts('Estimated', 'Departure_Vessel_Berth', at(36), { created_at: at(5) }),
      ts('Actual', 'Pilotage_Completed', at(10), inbound),
      ts('Estimated', 'Departure_Vessel_Berth', at(38), { created_at: at(2) }),
      ts('Actual', 'Departure_Vessel_Berth', at(37), { created_by: 2 }),
      ts('Estimated', 'Pilotage_Commenced', at(36), outbound),
      ts('Actual', 'Pilotage_Commenced', at(36.5), outbound),
      ts('Actual', 'Departure_Vessel_Berth', at(36.9), { created_by: 4 }),
      ts('Actual', 'Pilotage_Completed', at(38), outbound),
      ts('Actual', 'Departure_Vessel_PortArea', at(39)),
    ];
    const timeline = buildTimeline(gavle, input, testKey);
    expect(slot(timeline, 0, 0)).toEqual(filled(input[2]));
    expect(slot(timeline, 1, 5)).toEqual(filled(input[7])); // the last ETD, not the latest-created one
    expect(timeline.events[2].timestamps).toEqual([
      filled(input[9]),
      PLACEHOLDERS.departing[1],
      filled(input[10]),
      filled(input[11]), // the second ATD (creator 4), shown with the sea departing
      filled(input[12]),
      filled(input[13]),
    ]);
  });

  it('8. raw rows with JSON-text payloads: payloads are decoded and every other field is kept', () => {
    const row = (id: number, time_type: string, state: string, time: string, payload: string) => ({
      id,
      imo: 9201827,
      vessel_name: 'LADY EXAMPLE',
      time_type_id: 99,
      state_id: 99,
      time,
      payload,
      port_call_id: 7,
      is_trash: 'f',
      weight: 1,
      created_at: '2020-02-20 10:00:00+00',
      created_by: 5,
      modified_at: '2020-02-20 10:00:00+00',
      modified_by: 5,
      time_type,
      state,
    });
    const input = [
      row(1, 'Estimated', 'Arrival_Vessel_PortArea', '2020-02-23 20:15:00+00', '{"source":"msw","external_id":"X1"}'),
      row(2, 'Estimated', 'Arrival_Vessel_PortArea', '2020-02-23 21:00:00+00', '{"source":"msw","berth_name":"B"}'),
      row(3, 'Actual', 'Pilotage_Commenced', '2020-02-23 19:00:00+00', '{"direction":"inbound","source":"pilot"}'),
      row(4, 'Actual', 'Arrival_Vessel_Berth', '2020-02-23 21:40:00+00', '{}'),
      row(5, 'Estimated', 'Departure_Vessel_Berth', '2020-02-25 08:00:00+00', '[]'),
      row(6, 'Estimated', 'Departure_Vessel_Berth', '2020-02-25 06:00:00+00', 'not json'),
    ];
    const timeline = buildTimeline(gavle, input, testKey);
    expect(slot(timeline, 0, 0)).toEqual({
      ...input[1],
      payload: { source: 'msw', berth_name: 'B' },
      source: 'Test api key',
    });
    expect(slot(timeline, 0, 8)).toEqual({
      ...input[2],
      payload: { direction: 'inbound', source: 'pilot' },
      source: 'Test api key',
    });
    const { payload: _empty, ...ata } = input[3];
    expect(slot(timeline, 1, 0)).toEqual({ ...ata, source: 'Test api key' });
    const { payload: _broken, ...etd } = input[5];
    expect(slot(timeline, 1, 5)).toEqual({ ...etd, source: 'Test api key' });
  });

  it('a duplicated template line gives one slot; the Rauma template has 18', () => {
    const rauma = portCallTemplate('rauma');
    expect(gavle).toHaveLength(24);
    expect(timelineSlots(buildTimeline(gavle, [], testKey))).toHaveLength(23);
    expect(timelineSlots(buildTimeline(rauma, [], testKey))).toHaveLength(18);
  });
});

describe('the template’s slots', () => {
  const line = (group: string, time_type: string, state: string, payload: Record<string, string> = {}) => ({
    group,
    time_type,
    state,
    payload,
  });

  it('a repeated key keeps its first place and takes the later line’s group and payload; other groups are left out', () => {
    const template = [
      line('seaArriving', 'Estimated', 'Arrival_Vessel_PortArea'),
      line('seaArriving', 'Actual', 'Pilotage_Commenced', { direction: 'inbound' }),
      line('elsewhere', 'Actual', 'Arrival_Vessel_TrafficArea'),
      line('atBerth', 'Actual', 'Arrival_Vessel_Berth'),
      line('atBerth', 'Actual', 'Pilotage_Commenced', { direction: 'inbound', note: 'later' }),
      line('seaDeparting', 'Estimated', 'Arrival_Vessel_PortArea'),
    ];
    const eta = ts('Estimated', 'Arrival_Vessel_PortArea', at(1), { payload: '{"x":1}', group: 'dropped' });
    for (let i = 0; i < 2; i++) {
      const timeline = buildTimeline(template, [eta], testKey);
      // Compared as JSON: the order of slots and of their fields is what the read model stores.
      expect(JSON.stringify(timeline)).toBe(
        JSON.stringify({
          id: 1,
          events: [
            { id: 1, location: 'sea', timestamps: [] },
            {
              id: 2,
              location: 'port',
              timestamps: [
                { time_type: 'Actual', state: 'Pilotage_Commenced', payload: { direction: 'inbound', note: 'later' } },
                { time_type: 'Actual', state: 'Arrival_Vessel_Berth' },
              ],
            },
            {
              id: 3,
              location: 'sea',
              timestamps: [
                {
                  time_type: 'Estimated',
                  state: 'Arrival_Vessel_PortArea',
                  time: at(1),
                  created_at: at(-24),
                  created_by: 3,
                  payload: { x: 1 },
                  source: 'Test api key',
                },
              ],
            },
          ],
        }),
      );
      // Placeholders are the timeline's own: changing one changes neither the template nor the next timeline.
      (timeline.events[1].timestamps[0].payload as Record<string, string>).note = 'changed';
      expect(template[4].payload.note).toBe('later');
    }
  });
});

describe('a port call’s timeline', () => {
  const weights: Priorities = {
    timestamp_weights: [
      { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: 1, weight: 1 },
      { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: 2, weight: 2 },
      { time_type: 'Actual', state: 'Pilotage_Commenced', api_key_id: 1, weight: 1 },
    ],
    payload_key_weights: [],
  };
  const sourceOf = (id: number | null | undefined) =>
    id === 101 ? 'Agent one' : id === 102 ? 'Agent two' : 'A Person';

  const build = (posts: (s: VesselStream) => void) => {
    const s = new VesselStream();
    s.now(at(0));
    posts(s);
    const state = project(s, context({}, weights));
    const pc = state.port_calls[0];
    return { pc, timestamps: timestampsOfPortCall(state, pc.id) };
  };
  const timelineOf = (pc: PortCall, timestamps: Parameters<typeof portCallTimeline>[1]) =>
    portCallTimeline(pc, timestamps, { template: gavle, priorities: weights, sourceOf });

  it('keeps a timestamp only if it weighs at least as much as the heaviest before it (ties: the newer)', () => {
    const { pc, timestamps } = build((s) => {
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 2 });
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(11), { key: 1 }); // lighter: dropped though newer
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(12), { key: 2 });
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(13), { key: 1 });
    });
    expect(timelineOf(pc, timestamps).events[0].timestamps[0]).toEqual({
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: at(12),
      created_at: expect.any(String),
      created_by: 102,
      weight: 2,
      source: 'Agent two',
    });
  });

  it('weighs inbound and outbound pilotage together (the key is time type and state only)', () => {
    const { pc, timestamps } = build((s) => {
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 2 });
      s.post('Actual', 'Pilotage_Commenced', at(9), { payload: { direction: 'inbound' } }); // a person: 999
      s.post('Actual', 'Pilotage_Commenced', at(30), { key: 1, payload: { direction: 'outbound' } });
    });
    const timeline = timelineOf(pc, timestamps);
    expect(timeline.events[0].timestamps[8]).toMatchObject({ time: at(9), weight: 999, source: 'A Person' });
    expect(timeline.events[2].timestamps[2]).toEqual(PLACEHOLDERS.departing[2]);
  });

  it('shows the ATD only once the port call has departed', () => {
    const { pc, timestamps } = build((s) => {
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 2 });
      s.post('Actual', 'Departure_Vessel_Berth', at(30));
    });
    expect(pc.status).toBe('departed');
    expect(timelineOf(pc, timestamps).events[2].timestamps[3]).toMatchObject({ time: at(30) });
    const arriving = timelineOf({ ...pc, status: 'at berth' }, timestamps);
    expect(arriving.events[2].timestamps[3]).toEqual(PLACEHOLDERS.departing[3]);
    for (const status of ['departed berth', 'done'] as const) {
      expect(timelineOf({ ...pc, status }, timestamps).events[2].timestamps[3]).toMatchObject({ time: at(30) });
    }
  });

  it('adds the live ETA and the RTA as timestamps of weight 1 with their setters', () => {
    const pc: PortCall = {
      ...newPortCall(5, 9074729, 1, at(10), null),
      live_eta: at(10.5),
      live_eta_details: { updated_by: 101, updated_at: at(2) },
      rta: at(10.25),
      rta_details: { updated_by: 7, updated_at: at(3), eta_min: at(10), eta_max: at(10.5) },
    };
    const timeline = timelineOf(pc, []);
    expect(timeline.events[0].timestamps[1]).toEqual({
      time_type: 'LiveEstimated',
      state: 'Arrival_Vessel_PortArea',
      time: at(10.5),
      created_at: at(2),
      created_by: 101,
      weight: 1,
      source: 'Agent one',
    });
    expect(timeline.events[0].timestamps[2]).toMatchObject({ time_type: 'Recommended', time: at(10.25), weight: 1 });
    // No setter recorded: no live ETA slot.
    const anonymous = timelineOf({ ...pc, live_eta_details: { eta: 1 } }, []);
    expect(anonymous.events[0].timestamps[1]).toEqual(PLACEHOLDERS.sea[1]);
  });

  it('leaves out timestamps the template has no slot for', () => {
    const { pc, timestamps } = build((s) => {
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 2 });
      s.post('Actual', 'Arrival_Vessel_LOC', at(9));
    });
    expect(timelineSlots(timelineOf(pc, timestamps)).filter((x) => 'source' in x)).toHaveLength(1);
  });
});
