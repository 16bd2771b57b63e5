// What a fold changed, as read-model rows and change signals.

import { canonicalJson } from '@pcas/values';
import { describe, expect, it } from 'vitest';
import { decideVesselVisibility } from './port-call-commands.ts';
import { portCallTemplate } from './port-call-template.ts';
import { at, context, project, projectMore, VesselStream } from './port-call-test-kit.ts';
import { portCallReadModel, vesselWrites } from './read-model.ts';
import { emptyVesselPortCalls } from './vessel-port-calls.ts';

const ctx = { ...context({ visibleUnlocodes: ['FIGVL'] }), template: portCallTemplate('gavle') };

describe('vesselWrites', () => {
  it('writes what changed: new timestamps, their port call, a signal per port call', () => {
    const s = new VesselStream();
    s.now(at(-48));
    const eta = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 1 });
    const first = project(s, ctx);
    const fromEmpty = vesselWrites(emptyVesselPortCalls(s.imo), first, ctx);
    expect(fromEmpty.timestamps).toEqual([
      { id: eta, port_call_id: eta, is_trash: false, hold: null, source: 'api_key', api_key_id: 1, weight: 0 },
    ]);
    expect(fromEmpty.port_calls.map((r) => r.pc.id)).toEqual([eta]);
    expect(fromEmpty.changed).toEqual([{ port_call_id: eta, deleted: false }]);
    expect(fromEmpty.next_timer_at).not.toBeNull();

    // Nothing new: nothing to write.
    expect(vesselWrites(first, first, ctx)).toMatchObject({ port_calls: [], timestamps: [], changed: [] });
    // A state that went through jsonb (keys reordered) is the same state.
    const roundTrip = JSON.parse(canonicalJson(first));
    expect(vesselWrites(roundTrip, first, ctx)).toMatchObject({ port_calls: [], timestamps: [], changed: [] });

    // A manual ETA of the same visit joins the port call: only the new row and that port call.
    const from = s.events.length;
    const manual = s.post('Estimated', 'Arrival_Vessel_PortArea', at(1));
    const second = projectMore(first, s.since(from), ctx);
    const w = vesselWrites(first, second, ctx);
    expect(w.timestamps.map((t) => [t.id, t.port_call_id, t.weight])).toEqual([[manual, eta, 999]]);
    expect(w.port_calls.map((r) => r.pc.current_eta)).toEqual([at(1)]);
    expect(w.changed).toEqual([{ port_call_id: eta, deleted: false }]);
  });

  it('rewrites every port call when the vessel is hidden; a rebuild signals only what differs from the stored rows', () => {
    const s = new VesselStream();
    s.now(at(-48));
    const a = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 1 });
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(400), { key: 1 });
    const shown = project(s, ctx);
    expect(shown.port_calls).toHaveLength(2);
    const from = s.events.length;
    for (const e of decideVesselVisibility(shown, false)) s.push(e.type, e.data as never);
    const hidden = projectMore(shown, s.since(from), ctx);
    const w = vesselWrites(shown, hidden, ctx);
    expect(w.port_calls.map((r) => r.shown)).toEqual([false, false]);
    expect(w.changed).toHaveLength(2);

    // A rebuild writes all rows; it signals a port call whose stored timeline or `shown` differs, and no other.
    const stored = new Map(
      hidden.port_calls.map((pc) => {
        const row = portCallReadModel(
          pc,
          hidden.timestamps.filter((t) => t.port_call_id === pc.id),
          false,
          ctx,
        );
        return [pc.id, { timeline: row.timeline, shown: pc.id === a }];
      }),
    );
    const rebuilt = vesselWrites({ ...hidden, timestamps: [] }, hidden, ctx, true, stored);
    expect(rebuilt.port_calls).toHaveLength(2);
    expect(rebuilt.timestamps).toHaveLength(2);
    expect(rebuilt.changed).toEqual([{ port_call_id: a, deleted: false }]);
  });

  it('shows a port call when its to_port is empty or a visible UN/LOCODE', () => {
    const s = new VesselStream();
    s.now(at(-48));
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 1, payload: { to_port: 'SEGVX' } });
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(400), { key: 1, payload: { to_port: 'FIGVL' } });
    const state = project(s, ctx);
    const rows = vesselWrites(emptyVesselPortCalls(s.imo), state, ctx).port_calls;
    expect(rows.map((r) => [r.pc.to_port, r.shown, r.ship.to_port_code])).toEqual([
      ['SEGVX', false, 'SEGVX'],
      ['FIGVL', true, 'FIGVL'],
    ]);
    // The timeline's filled slots leave the creator's name to the reader.
    const slot = rows[0].timeline.events[0].timestamps.find((t) => 'time' in t);
    expect(slot).toMatchObject({ time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', source: '' });
  });
});
