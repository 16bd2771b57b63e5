// Master-ID mode, events in → port calls out (docs/domain.md#master-id-mode).

import { describe, expect, it } from 'vitest';
import { isMasterTimestamp, resolvePortCall, timestampOrder } from './master-mode.ts';
import { newPortCall } from './port-call-scan.ts';
import { compileSettings } from './port-call-settings.ts';
import { at, context, masterContext, project, projectMore, VesselStream } from './port-call-test-kit.ts';
import type { PortCallStatus, VesselTimestamp } from './port-call-types.ts';
import { portCallOf, timestampOf } from './vessel-port-calls.ts';

const master = (external_id: string, extra: Record<string, unknown> = {}) => ({
  key: 1,
  payload: { source: 'portnet', external_id, ...extra },
});
const ETA = ['Estimated', 'Arrival_Vessel_PortArea'] as const;
const ETD = ['Estimated', 'Departure_Vessel_Berth'] as const;
const ATA = ['Actual', 'Arrival_Vessel_Berth'] as const;
const ATD = ['Actual', 'Departure_Vessel_Berth'] as const;

const ts = (over: Partial<VesselTimestamp>): VesselTimestamp => ({
  id: 1,
  imo: 9074729,
  vessel_name: 'Ship One',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: at(0),
  time_ms: Date.parse(at(0)),
  payload: {},
  source: 'api_key',
  api_key_id: 1,
  created_by: 101,
  created_at: at(0),
  port_call_id: null,
  is_trash: false,
  hold: null,
  ...over,
});

describe('master timestamps', () => {
  const s = compileSettings(masterContext().settings);
  it('need master mode, a non-empty source and external_id, and a master source or the JIT ETA form', () => {
    expect(isMasterTimestamp(ts({ payload: { source: 'portnet', external_id: 'A' } }), s)).toBe(true);
    expect(isMasterTimestamp(ts({ payload: { source: 'jit_eta_form', external_id: 'A' } }), s)).toBe(true);
    expect(isMasterTimestamp(ts({ payload: { source: 'other', external_id: 'A' } }), s)).toBe(false);
    expect(isMasterTimestamp(ts({ payload: { source: 'portnet' } }), s)).toBe(false);
    expect(isMasterTimestamp(ts({ payload: { source: 'portnet', external_id: '' } }), s)).toBe(false);
    const clustering = compileSettings(context().settings);
    expect(isMasterTimestamp(ts({ payload: { source: 'portnet', external_id: 'A' } }), clustering)).toBe(false);
  });
});

