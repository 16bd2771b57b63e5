import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PORT_CALL_TEMPLATE_NAMESPACES,
  parsePortCallTemplate,
  portCallTemplate,
  TEMPLATE_GROUPS,
  templatePairs,
} from './index.ts';

const dataDir = new URL('../data/port-call-templates/', import.meta.url);
const short = (e: { time_type: string; state: string; direction?: string }) =>
  `${e.time_type} ${e.state}${e.direction ? ` ${e.direction}` : ''}`;

describe('parsePortCallTemplate', () => {
  it('reads group:time_type:state[:k=v,k=v] entries separated by new lines or ";", in order', () => {
    const text =
      ' seaArriving:Estimated:Arrival_Vessel_PortArea ;\n\natBerth:Actual:Pilotage_Completed:direction=inbound,x=1\r\nseaDeparting:Actual:Departure_Vessel_PortArea\n';
    expect(parsePortCallTemplate(text)).toEqual([
      {
        group: 'seaArriving',
        location: 'sea',
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        payload: {},
      },
      {
        group: 'atBerth',
        location: 'port',
        time_type: 'Actual',
        state: 'Pilotage_Completed',
        direction: 'inbound',
        payload: { direction: 'inbound', x: '1' },
      },
      {
        group: 'seaDeparting',
        location: 'sea',
        time_type: 'Actual',
        state: 'Departure_Vessel_PortArea',
        payload: {},
      },
    ]);
  });

  it.each([
    'harbour:Actual:Arrival_Vessel_Berth',
    'atBerth:Actual',
    'atBerth::Arrival_Vessel_Berth',
    'atBerth:Actual:Arrival_Vessel_Berth:direction',
    'atBerth:Actual:Arrival_Vessel_Berth:direction=inbound:extra',
  ])('refuses the malformed entry %s', (entry) => {
    expect(() => parsePortCallTemplate(entry)).toThrow(`Invalid port call template entry: ${entry}`);
  });
});

describe('bundled templates', () => {
  it('match the data files exactly (regenerate with scripts/generate-templates.ts)', () => {
    const files = readdirSync(dataDir).filter((f) => f.endsWith('.txt'));
    expect([...PORT_CALL_TEMPLATE_NAMESPACES].sort()).toEqual(files.map((f) => f.slice(0, -4)).sort());
    for (const file of files) {
      const text = readFileSync(new URL(file, dataDir), 'utf8');
      expect(portCallTemplate(file.slice(0, -4))).toEqual(parsePortCallTemplate(text));
    }
  });

  it('Gävle: 24 lines in the original order, the AnchorageArea line twice, pilotage by direction', () => {
    const gavle = portCallTemplate('gavle')!;
    expect(gavle).toHaveLength(24);
    const byGroup = (group: string) => gavle.filter((e) => e.group === group).map(short);
    expect(byGroup('seaArriving')).toEqual([
      'Estimated Arrival_Vessel_PortArea',
      'LiveEstimated Arrival_Vessel_PortArea',
      'Recommended Arrival_Vessel_PortArea',
      'Planned Arrival_Vessel_PortArea',
      'Actual Arrival_Vessel_TrafficArea',
      'Actual Arrival_Vessel_AnchorageArea',
      'Actual Arrival_Vessel_AnchorageArea',
      'Estimated Pilotage_Commenced inbound',
      'Planned Pilotage_Commenced inbound',
      'Actual Pilotage_Commenced inbound',
      'Actual Arrival_Vessel_PortArea',
    ]);
    expect(byGroup('atBerth')).toEqual([
      'Actual Arrival_Vessel_Berth',
      'Actual Pilotage_Completed inbound',
      'Actual CargoOp_Commenced',
      'Estimated CargoOp_Completed',
      'Actual CargoOp_Completed',
      'Estimated Departure_Vessel_Berth',
      'Planned Departure_Vessel_Berth',
    ]);
    expect(byGroup('seaDeparting')).toEqual([
      'Estimated Pilotage_Commenced outbound',
      'Planned Pilotage_Commenced outbound',
      'Actual Pilotage_Commenced outbound',
      'Actual Departure_Vessel_Berth',
      'Actual Pilotage_Completed outbound',
      'Actual Departure_Vessel_PortArea',
    ]);
    expect(gavle.map((e) => e.group)).toEqual(
      [...gavle.map((e) => e.group)].sort((a, b) => TEMPLATE_GROUPS.indexOf(a) - TEMPLATE_GROUPS.indexOf(b)),
    );
    expect(gavle.filter((e) => e.location === 'port').every((e) => e.group === 'atBerth')).toBe(true);
  });

  it('Rauma: the Gävle template minus its LiveEstimated, TrafficArea, AnchorageArea and PortArea actuals', () => {
    const rauma = portCallTemplate('rauma')!.map(short);
    const removed = new Set([
      'LiveEstimated Arrival_Vessel_PortArea',
      'Actual Arrival_Vessel_TrafficArea',
      'Actual Arrival_Vessel_AnchorageArea',
      'Actual Arrival_Vessel_PortArea',
      'Actual Departure_Vessel_PortArea',
    ]);
    expect(rauma).toHaveLength(18);
    expect(rauma).toEqual(
      portCallTemplate('gavle')!
        .map(short)
        .filter((e) => !removed.has(e)),
    );
  });

  it('looks namespaces up case-insensitively; none for an unknown namespace', () => {
    expect(portCallTemplate('GAVLE')).toBe(portCallTemplate('gavle'));
    expect(portCallTemplate('helsinki')).toBeUndefined();
    expect(templatePairs('helsinki')).toBeUndefined();
  });

  it('entries cannot be changed by a caller', () => {
    const gavle = portCallTemplate('gavle') as unknown as { time_type: string }[];
    expect(() => {
      gavle[0].time_type = 'Actual';
    }).toThrow();
  });
});

describe('templatePairs', () => {
  it('Gävle: the distinct postable pairs in template order, without LiveEstimated, directions merged', () => {
    expect(templatePairs('gavle')!.map((p) => `${p.time_type} ${p.state}`)).toEqual([
      'Estimated Arrival_Vessel_PortArea',
      'Recommended Arrival_Vessel_PortArea',
      'Planned Arrival_Vessel_PortArea',
      'Actual Arrival_Vessel_TrafficArea',
      'Actual Arrival_Vessel_AnchorageArea',
      'Estimated Pilotage_Commenced',
      'Planned Pilotage_Commenced',
      'Actual Pilotage_Commenced',
      'Actual Arrival_Vessel_PortArea',
      'Actual Arrival_Vessel_Berth',
      'Actual Pilotage_Completed',
      'Actual CargoOp_Commenced',
      'Estimated CargoOp_Completed',
      'Actual CargoOp_Completed',
      'Estimated Departure_Vessel_Berth',
      'Planned Departure_Vessel_Berth',
      'Actual Departure_Vessel_Berth',
      'Actual Departure_Vessel_PortArea',
    ]);
    expect(templatePairs('Gavle')).toBe(templatePairs('gavle'));
  });

  it('Rauma: 14 pairs', () => {
    expect(templatePairs('rauma')).toHaveLength(14);
    expect(templatePairs('rauma')).not.toContainEqual({ time_type: 'Actual', state: 'Arrival_Vessel_PortArea' });
  });
});
