// The vessel fold: manual corrections as events (docs/domain.md#corrections), their decisions, and
// determinism (the same events give the same port calls however they are folded).

import { ApiError } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  decideAttachOrphans,
  decideForceClose,
  decideForceScan,
  decideSetPortCallRange,
  decideUnsetPortCallId,
  decideUpdatePortCallId,
  decideVesselVisibility,
} from './port-call-commands.ts';
import {
  at,
  context,
  masterContext,
  ONE_BEFORE_TWO,
  project,
  projectMore,
  seeded,
  VesselStream,
  vesselHistory,
} from './port-call-test-kit.ts';
import { isoUtc } from './port-call-time.ts';
import { portCallRange } from './ship.ts';
import {
  diffVessel,
  emptyVesselPortCalls,
  evolve,
  foldVessel,
  orphanTimestamps,
  portCallOf,
  replayVessel,
  timestampOf,
  timestampsOfPortCall,
} from './vessel-port-calls.ts';

const master = (external_id: string) => ({ key: 1, payload: { source: 'portnet', external_id } });

/** Two master port calls A (hours 0–24) and B (hours 240–264), each with an arrival at berth. */
function twoVisits() {
  const s = new VesselStream();
  s.now(at(-48));
  const a = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), master('A'));
  s.post('Estimated', 'Departure_Vessel_Berth', at(24), master('A'));
  const ataA = s.post('Actual', 'Arrival_Vessel_Berth', at(1), { key: 2, payload: { berth_name: 'North' } });
  const b = s.post('Estimated', 'Arrival_Vessel_PortArea', at(240), master('B'));
  s.post('Estimated', 'Departure_Vessel_Berth', at(264), master('B'));
  const ataB = s.post('Actual', 'Arrival_Vessel_Berth', at(241), { key: 2 });
  return { s, a, b, ataA, ataB };
}

const expectError = (f: () => unknown, message: string) => {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe(message);
    return;
  }
  throw new Error(`expected "${message}"`);
};