describe('master data parsing', () => {
  it('a master ETA opens a port call named after its master ID, with the ETA as range start', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(48), master('A1'));
    const state = project(s, masterContext());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0]).toMatchObject({
      id: eta,
      imo: s.imo,
      master_id: 'A1',
      master_start: at(48),
      master_end: null,
      status: 'arriving',
      first_eta: at(48),
      current_eta: at(48),
      next_event_title: 'ETA',
      next_event_ts: at(48),
      vessel_name: 'Ship One',
    });
    expect(timestampOf(state, eta)?.port_call_id).toBe(eta);
  });

  it('later master timestamps of the same ID move the range: arrivals the start, ETD/ATD the end', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    let state = project(s, masterContext());
    expect(state.port_calls[0]).toMatchObject({ id: eta, master_start: at(48), master_end: at(72) });
    const from = s.events.length;
    s.post(...ATA, at(50), master('A1'));
    s.post(...ATD, at(70), master('A1'));
    state = projectMore(state, s.since(from), masterContext());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0]).toMatchObject({ master_start: at(50), master_end: at(70), ata: at(50), atd: at(70) });
  });

  it('master timestamps of other kinds open nothing but join their master ID', () => {
    const s = new VesselStream();
    const pilot = s.post('Actual', 'Pilotage_Commenced', at(47), master('A1', { direction: 'inbound' }));
    let state = project(s, masterContext());
    expect(state.port_calls).toHaveLength(0);
    expect(timestampOf(state, pilot)?.port_call_id).toBeNull();
    const from = s.events.length;
    const eta = s.post(...ETA, at(48), master('A1'));
    state = projectMore(state, s.since(from), masterContext());
    // The ETA opens A1; the waiting pilotage timestamp carries A1 and is attached by its master ID.
    expect(timestampOf(state, pilot)?.port_call_id).toBe(eta);
  });

  it('a new master ID inside another master port call’s range merges into it (the port call keeps its ID)', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    const other = s.post(...ETA, at(50), master('B2'));
    const state = project(s, masterContext());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0]).toMatchObject({ id: eta, master_id: 'A1', master_start: at(50) });
    expect(timestampOf(state, other)?.port_call_id).toBe(eta);
  });

  it('a master ID outside every range opens its own port call', () => {
    const s = new VesselStream();
    s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    const second = s.post(...ETA, at(72 + 13 + 24), master('B2'));
    const state = project(s, masterContext());
    expect(state.port_calls.map((pc) => [pc.master_id, pc.id])).toEqual([
      ['A1', expect.any(Number)],
      ['B2', second],
    ]);
  });

  it('inside a clustered port call (no master ID) a master timestamp opens nothing and joins it by range', () => {
    const s = new VesselStream();
    const first = s.post(...ETA, at(48), { key: 1 });
    s.post(...ETD, at(72), { key: 1 });
    // Built in clustering mode; then the port switches to master mode.
    let state = project(s, context());
    expect(state.port_calls[0]).toMatchObject({ id: first, master_id: null, master_start: at(48), master_end: at(72) });
    const from = s.events.length;
    const m = s.post(...ETA, at(50), master('C3'));
    state = projectMore(state, s.since(from), masterContext());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0].master_id).toBeNull();
    expect(timestampOf(state, m)?.port_call_id).toBe(first);
  });

  it('the JIT ETA form takes over a covering port call; port calls a slot reservation holds are not re-mastered', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    s.post(...ETA, at(49), { key: 2, payload: { source: 'jit_eta_form', external_id: 'slot_reservation_id_7' } });
    let state = project(s, masterContext());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0]).toMatchObject({ id: eta, master_id: 'slot_reservation_id_7', master_start: at(49) });
    const from = s.events.length;
    const late = s.post(...ETA, at(51), master('D4'));
    state = projectMore(state, s.since(from), masterContext());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0]).toMatchObject({ master_id: 'slot_reservation_id_7', master_start: at(49) });
    expect(timestampOf(state, late)?.port_call_id).toBe(eta);
  });

  it('JIT master timestamps count only as Estimated/Planned arrivals to the port area and departures from berth', () => {
    const s = new VesselStream();
    s.post('Actual', 'Arrival_Vessel_Berth', at(48), {
      key: 2,
      payload: { source: 'jit_eta_form', external_id: 'slot_reservation_id_1' },
    });
    expect(project(s, masterContext()).port_calls).toHaveLength(0);
    s.post('Planned', 'Arrival_Vessel_PortArea', at(48), {
      key: 2,
      payload: { source: 'jit_eta_form', external_id: 'slot_reservation_id_1' },
    });
    expect(project(s, masterContext()).port_calls[0]).toMatchObject({ master_id: 'slot_reservation_id_1' });
  });

  it('a manual range is not moved by master timestamps', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    s.push('PortCallRangeSet', { port_call_id: eta, start: at(40), end: at(80) });
    s.post(...ETA, at(47), master('A1'));
    const state = project(s, masterContext());
    expect(state.port_calls[0]).toMatchObject({ master_start: at(40), master_end: at(80), master_manual: true });
  });
});

describe('attaching orphans', () => {
  it('attaches by range widened by the buffers (PT6H before the start, PT12H after the end)', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    const inside = s.post(...ATA, at(49), { key: 2 });
    const early = s.post('Estimated', 'Pilotage_Commenced', at(43), { key: 2, payload: { direction: 'inbound' } });
    const tooEarly = s.post('Planned', 'Pilotage_Commenced', at(41), { key: 2, payload: { direction: 'inbound' } });
    const late = s.post('Actual', 'Departure_Vessel_PortArea', at(83), { key: 2 });
    const tooLate = s.post('Actual', 'Departure_Vessel_TrafficArea', at(85), { key: 2 });
    const state = project(s, masterContext());
    expect(timestampOf(state, inside)?.port_call_id).toBe(eta);
    expect(timestampOf(state, early)?.port_call_id).toBe(eta);
    expect(timestampOf(state, late)?.port_call_id).toBe(eta);
    expect(timestampOf(state, tooEarly)?.port_call_id).toBeNull();
    expect(timestampOf(state, tooLate)?.port_call_id).toBeNull();
  });

  it('a port call without a range end takes only its own master timestamps', () => {
    const s = new VesselStream();
    s.post(...ETA, at(48), master('A1'));
    const other = s.post(...ATA, at(48), { key: 2 });
    const state = project(s, masterContext());
    expect(timestampOf(state, other)?.port_call_id).toBeNull();
  });

  it('orphans waiting for a range are attached when it appears', () => {
    const s = new VesselStream();
    const early = s.post(...ETA, at(47), { key: 2 });
    let state = project(s, masterContext());
    expect(state.port_calls).toHaveLength(0);
    const from = s.events.length;
    const eta = s.post(...ETA, at(48), master('A1'));
    s.post(...ETD, at(72), master('A1'));
    state = projectMore(state, s.since(from), masterContext());
    expect(timestampOf(state, early)?.port_call_id).toBe(eta);
    // The scan reads timestamps in id order: the earlier-posted ETA is the first one, the master ETA the current.
    expect(portCallOf(state, eta)).toMatchObject({ first_eta: at(47), current_eta: at(48) });
  });

  it('between overlapping port calls the nearest by status wins', () => {
    const s = new VesselStream();
    const a = s.post(...ETA, at(0), master('A'));
    s.post(...ETD, at(24), master('A'));
    s.post(...ATA, at(2), { key: 2 }); // A is at berth
    const b = s.post(...ETA, at(40), master('B'));
    s.post(...ETD, at(60), master('B'));
    // At hour 35 both ranges cover (A: end 24 + 12 h; B: start 40 - 6 h).
    const cargoDone = s.post('Actual', 'CargoOp_Completed', at(35), { key: 2 });
    const arrival = s.post('Actual', 'Arrival_Vessel_TrafficArea', at(35), { key: 2 });
    const unknown = s.post('Actual', 'Arrival_Vessel_AnchorageArea', at(35), { key: 2 });
    const state = project(s, masterContext());
    expect(portCallOf(state, a)?.status).toBe('departing'); // the cargo completion made it so
    expect(timestampOf(state, cargoDone)?.port_call_id).toBe(a);
    expect(timestampOf(state, arrival)?.port_call_id).toBe(b);
    // Unplaceable: the last candidate in master_end DESC order, i.e. the earlier-ending A.
    expect(timestampOf(state, unknown)?.port_call_id).toBe(a);
  });

  it('a timestamp for a done port call is trashed, not attached; the manual range takes it in anyway', () => {
    const s = new VesselStream();
    const eta = s.post(...ETA, at(0), master('A1'));
    s.post(...ETD, at(24), master('A1'));
    s.post(...ATD, at(24), { key: 2 });
    s.now(at(30)); // more than 180 minutes after the ATD
    const late = s.post('Actual', 'Departure_Vessel_PortArea', at(25), { key: 2 });
    let state = project(s, masterContext());
    expect(portCallOf(state, eta)?.status).toBe('done');
    expect(timestampOf(state, late)).toMatchObject({ port_call_id: null, is_trash: true });
    const from = s.events.length;
    s.push('PortCallRangeSet', { port_call_id: eta, start: at(0), end: at(26) });
    state = projectMore(state, s.since(from), masterContext());
    expect(timestampOf(state, late)).toMatchObject({ port_call_id: eta, is_trash: true });
  });
});

