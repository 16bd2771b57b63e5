import { describe, expect, it } from 'vitest';
import {
  creatorIds,
  creatorName,
  isoInZone,
  isTimeZone,
  phpUrlencode,
  type Timeline,
  timelineSlots,
  timesheetCsv,
  withSources,
} from './port-calls.ts';

const eta = {
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2020-02-23T20:15:00+00:00',
  created_at: '2020-02-20T10:00:00+00:00',
  created_by: 7,
  weight: 2,
  payload: { berth_name: 'B1' },
  source: '',
};
const ata = { ...eta, time_type: 'Actual', state: 'Arrival_Vessel_Berth', created_by: 9, source: '' };

const timeline = (): Timeline => ({
  id: 1,
  events: [
    { id: 1, location: 'sea', timestamps: [eta, { time_type: 'Planned', state: 'Arrival_Vessel_PortArea' }] },
    { id: 2, location: 'port', timestamps: [ata] },
    {
      id: 3,
      location: 'sea',
      timestamps: [{ time_type: 'Actual', state: 'Pilotage_Commenced', payload: { direction: 'outbound' } }],
    },
  ],
});

describe('timeline sources', () => {
  it('names an API key by its name and a person as "First Last (email)"', () => {
    expect(creatorName({ id: 1, first_name: 'A', last_name: 'B', email: 'a@b.c', api_key_name: 'Portnet' })).toBe(
      'Portnet',
    );
    expect(creatorName({ id: 1, first_name: 'Ann', last_name: 'Berg', email: 'a@b.c', api_key_name: null })).toBe(
      'Ann Berg (a@b.c)',
    );
  });

  it('collects the creators of filled slots only, and fills in their sources ("" when unknown)', () => {
    const t = timeline();
    expect(creatorIds([t, t])).toEqual([7, 9]);
    const named = withSources(t, new Map([[7, 'K1']]));
    expect(named.events[0].timestamps[0]).toEqual({ ...eta, source: 'K1' });
    expect(named.events[1].timestamps[0].source).toBe('');
    // Placeholders get no source.
    expect(named.events[0].timestamps[1]).toEqual({ time_type: 'Planned', state: 'Arrival_Vessel_PortArea' });
    // The input is left as it was.
    expect(t.events[0].timestamps[0].source).toBe('');
  });

  it('lists every slot of the three groups in order', () => {
    expect(timelineSlots(timeline()).map((s) => s.state)).toEqual([
      'Arrival_Vessel_PortArea',
      'Arrival_Vessel_PortArea',
      'Arrival_Vessel_Berth',
      'Pilotage_Commenced',
    ]);
  });
});

describe('time zones', () => {
  it('knows IANA zones and refuses made-up ones', () => {
    expect(isTimeZone('Europe/Helsinki')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    for (const zone of ['Europe/Nowhere', '', '  ', 'x'.repeat(100), 12]) expect(isTimeZone(zone)).toBe(false);
  });

  it('renders an instant in the zone with its offset, summer time included', () => {
    expect(isoInZone('2020-02-23T20:15:00+00:00', 'Europe/Helsinki')).toBe('2020-02-23T22:15:00+02:00');
    expect(isoInZone('2020-07-01T20:15:00+00:00', 'Europe/Helsinki')).toBe('2020-07-01T23:15:00+03:00');
    expect(isoInZone('2020-02-23T20:15:00+00:00', 'America/St_Johns')).toBe('2020-02-23T16:45:00-03:30');
    expect(isoInZone('2020-02-23T20:15:00+00:00', 'UTC')).toBe('2020-02-23T20:15:00+00:00');
    expect(() => isoInZone('2020-02-23T20:15:00+00:00', 'Mars/Olympus')).toThrow('Invalid time zone: Mars/Olympus');
  });
});

describe('timesheet CSV', () => {
  const ship = {
    id: 42,
    imo: 9201827,
    vessel_name: 'LADY "C" Ö',
    nationality: 'FI',
    from_port: 'SEGVX',
    to_port: '',
    next_port: 'FIRAU',
    berth_name: '',
  };

  it('has the header row, one row per slot in order, translated events and zoned times', () => {
    const sheet = timesheetCsv(ship, timelineSlots(timeline()), {
      timeZone: 'Europe/Helsinki',
      translate: (text) => (text === 'Actual Arrival Vessel Berth' ? 'ATA "berth"' : undefined),
    });
    expect(sheet.filename).toBe('42-9201827-LADY+%22C%22+%C3%96.csv');
    expect(sheet.body.split('\n')).toEqual([
      '"IMO","Name","Nationality","From","To","Next","Berth","Event","Time"',
      '"9201827","LADY ""C"" Ö","FI","SEGVX","","FIRAU","","Estimated Arrival Vessel PortArea","2020-02-23T22:15:00+02:00"',
      '"9201827","LADY ""C"" Ö","FI","SEGVX","","FIRAU","","Planned Arrival Vessel PortArea",""',
      '"9201827","LADY ""C"" Ö","FI","SEGVX","","FIRAU","","ATA  berth ","2020-02-23T22:15:00+02:00"',
      '"9201827","LADY ""C"" Ö","FI","SEGVX","","FIRAU","","Actual Pilotage Commenced",""',
      '',
    ]);
  });

  it('refuses a zone that does not exist', () => {
    expect(() => timesheetCsv(ship, [], { timeZone: 'Europe/Atlantis' })).toThrow('Invalid time zone: Europe/Atlantis');
  });

  it("encodes file names as PHP's urlencode", () => {
    expect(phpUrlencode("a b!'()*~-_.ä/")).toBe('a+b%21%27%28%29%2A%7E-_.%C3%A4%2F');
  });
});