describe('manual corrections', () => {
  it('DELETE /timestamps: the timestamp leaves its port call, which is re-read, and deleted when empty', () => {
    const { s, a, ataA } = twoVisits();
    let state = project(s, masterContext());
    expect(portCallOf(state, a)).toMatchObject({ status: 'at berth', berth_name: 'North' });
    const from = s.events.length;
    s.push('TimestampDeleted', { timestamp_id: ataA });
    state = projectMore(state, s.since(from), masterContext());
    expect(timestampOf(state, ataA)).toMatchObject({ port_call_id: null, is_trash: true, hold: 'deleted' });
    expect(portCallOf(state, a)).toMatchObject({ status: 'arriving', ata: null, berth_name: null });
    for (const t of timestampsOfPortCall(state, a)) s.push('TimestampDeleted', { timestamp_id: t.id });
    state = project(s, masterContext());
    expect(portCallOf(state, a)).toBeUndefined();
    expect(state.retired_port_call_ids).toEqual([a]);
  });

  it('POST /restore-timestamp untrashes only; the timestamp is attached at the next run', () => {
    const { s, a, ataA } = twoVisits();
    s.push('TimestampDeleted', { timestamp_id: ataA });
    s.push('TimestampRestored', { timestamp_id: ataA });
    let state = project(s, masterContext());
    expect(timestampOf(state, ataA)).toMatchObject({ port_call_id: null, is_trash: false, hold: null });
    expect(orphanTimestamps(state).map((t) => t.id)).toEqual([ataA]);
    s.post('Actual', 'CargoOp_Commenced', at(2), { key: 2 });
    state = project(s, masterContext());
    expect(timestampOf(state, ataA)?.port_call_id).toBe(a);
  });

  it('POST /update-port-call-id moves and untrashes the timestamp; both port calls are re-read', () => {
    const { s, a, b, ataA } = twoVisits();
    s.push('TimestampPortCallUnset', { timestamp_id: ataA });
    s.push('TimestampPortCallSet', { timestamp_id: ataA, port_call_id: b });
    const state = project(s, masterContext());
    expect(timestampOf(state, ataA)).toMatchObject({ port_call_id: b, is_trash: false, hold: null });
    expect(portCallOf(state, b)).toMatchObject({ ata: at(241), berth_name: 'North' });
    expect(portCallOf(state, a)).toMatchObject({ status: 'arriving', ata: null });
  });

  it('POST /unset-port-call-id detaches and trashes; the timestamp is not taken back automatically', () => {
    const { s, a, ataA } = twoVisits();
    s.push('TimestampPortCallUnset', { timestamp_id: ataA });
    s.post('Actual', 'CargoOp_Commenced', at(2), { key: 2 });
    const state = project(s, masterContext());
    expect(timestampOf(state, ataA)).toMatchObject({ port_call_id: null, is_trash: true, hold: 'unset' });
    expect(portCallOf(state, a)).toMatchObject({ ata: null, status: 'at berth' }); // the cargo timestamp
  });

  it('POST /port-call-range: manual range, its timestamps re-attached whatever the status, losers re-read', () => {
    const { s, a, b, ataB } = twoVisits();
    // A's manual range reaches over B's arrival: hours 0–250, plus the 12-hour end buffer.
    s.push('PortCallRangeSet', { port_call_id: a, start: at(0), end: at(250) });
    const state = project(s, masterContext());
    expect(portCallOf(state, a)).toMatchObject({ master_start: at(0), master_end: at(250), master_manual: true });
    // B's ETA (a master timestamp) goes back to B by its ID; the data source's ATA of hour 241 is in both
    // ranges, both port calls are at berth like the ATA, and the tie goes to the later candidate (A ends first).
    expect(timestampOf(state, ataB)?.port_call_id).toBe(a);
    expect(timestampsOfPortCall(state, b).map((t) => t.state)).toEqual([
      'Arrival_Vessel_PortArea',
      'Departure_Vessel_Berth',
    ]);
    expect(portCallOf(state, b)).toMatchObject({ status: 'arriving', ata: null });
    expect(portCallRange(portCallOf(state, a)!)).toEqual({
      port_call_id: a,
      start: '2024-05-01 00:00:00+00',
      end: '2024-05-11 10:00:00+00',
      master_id: 'A',
      master_manual: true,
    });
  });

  it('GET /force-close-port-call departs at the best end time and closes; never in the future', () => {
    const { s, a, b } = twoVisits();
    s.push('PortCallForceClosed', { port_call_id: a });
    s.now(at(-10));
    s.push('PortCallForceClosed', { port_call_id: b });
    const state = project(s, masterContext());
    // A: no ATD or PTD; its ETD (hour 24) lies ahead of now, so now it is.
    expect(portCallOf(state, a)).toMatchObject({ status: 'done', next_event_title: 'ATD' });
    expect(portCallOf(state, a)?.atd).toBe(portCallOf(state, a)?.next_event_ts);
    expect(Date.parse(portCallOf(state, a)!.atd!)).toBeLessThan(Date.parse(at(-40)));
    expect(portCallOf(state, b)?.atd).toBe(isoUtc(Date.parse(at(-10))));
    const late = twoVisits();
    late.s.now(at(400));
    late.s.push('PortCallForceClosed', { port_call_id: late.a });
    expect(portCallOf(project(late.s, masterContext()), late.a)).toMatchObject({ status: 'done', atd: at(24) });
  });

  it('GET /force-scan-port-call re-reads everything: a force-closed port call opens again', () => {
    const { s, a } = twoVisits();
    s.push('PortCallForceClosed', { port_call_id: a });
    s.push('PortCallForceScanned', { port_call_id: a });
    expect(portCallOf(project(s, masterContext()), a)).toMatchObject({ status: 'at berth', atd: null });
  });

  it('POST /vessel-visibility is kept on the vessel', () => {
    const { s } = twoVisits();
    s.push('VesselVisibilitySet', { imo: s.imo, visible: false });
    expect(project(s, masterContext()).visible).toBe(false);
  });

  it('events about unknown port calls or timestamps change nothing', () => {
    const { s } = twoVisits();
    const before = project(s, masterContext());
    const from = s.events.length;
    s.push('PortCallForceClosed', { port_call_id: 1 });
    s.push('PortCallForceScanned', { port_call_id: 1 });
    s.push('PortCallRangeSet', { port_call_id: 1, start: at(0), end: at(1) });
    s.push('TimestampPortCallSet', { timestamp_id: 1, port_call_id: 1 });
    s.push('TimestampPortCallUnset', { timestamp_id: 1 });
    s.push('TimestampDeleted', { timestamp_id: 1 });
    s.push('TimestampRestored', { timestamp_id: 1 });
    const after = projectMore(before, s.since(from), masterContext());
    expect(after.port_calls).toEqual(before.port_calls);
    expect(after.timestamps).toEqual(before.timestamps);
  });
});