describe('resolving between candidates', () => {
  it('orders timestamps along a port call’s life', () => {
    const order = (time_type: string, state: string, direction?: string) =>
      timestampOrder({ time_type, state, payload: direction ? { direction } : {} });
    expect(order('Estimated', 'Arrival_Vessel_PortArea')).toBe(1);
    expect(order('Actual', 'Arrival_Vessel_TrafficArea')).toBe(1);
    expect(order('Estimated', 'Arrival_Vessel_Berth')).toBe(1);
    expect(order('Actual', 'Arrival_Vessel_Berth')).toBe(2);
    expect(order('Actual', 'Pilotage_Commenced', 'inbound')).toBe(1);
    expect(order('Estimated', 'Pilotage_Commenced', 'outbound')).toBe(2);
    expect(order('Actual', 'Pilotage_Commenced', 'outbound')).toBe(3);
    expect(order('Estimated', 'Pilotage_Completed', 'inbound')).toBe(1);
    expect(order('Actual', 'Pilotage_Completed', 'inbound')).toBe(2);
    expect(order('Estimated', 'Pilotage_Completed', 'outbound')).toBe(2);
    expect(order('Actual', 'Pilotage_Completed', 'outbound')).toBe(4);
    expect(order('Actual', 'CargoOp_Commenced')).toBe(2);
    expect(order('Estimated', 'CargoOp_Completed')).toBe(2);
    expect(order('Actual', 'CargoOp_Completed')).toBe(3);
    expect(order('Estimated', 'Departure_Vessel_Berth')).toBe(3);
    expect(order('Actual', 'Departure_Vessel_PortArea')).toBe(4);
    expect(order('Actual', 'Pilotage_Commenced')).toBeUndefined();
    expect(order('Actual', 'Arrival_Vessel_LOC')).toBeUndefined();
  });

  it('picks the smallest distance, ties to the later candidate, unplaceable to the last', () => {
    const pc = (id: number, status: PortCallStatus) => ({ ...newPortCall(id, 1, id, at(0), null), status });
    const candidates = [pc(1, 'arriving'), pc(2, 'at berth'), pc(3, 'departed')];
    expect(resolvePortCall(ts({ time_type: 'Actual', state: 'Arrival_Vessel_Berth' }), candidates).id).toBe(2);
    // Estimated ETD (3): at berth and departed are both 1 away; the later candidate wins.
    expect(resolvePortCall(ts({ time_type: 'Estimated', state: 'Departure_Vessel_Berth' }), candidates).id).toBe(3);
    expect(resolvePortCall(ts({ time_type: 'Actual', state: 'Arrival_Vessel_LOC' }), candidates).id).toBe(3);
    expect(resolvePortCall(ts({}), [pc(1, 'done'), pc(2, 'arriving')]).id).toBe(2);
  });
});
