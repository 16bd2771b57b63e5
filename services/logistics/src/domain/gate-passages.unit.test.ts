import type { RecordGatePassageCommand } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { gatePassage } from '../testing/gate-passages.ts';
import { decideGatePassage, gatePassageEventId, MAX_ITEMS, readGatePassage } from './gate-passages.ts';

const message = (over: Partial<RecordGatePassageCommand>) => {
  try {
    readGatePassage(gatePassage(over));
  } catch (error) {
    return [(error as { status: number }).status, (error as Error).message];
  }
  return 'accepted';
};

describe('a gate passage as posted', () => {
  it('is kept with its time in UTC and plates and containers in a fixed key order', () => {
    const reordered = gatePassage({ rear_license_plates: [{ nationality: 'FI', number: 'TRL77' }] });
    expect(readGatePassage(reordered)).toEqual({ ...gatePassage(), time: '2026-11-25T10:00:00+00:00' });
    expect(readGatePassage(gatePassage({ time: '2026-11-25T10:30:00.250Z', direction: 'Out' }))).toMatchObject({
      time: '2026-11-25T10:30:00+00:00',
      direction: 'Out',
    });
    expect(readGatePassage(gatePassage({ time: '2026-11-25T05:30:00-0500' })).time).toBe('2026-11-25T10:30:00+00:00');
  });

  it('the direction is In or Out', () => {
    expect(message({ direction: 'in' })).toEqual([400, 'Invalid direction value: in']);
    expect(message({ direction: '' })).toEqual([400, 'Invalid direction value: ']);
  });

  it('the time passes the agent format check', () => {
    const [status, text] = message({ time: '2026-11-25 10:30' }) as [number, string];
    expect(status).toBe(400);
    expect(text).toMatch(/^Invalid date format: 2026-11-25 10:30\. Use format YYYY-MM-DDThh:mm:ssZ/);
    expect(message({ time: '2026-02-30T10:00:00Z' })).toEqual([400, expect.stringMatching(/^Invalid date format/)]);
  });

  it('plates and containers have exactly their keys, missing ones named first', () => {
    expect(message({ front_license_plates: [{ number: 'A' }] })).toEqual([
      400,
      'Missing parameter(s) from front_license_plates: nationality',
    ]);
    expect(message({ rear_license_plates: [{}] })).toEqual([
      400,
      'Missing parameter(s) from rear_license_plates: number, nationality',
    ]);
    expect(message({ containers: [{ identification: 'X', seal: 1, colour: 'red' }] })).toEqual([
      400,
      'Invalid parameter(s) in containers: seal, colour',
    ]);
    expect(message({ containers: ['MSCU1'] })).toEqual([400, 'Missing parameter(s) from containers: identification']);
    expect(message({ front_license_plates: [{ number: 12, nationality: 'FI' }] })).toEqual([
      400,
      'Invalid parameter(s) in front_license_plates: number must be text of at most 255',
    ]);
    expect(message({ containers: Array.from({ length: MAX_ITEMS + 1 }, () => ({ identification: 'x' })) })).toEqual([
      400,
      `Too many items in containers: at most ${MAX_ITEMS}`,
    ]);
    expect(message({ front_license_plates: [], rear_license_plates: [], containers: [] })).toBe('accepted');
  });
});

describe('the passage event', () => {
  const actor = { user_id: 5, api_key_id: 9 };

  it('carries the passage and who posted it', () => {
    const event = decideGatePassage(readGatePassage(gatePassage()), actor);
    expect(event.type).toBe('GatePassageRecorded');
    expect(event.data).toMatchObject({ checkpoint: 'Gate 1', user_id: 5, api_key_id: 9 });
    expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the same passage (also in another time zone or key order, by another key) has the same id', () => {
    const id = gatePassageEventId(readGatePassage(gatePassage()));
    const same = gatePassage({
      time: '2026-11-25T10:00:00Z',
      rear_license_plates: [{ nationality: 'FI', number: 'TRL77' }],
    });
    expect(decideGatePassage(readGatePassage(same), { user_id: 6, api_key_id: 10 }).id).toBe(id);
  });

  it('any difference in time, checkpoint, direction or payload gives another id', () => {
    const id = gatePassageEventId(readGatePassage(gatePassage()));
    for (const over of [
      { time: '2026-11-25T12:00:01+02:00' },
      { checkpoint: 'Gate 2' },
      { direction: 'Out' },
      { external_id: 502 },
      { front_license_plates: [{ number: 'ABC124', nationality: 'FI' }] },
      { rear_license_plates: [] },
      { containers: [{ identification: 'MSCU1234568' }] },
    ]) {
      expect(gatePassageEventId(readGatePassage(gatePassage(over)))).not.toBe(id);
    }
  });
});