describe('deciding corrections', () => {
  const { s, a, ataA } = twoVisits();
  const state = project(s, masterContext());

  it('names the event to append', () => {
    expect(decideForceClose(state, a)).toEqual([{ type: 'PortCallForceClosed', data: { port_call_id: a } }]);
    expect(decideForceScan(state, a)).toEqual([{ type: 'PortCallForceScanned', data: { port_call_id: a } }]);
    expect(decideUnsetPortCallId(state, ataA)).toEqual([
      { type: 'TimestampPortCallUnset', data: { timestamp_id: ataA } },
    ]);
    expect(decideUpdatePortCallId(state, ataA, a)).toEqual([
      { type: 'TimestampPortCallSet', data: { timestamp_id: ataA, port_call_id: a } },
    ]);
    expect(decideAttachOrphans(state, { ignoreStatus: true })).toEqual([
      { type: 'OrphanTimestampsAttachRequested', data: { is_from_agent: false, ignore_status: true } },
    ]);
    expect(decideVesselVisibility(state, true)).toEqual([]);
    expect(decideVesselVisibility(state, false)).toEqual([
      { type: 'VesselVisibilitySet', data: { imo: s.imo, visible: false } },
    ]);
  });

  it('turns range times into UTC', () => {
    expect(decideSetPortCallRange(state, { port_call_id: a, start: '2024-05-01T03:00:00+03:00', end: at(5) })).toEqual([
      { type: 'PortCallRangeSet', data: { port_call_id: a, start: at(0), end: at(5) } },
    ]);
  });

  it('answers bad input with the original’s messages', () => {
    expectError(() => decideForceClose(state, 42), 'Invalid port call ID: 42');
    expectError(() => decideForceScan(state, 42), 'Invalid port call ID: 42');
    expectError(
      () => decideSetPortCallRange(state, { port_call_id: 42, start: at(0), end: at(1) }),
      'Invalid port call ID: 42',
    );
    expectError(
      () => decideSetPortCallRange(state, { port_call_id: a, start: '2024-05-01T00:00:00Z', end: at(1) }),
      'Invalid start time: 2024-05-01T00:00:00Z',
    );
    expectError(
      () => decideSetPortCallRange(state, { port_call_id: a, start: at(0), end: '2024-02-30T00:00:00+00:00' }),
      'Invalid end time: 2024-02-30T00:00:00+00:00',
    );
    expectError(
      () => decideSetPortCallRange(state, { port_call_id: a, start: at(2), end: at(1) }),
      'Start time must be before end time',
    );
    expectError(() => decideUpdatePortCallId(state, 1, a), 'Invalid timestamp id: 1');
    expectError(() => decideUpdatePortCallId(state, ataA, 42), 'Port call imo must be same as timestamp imo.');
    expectError(() => decideUnsetPortCallId(state, 1), 'Invalid timestamp id: 1');
  });
});

/** A history with manual corrections mixed in, in master or clustering mode. */
function busyStream(seed: number, withMaster: boolean): VesselStream {
  const s = vesselHistory(seed, {
    visits: 5,
    payloadOf: withMaster ? (v) => ({ source: 'portnet', external_id: `V${v}` }) : undefined,
  });
  const r = seeded(seed * 7);
  const ids = s.events.filter((e) => e.type === 'TimestampReceived').map((e) => e.globalPosition);
  const pick = () => ids[Math.floor(r() * ids.length)];
  s.clock += 60_000;
  s.push('TimestampDeleted', { timestamp_id: pick() });
  s.push('TimestampPortCallUnset', { timestamp_id: pick() });
  const restored = pick();
  s.push('TimestampDeleted', { timestamp_id: restored });
  s.push('TimestampRestored', { timestamp_id: restored });
  s.push('OrphanTimestampsAttachRequested', { is_from_agent: false, ignore_status: false });
  s.post('Estimated', 'Arrival_Vessel_PortArea', isoUtc(s.clock + 86_400_000), {
    key: 1,
  });
  s.clock += 40 * 86_400_000;
  s.push('PortCallTimersElapsed', { imo: s.imo });
  return s;
}

