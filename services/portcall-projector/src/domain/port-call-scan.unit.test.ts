// The scan (docs/domain.md#the-scan) and the clock rules, timestamps in → port call out.

import { describe, expect, it } from 'vitest';
import { newPortCall, type ScanContext, scanPortCall } from './port-call-scan.ts';
import { compileSettings, DEFAULT_PORT_CALL_SETTINGS, type PortCallSettings } from './port-call-settings.ts';
import { at, context, IMO, project, projectMore, VesselStream } from './port-call-test-kit.ts';
import { isoUtc } from './port-call-time.ts';
import type { PortCall, VesselTimestamp } from './port-call-types.ts';
import { NO_PRIORITIES, type Priorities } from './priorities.ts';
import { dueTimers, nextTimerAt, portCallOf, tick } from './vessel-port-calls.ts';

let nextId = 1;
const t = (
  time_type: string,
  state: string,
  time: string,
  over: Partial<VesselTimestamp> & { key?: number | null } = {},
): VesselTimestamp => {
  const { key = 1, ...rest } = over;
  return {
    id: nextId++,
    imo: IMO,
    vessel_name: 'Ship One',
    time_type,
    state,
    time,
    time_ms: Date.parse(time),
    payload: {},
    source: key === null ? 'manual' : 'api_key',
    api_key_id: key,
    created_by: key === null ? 1 : 100 + key,
    created_at: at(0),
    port_call_id: 1,
    is_trash: false,
    hold: null,
    ...rest,
  };
};

const ctx = (
  settings: Partial<PortCallSettings> = {},
  priorities: Priorities = NO_PRIORITIES,
  now = Date.parse(at(0)),
): ScanContext => ({ settings: compileSettings({ ...DEFAULT_PORT_CALL_SETTINGS, ...settings }), priorities, now });

const fresh = (masterId: string | null = 'M1'): PortCall => newPortCall(1, IMO, 1, at(-100), masterId);
const scan = (timestamps: VesselTimestamp[], c: ScanContext = ctx(), pc: PortCall = fresh(), force = false) =>
  scanPortCall(pc, timestamps, c, { force, suppressExternal: true })!;

const weights = (rows: [string, string, number, number][]): Priorities => ({
  timestamp_weights: rows.map(([time_type, state, api_key_id, weight]) => ({ time_type, state, api_key_id, weight })),
  payload_key_weights: [],
});

