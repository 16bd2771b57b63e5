// The "ship" object and the activity timeline's selection and order (docs/domain.md#the-activity-timeline).

import { describe, expect, it } from 'vitest';
import { newPortCall } from './port-call-scan.ts';
import { portCallTemplate } from './port-call-template.ts';
import { at } from './port-call-test-kit.ts';
import type { PortCall } from './port-call-types.ts';
import { NO_PRIORITIES } from './priorities.ts';
import { compareOngoing, isOngoing, ongoingEntry, shipOf } from './ship.ts';

const pc = (over: Partial<PortCall> = {}): PortCall => ({
  ...newPortCall(501, 9074729, 1, at(10), 'M1'),
  vessel_name: 'Ship One',
  status: 'at berth',
  current_etd: at(30),
  first_etd: at(29),
  ata: at(11),
  next_event_title: 'ETD',
  next_event_ts: at(30),
  ...over,
});

describe('the ship object', () => {
  it('fills every key, missing values as "", times in PostgreSQL text, next event in ISO', () => {
    expect(shipOf(pc())).toEqual({
      id: 501,
      status: 'at berth',
      vessel_name: 'Ship One',
      imo: 9074729,
      mmsi: null,
      call_sign: '',
      nationality: '',
      from_port: '',
      to_port: '',
      next_port: '',
      loa: '',
      beam: '',
      draft: '',
      net_weight: '',
      gross_weight: '',
      first_eta: '2024-05-01 10:00:00+00',
      current_eta: '2024-05-01 10:00:00+00',
      rta: '',
      first_etd: '2024-05-02 05:00:00+00',
      current_etd: '2024-05-02 06:00:00+00',
      planned_eta: '',
      planned_etd: '',
      ata: '2024-05-01 11:00:00+00',
      atd: '',
      inbound_piloting_status: '',
      outbound_piloting_status: '',
      cargo_operations_status: '',
      berth: '',
      berth_name: '',
      vessel_type_name: '',
      master_id: 'M1',
      badges: [{ type: 'success', value: 'at berth' }],
      is_vis: false,
      eta_form_received: false,
      next_event: { title: 'ETD', ts: '2024-05-02T06:00:00+00:00' },
    });
  });

  it('names ports by city (codes kept), and shows badges for status, berth, STM and the voyage plan', () => {
    const ship = shipOf(
      pc({
        from_port: 'FIRAU',
        to_port: 'SEGVX',
        next_port: 'XXZZZ',
        status: 'departed berth',
        berth_name: 'Fredriksskans',
        is_vis: true,
        mmsi: 230000001,
        loa: 120.5,
        eta_form_email: 'master@ship.example',
      }),
      {
        cityName: (code) => ({ FIRAU: 'Rauma', SEGVX: 'Gävle' })[code] ?? '',
        vesselTypeName: 'Cargo',
        vis: { service_id: 'urn:mrn:stm:service:instance:x', rtz_state: 'USED_FOR_MONITORING' },
      },
    );
    expect(ship).toMatchObject({
      from_port: 'Rauma',
      from_port_code: 'FIRAU',
      to_port: 'Gävle',
      to_port_code: 'SEGVX',
      next_port: 'XXZZZ',
      next_port_code: 'XXZZZ',
      mmsi: 230000001,
      loa: 120.5,
      vessel_type_name: 'Cargo',
      eta_form_received: true,
      is_vis: true,
      vis_service_id: 'urn:mrn:stm:service:instance:x',
      vis_rtz_state: 'USED_FOR_MONITORING',
      badges: [
        { type: 'success', value: 'departed' },
        { type: 'default', value: 'Fredriksskans' },
        { type: 'default', value: 'stm' },
        { type: 'default', value: 'USED FOR MONITORING' },
      ],
    });
  });
});

describe('the activity timeline’s port calls', () => {
  const settings = { visibleUnlocodes: ['SEGVX', 'SEKAS'] };
  const now = new Date(at(40));

  it('shows port calls that are not done, or done within the last two hours', () => {
    expect(isOngoing(pc(), { now, vesselVisible: true, settings })).toBe(true);
    expect(isOngoing(pc({ status: 'done', atd: at(38) }), { now, vesselVisible: true, settings })).toBe(true);
    expect(isOngoing(pc({ status: 'done', atd: at(37.9) }), { now, vesselVisible: true, settings })).toBe(false);
  });

  it('hides hidden vessels and port calls bound elsewhere (an empty to_port is always shown)', () => {
    expect(isOngoing(pc(), { now, vesselVisible: false, settings })).toBe(false);
    expect(isOngoing(pc({ to_port: 'SEGVX' }), { now, vesselVisible: true, settings })).toBe(true);
    expect(isOngoing(pc({ to_port: 'FIRAU' }), { now, vesselVisible: true, settings })).toBe(false);
    expect(isOngoing(pc({ to_port: 'FIRAU' }), { now, vesselVisible: true, settings: { visibleUnlocodes: [] } })).toBe(
      false,
    );
  });

  it('orders by next event time (none first), then ETA', () => {
    const list = [
      pc({ id: 1, next_event_ts: at(20) }),
      pc({ id: 2, next_event_ts: null }),
      pc({ id: 3, next_event_ts: at(5) }),
      pc({ id: 4, next_event_ts: at(20), current_eta: at(1) }),
    ];
    expect(list.sort(compareOngoing).map((p) => p.id)).toEqual([2, 3, 4, 1]);
  });

  it('an entry is the ship and its timeline; placeholders make sure it always has timestamp objects', () => {
    const template = portCallTemplate('gavle');
    const entry = ongoingEntry(pc(), [], { template, priorities: NO_PRIORITIES, sourceOf: () => '' });
    expect(entry.ship.id).toBe(501);
    expect(entry.portcalls).toHaveLength(1);
    expect(entry.portcalls[0].events.map((e) => e.timestamps.length)).toEqual([10, 7, 6]);
  });
});