describe('determinism: the same events give the same port calls', () => {
  for (const withMaster of [false, true]) {
    const mode = withMaster ? 'master mode' : 'clustering mode';
    const ctx = withMaster ? masterContext() : context();

    it(`${mode}: one fold, event by event, and any batching agree`, () => {
      const s = busyStream(3, withMaster);
      const whole = replayVessel(s.imo, s.events, ctx);
      expect(whole.port_calls.length).toBeGreaterThan(1);
      let stepwise = emptyVesselPortCalls(s.imo);
      for (const e of s.events) stepwise = evolve(stepwise, e, ctx);
      expect(stepwise).toEqual(whole);
      const r = seeded(5);
      let batched = emptyVesselPortCalls(s.imo);
      for (let i = 0; i < s.events.length; ) {
        const n = 1 + Math.floor(r() * 12);
        // The state goes through JSON between batches, as a stored document would.
        batched = JSON.parse(JSON.stringify(foldVessel(batched, s.events.slice(i, i + n), ctx)));
        i += n;
      }
      expect(batched).toEqual(whole);
    });

    it(`${mode}: redelivered events change nothing`, () => {
      const s = busyStream(4, withMaster);
      const once = replayVessel(s.imo, s.events, ctx);
      expect(foldVessel(once, s.events.slice(10, 40), ctx)).toBe(once);
      const twice = foldVessel(replayVessel(s.imo, s.events.slice(0, 30), ctx), s.events.slice(20), ctx);
      expect(twice).toEqual(once);
    });
  }

  it('every timestamp stays in the state, attached or not', () => {
    const s = busyStream(6, false);
    const state = replayVessel(s.imo, s.events, context());
    expect(state.timestamps).toHaveLength(s.events.filter((e) => e.type === 'TimestampReceived').length);
  });

  it('a rebuild under new priorities re-derives the port calls from the same raw timestamps', () => {
    const s = new VesselStream();
    s.now(at(0));
    const eta = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1, payload: { berth_name: 'One' } });
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(12), { key: 2, payload: { berth_name: 'Two' } });
    const before = replayVessel(s.imo, s.events, context());
    const after = replayVessel(s.imo, s.events, context({}, ONE_BEFORE_TWO));
    expect(portCallOf(before, eta)).toMatchObject({ current_eta: at(12), berth_name: 'Two' });
    expect(portCallOf(after, eta)).toMatchObject({ current_eta: at(10), berth_name: 'One' });
    expect(after.timestamps).toEqual(before.timestamps);
    const changes = diffVessel(before, after);
    expect(changes.port_calls.map((pc) => pc.id)).toEqual([eta]);
    expect(changes.timestamps).toEqual([]);
  });

  it('diffVessel lists new, changed and deleted port calls and moved timestamps', () => {
    const { s, a, ataA } = twoVisits();
    const before = project(s, masterContext());
    const from = s.events.length;
    for (const t of timestampsOfPortCall(before, a)) s.push('TimestampDeleted', { timestamp_id: t.id });
    const after = projectMore(before, s.since(from), masterContext());
    const changes = diffVessel(before, after);
    expect(changes.deleted_port_call_ids).toEqual([a]);
    expect(changes.port_calls).toEqual([]);
    expect(changes.timestamps.find((t) => t.id === ataA)).toEqual({ id: ataA, port_call_id: null, is_trash: true });
    expect(diffVessel(emptyVesselPortCalls(s.imo), before).port_calls).toHaveLength(2);
  });

  it('a manual range in clustering mode keeps its timestamps in that port call (master-mode attachment)', () => {
    const s = new VesselStream();
    s.now(at(-48));
    const eta = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 1 });
    const etd = s.post('Estimated', 'Departure_Vessel_Berth', at(20), { key: 1 });
    const before = project(s, context());
    expect(portCallOf(before, eta)).toBeDefined();
    const from = s.events.length;
    s.push('PortCallRangeSet', { port_call_id: eta, start: at(-1), end: at(21) });
    const after = projectMore(before, s.since(from), context());
    expect(after.port_calls.map((pc) => pc.id)).toEqual([eta]);
    expect(timestampsOfPortCall(after, eta).map((t) => t.id)).toEqual([eta, etd]);
    expect(portCallOf(after, eta)?.master_manual).toBe(true);
  });
});