describe('derived times', () => {
  it('reads ETA, ATA, ETD, ATD and PTD; the first ETA of the scan is first_eta, the last current_eta', () => {
    const pc = scan([
      t('Estimated', 'Arrival_Vessel_PortArea', at(10)),
      t('Estimated', 'Arrival_Vessel_PortArea', at(11)),
      t('Actual', 'Arrival_Vessel_Berth', at(12)),
      t('Estimated', 'Departure_Vessel_Berth', at(30)),
      t('Estimated', 'Departure_Vessel_Berth', at(31)),
      t('Planned', 'Departure_Vessel_Berth', at(32)),
    ]);
    expect(pc).toMatchObject({
      first_eta: at(10),
      current_eta: at(11),
      ata: at(12),
      first_etd: at(30),
      current_etd: at(31),
      current_ptd: at(32),
      atd: null,
      vessel_name: 'Ship One',
    });
  });

  it('keeps first_etd over plain scans, a forced scan reads it again', () => {
    const first = scan([t('Estimated', 'Departure_Vessel_Berth', at(30))]);
    const timestamps = [t('Estimated', 'Departure_Vessel_Berth', at(40))];
    expect(scan(timestamps, ctx(), first)).toMatchObject({ first_etd: at(30), current_etd: at(40) });
    expect(scan(timestamps, ctx(), first, true)).toMatchObject({ first_etd: at(40), current_etd: at(40) });
  });

  it('ignores a lighter timestamp after a heavier one of the same pair; ties go to the newer', () => {
    const p = weights([
      ['Estimated', 'Arrival_Vessel_PortArea', 1, 1],
      ['Estimated', 'Arrival_Vessel_PortArea', 2, 2],
    ]);
    const pc = scan(
      [
        t('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 }), // counts: nothing heavier seen yet
        t('Estimated', 'Arrival_Vessel_PortArea', at(11), { key: 2 }),
        t('Estimated', 'Arrival_Vessel_PortArea', at(12), { key: 1 }), // lighter: ignored
        t('Estimated', 'Arrival_Vessel_PortArea', at(13), { key: 2 }), // tie: counts
      ],
      ctx({}, p),
    );
    expect(pc).toMatchObject({ first_eta: at(10), current_eta: at(13) });
    const manual = scan(
      [
        t('Estimated', 'Arrival_Vessel_PortArea', at(11), { key: 2 }),
        t('Estimated', 'Arrival_Vessel_PortArea', at(14), { key: null }), // a person: 999
        t('Estimated', 'Arrival_Vessel_PortArea', at(15), { key: 2 }),
      ],
      ctx({}, p),
    );
    expect(manual.current_eta).toBe(at(14));
  });

  it('a key that lost its priority weighs 0', () => {
    const p = weights([['Actual', 'Arrival_Vessel_Berth', 2, 2]]);
    const pc = scan(
      [
        t('Actual', 'Arrival_Vessel_Berth', at(12), { key: 2 }),
        t('Actual', 'Arrival_Vessel_Berth', at(13), { key: 3 }),
      ],
      ctx({}, p),
    );
    expect(pc.ata).toBe(at(12));
  });
});

describe('status and next event', () => {
  const eta = () => t('Estimated', 'Arrival_Vessel_PortArea', at(10));
  const etd = () => t('Estimated', 'Departure_Vessel_Berth', at(30));

  it('arriving: next event ETA', () => {
    expect(scan([eta(), etd()])).toMatchObject({ status: 'arriving', next_event_title: 'ETA', next_event_ts: at(10) });
  });

  it('at berth on ATA, inbound pilotage completed or cargo commenced: next event ETD', () => {
    for (const at_ of [
      t('Actual', 'Arrival_Vessel_Berth', at(12)),
      t('Actual', 'Pilotage_Completed', at(12), { payload: { direction: 'inbound' } }),
      t('Actual', 'CargoOp_Commenced', at(12)),
    ]) {
      expect(scan([eta(), etd(), at_])).toMatchObject({
        status: 'at berth',
        next_event_title: 'ETD',
        next_event_ts: at(30),
      });
    }
    // Pilotage without a direction says nothing about the berth.
    expect(scan([eta(), t('Actual', 'Pilotage_Completed', at(12))]).status).toBe('arriving');
  });

  it('departing on cargo completed or outbound pilotage commenced, and it stays so (flags are never reset)', () => {
    expect(scan([eta(), etd(), t('Actual', 'CargoOp_Completed', at(20))]).status).toBe('departing');
    const pilot = t('Actual', 'Pilotage_Commenced', at(28), { payload: { direction: 'outbound' } });
    expect(scan([eta(), etd(), pilot])).toMatchObject({ status: 'departing', next_event_title: 'ETD' });
    const later = scan([eta(), t('Actual', 'CargoOp_Completed', at(20)), t('Actual', 'Arrival_Vessel_Berth', at(21))]);
    expect(later.status).toBe('departing');
  });

  it('departed on an Actual departure from berth (default departed states): next event ATD', () => {
    const pc = scan([
      eta(),
      etd(),
      t('Actual', 'Arrival_Vessel_Berth', at(12)),
      t('Actual', 'Departure_Vessel_Berth', at(29)),
    ]);
    expect(pc).toMatchObject({ status: 'departed', atd: at(29), next_event_title: 'ATD', next_event_ts: at(29) });
  });

  it('departed berth when the departed states are others; a later at-berth event clears it', () => {
    const c = ctx({ departedStates: ['Departure_Vessel_PortArea'] });
    const atd = () => t('Actual', 'Departure_Vessel_Berth', at(29));
    expect(scan([eta(), atd()], c)).toMatchObject({ status: 'departed berth', next_event_title: 'ATD', atd: at(29) });
    expect(scan([eta(), atd(), t('Actual', 'CargoOp_Commenced', at(29))], c).status).toBe('at berth');
    const out = scan([eta(), atd(), t('Actual', 'Departure_Vessel_PortArea', at(31))], c);
    expect(out).toMatchObject({ status: 'departed', atd: at(29) });
  });

  it('a departure without ATD takes the first departed-state time as ATD', () => {
    const c = ctx({ departedStates: ['Departure_Vessel_PortArea', 'Departure_Vessel_TrafficArea'] });
    const pc = scan(
      [eta(), t('Actual', 'Departure_Vessel_PortArea', at(31)), t('Actual', 'Departure_Vessel_TrafficArea', at(33))],
      c,
    );
    expect(pc).toMatchObject({ status: 'departed', atd: at(31), next_event_ts: at(31) });
  });

  it('only heavier timestamps move the status', () => {
    const p = weights([
      ['Actual', 'Arrival_Vessel_Berth', 2, 2],
      ['Actual', 'Arrival_Vessel_Berth', 1, 1],
    ]);
    const pc = scan([eta(), t('Actual', 'Arrival_Vessel_Berth', at(12), { key: 2 })], ctx({}, p));
    expect(pc.status).toBe('at berth');
    const lighter = scan(
      [
        t('Actual', 'Arrival_Vessel_Berth', at(12), { key: 2 }),
        t('Actual', 'Arrival_Vessel_Berth', at(13), { key: 1 }),
      ],
      ctx({}, p),
    );
    expect(lighter.ata).toBe(at(12));
  });
});

describe('payload fields under payload-key priorities', () => {
  it('copies every mapped key, in the column’s type', () => {
    const payload = {
      from_port: 'FIRAU',
      to_port: 'SEGVX',
      next_port: 'DEHAM',
      mmsi: '230000001',
      call_sign: 'OJAB',
      vessel_loa: '120.5',
      vessel_beam: 20,
      vessel_draft: '7.1',
      net_weight: 1000,
      gross_weight: '2000',
      nationality: 'FI',
      berth: '12',
      email: 'master@ship.example',
      berth_name: 'Fredriksskans',
      slot_reservation_id: 7,
      slot_reservation_status: 'accepted',
      rta_window_start: '2024-05-01T10:00:00Z',
      rta_window_end: '2024-05-01T10:30:00+00:00',
      laytime: 'PT10H',
      source: 'vis',
      unknown_key: 'ignored',
    };
    const pc = scan([t('Estimated', 'Arrival_Vessel_PortArea', at(10), { payload })]);
    expect(pc).toMatchObject({
      from_port: 'FIRAU',
      to_port: 'SEGVX',
      next_port: 'DEHAM',
      mmsi: 230000001,
      call_sign: 'OJAB',
      loa: 120.5,
      beam: 20,
      draft: 7.1,
      net_weight: 1000,
      gross_weight: 2000,
      nationality: 'FI',
      berth: '12',
      eta_form_email: 'master@ship.example',
      berth_name: 'Fredriksskans',
      slot_reservation_id: 7,
      slot_reservation_status: 'accepted',
      rta_window_start: '2024-05-01T10:00:00+00:00',
      rta_window_end: '2024-05-01T10:30:00+00:00',
      laytime: 'PT10H',
      is_vis: true,
    });
    expect(pc).not.toHaveProperty('unknown_key');
  });

  it('skips a value its column cannot hold', () => {
    const pc = scan([t('Estimated', 'Arrival_Vessel_PortArea', at(10), { payload: { mmsi: 'abc', vessel_loa: {} } })]);
    expect(pc).toMatchObject({ mmsi: null, loa: null });
  });

  it('reads payload times the same on every scan, valid or not', () => {
    for (let i = 0; i < 3; i++) {
      const payload = { rta_window_start: '2024-05-01T12:00:00.900+02:00', rta_window_end: 'soon' };
      const pc = scan([t('Estimated', 'Arrival_Vessel_PortArea', at(10), { payload })]);
      expect(pc).toMatchObject({ rta_window_start: '2024-05-01T10:00:00+00:00', rta_window_end: null });
    }
  });

  it('a timestamp that is not heavier for its pair only fills empty fields', () => {
    const p = weights([
      ['Estimated', 'Arrival_Vessel_PortArea', 2, 2],
      ['Estimated', 'Arrival_Vessel_PortArea', 1, 1],
    ]);
    const pc = scan(
      [
        t('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 2, payload: { berth_name: 'A' } }),
        t('Estimated', 'Arrival_Vessel_PortArea', at(11), { key: 1, payload: { berth_name: 'B', call_sign: 'X' } }),
      ],
      ctx({}, p),
    );
    expect(pc).toMatchObject({ berth_name: 'A', call_sign: 'X' });
  });

  it('remembers the weight of the source that set a key; a lighter source cannot overwrite it', () => {
    const p: Priorities = {
      timestamp_weights: [],
      payload_key_weights: [
        { payload_key: 'berth_name', api_key_id: 2, weight: 2 },
        { payload_key: 'berth_name', api_key_id: 1, weight: 1 },
      ],
    };
    const pc = scan(
      [
        t('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 2, payload: { berth_name: 'A' } }),
        t('Estimated', 'Departure_Vessel_Berth', at(30), { key: 1, payload: { berth_name: 'B' } }),
        t('Estimated', 'Departure_Vessel_Berth', at(31), { key: 3, payload: { berth_name: 'C' } }),
      ],
      ctx({}, p),
    );
    expect(pc.berth_name).toBe('A');
    expect(pc.payload_key_weights).toEqual({ berth_name: 2 });
    // People outrank every source (999).
    const manual = scan(
      [t('Estimated', 'Departure_Vessel_Berth', at(32), { key: null, payload: { berth_name: 'D' } })],
      ctx({}, p),
      pc,
    );
    expect(manual).toMatchObject({ berth_name: 'D', payload_key_weights: { berth_name: 999 } });
  });

  it('applies payload keys in the mapping’s order whatever the payload’s, and reads inherited ones too', () => {
    const p: Priorities = {
      timestamp_weights: [],
      payload_key_weights: ['laytime', 'berth_name', 'from_port'].map((payload_key) => ({
        payload_key,
        api_key_id: 1,
        weight: 3,
      })),
    };
    const payload = Object.assign(Object.create({ from_port: 'FIRAU' }), { laytime: 'PT2H', note: 1, berth_name: 'A' });
    const pc = scan([t('Estimated', 'Arrival_Vessel_PortArea', at(10), { payload })], ctx({}, p));
    expect(pc).toMatchObject({ from_port: 'FIRAU', berth_name: 'A', laytime: 'PT2H' });
    expect(JSON.stringify(pc.payload_key_weights)).toBe('{"from_port":3,"berth_name":3,"laytime":3}');
  });

  it('weight 0 is never remembered, and remembered weights survive a forced scan', () => {
    const pc = scan([t('Estimated', 'Arrival_Vessel_PortArea', at(10), { payload: { berth_name: 'A' } })]);
    expect(pc.payload_key_weights).toEqual({});
    const remembered = { ...pc, payload_key_weights: { berth_name: 5 } };
    const again = scan(
      [t('Estimated', 'Arrival_Vessel_PortArea', at(10), { payload: { berth_name: 'B' } })],
      ctx(),
      remembered,
      true,
    );
    expect(again).toMatchObject({ berth_name: null, payload_key_weights: { berth_name: 5 } });
  });
});

describe('scan bookkeeping', () => {
  it('a forced scan clears derived fields and keeps identity, ETAs, live ETA, slot and master fields', () => {
    const before: PortCall = {
      ...fresh('M1'),
      first_eta: at(1),
      current_eta: at(2),
      ata: at(3),
      atd: at(4),
      berth_name: 'X',
      is_vis: true,
      live_eta: at(5),
      live_eta_details: { updated_by: 3 },
      slot_reservation_id: 9,
      master_start: at(0),
      master_end: at(9),
      master_manual: true,
      status: 'departed',
    };
    const pc = scan([t('Planned', 'Arrival_Vessel_PortArea', at(10))], ctx(), before, true);
    expect(pc).toMatchObject({
      status: 'arriving',
      first_eta: at(1),
      current_eta: at(2),
      ata: null,
      atd: null,
      berth_name: null,
      is_vis: false,
      live_eta: at(5),
      slot_reservation_id: 9,
      master_id: 'M1',
      master_start: at(0),
      master_end: at(9),
      master_manual: true,
    });
  });

  it('without timestamps the port call is deleted', () => {
    expect(scanPortCall(fresh(), [], ctx(), { force: true, suppressExternal: true })).toBeNull();
  });

  it('a port call without a master ID takes its ETA and ETD as its range', () => {
    const pc = scan(
      [t('Estimated', 'Arrival_Vessel_PortArea', at(10)), t('Estimated', 'Departure_Vessel_Berth', at(30))],
      ctx(),
      fresh(null),
    );
    expect(pc).toMatchObject({ master_start: at(10), master_end: at(30) });
  });

  it('notes when a voyage plan was asked for: the first ETA of a data source’s post', () => {
    const c = ctx({}, NO_PRIORITIES, Date.parse(at(5)));
    const eta = [t('Estimated', 'Arrival_Vessel_PortArea', at(10))];
    expect(scanPortCall(fresh(), eta, c, { force: false, suppressExternal: false })?.voyage_plan_request).toBe(at(5));
    expect(scanPortCall(fresh(), eta, c, { force: false, suppressExternal: true })?.voyage_plan_request).toBeNull();
  });

  it('departs a port call whose last known time is more than 30 days old, and closes it', () => {
    const timestamps = [t('Estimated', 'Arrival_Vessel_PortArea', at(10)), t('Actual', 'Arrival_Vessel_Berth', at(12))];
    expect(scan(timestamps, ctx({}, NO_PRIORITIES, Date.parse(at(12 + 30 * 24)))).status).toBe('at berth');
    const old = scan(timestamps, ctx({}, NO_PRIORITIES, Date.parse(at(13 + 30 * 24))));
    expect(old).toMatchObject({ status: 'done', atd: at(12), next_event_title: 'ATD', next_event_ts: at(12) });
  });

  it('closes a departed port call 180 minutes after its ATD', () => {
    const timestamps = [t('Actual', 'Departure_Vessel_Berth', at(10))];
    expect(scan(timestamps, ctx({}, NO_PRIORITIES, Date.parse(at(12.99)))).status).toBe('departed');
    expect(scan(timestamps, ctx({}, NO_PRIORITIES, Date.parse(at(13)))).status).toBe('done');
  });
});

describe('clock rules in the fold (timers)', () => {
  const build = () => {
    const s = new VesselStream();
    s.now(at(0));
    const eta = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 });
    s.post('Actual', 'Arrival_Vessel_Berth', at(11), { key: 1 });
    s.post('Actual', 'Departure_Vessel_Berth', at(20), { key: 1 });
    return { s, eta };
  };

  it('lists what is due: a departed port call closes 180 minutes after its ATD', () => {
    const { s, eta } = build();
    const state = project(s, context());
    expect(portCallOf(state, eta)?.status).toBe('departed');
    expect(dueTimers(state)).toEqual([{ port_call_id: eta, at: new Date(at(23)), kind: 'close' }]);
    expect(nextTimerAt(state)).toEqual(new Date(at(23)));
    expect(dueTimers(state, new Date(at(22.9)))).toEqual([]);
    expect(dueTimers(state, new Date(at(23)))).toHaveLength(1);
  });

  it('PortCallTimersElapsed closes it at the event’s time, without new traffic', () => {
    const { s, eta } = build();
    const state = project(s, context());
    const from = s.events.length;
    s.now(at(22));
    s.push('PortCallTimersElapsed', { imo: s.imo });
    expect(portCallOf(projectMore(state, s.since(from), context()), eta)?.status).toBe('departed');
    s.now(at(23));
    s.push('PortCallTimersElapsed', { imo: s.imo });
    const closed = projectMore(state, s.since(from), context());
    expect(portCallOf(closed, eta)?.status).toBe('done');
    expect(dueTimers(closed)).toEqual([]);
  });

  it('any later event applies the rules first; tick() applies them without an event', () => {
    const { s, eta } = build();
    const state = project(s, context());
    expect(portCallOf(tick(state, new Date(at(23)), context()), eta)?.status).toBe('done');
    expect(state.port_calls[0].status).toBe('departed'); // inputs are never changed
    s.now(at(24));
    s.push('VesselRenamed', { imo: s.imo, vessel_name: 'X', previous_vessel_name: 'Ship One' });
    expect(portCallOf(project(s, context()), eta)?.status).toBe('done');
  });

  it('a port call that never departs is departed (and closed) 30 days after its last known time', () => {
    const s = new VesselStream();
    s.now(at(0));
    const eta = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 });
    const state = project(s, context());
    expect(dueTimers(state)).toEqual([
      { port_call_id: eta, at: new Date(Date.parse(at(10 + 30 * 24)) + 1), kind: 'depart' },
    ]);
    const later = tick(state, new Date(Date.parse(at(10 + 30 * 24)) + 1), context());
    expect(portCallOf(later, eta)).toMatchObject({ status: 'done', atd: at(10) });
    expect(isoUtc(Date.parse(at(10)))).toBe(at(10));
  });
});
