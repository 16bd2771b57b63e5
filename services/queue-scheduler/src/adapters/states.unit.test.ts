import { describe, expect, it } from 'vitest';
import { slotsById } from './states.ts';

describe('the berth’s other vessels read for a change', () => {
  const row = (id: number, laytime_s: number) => ({
    id,
    email: 'v@example.com',
    imo: 9074729,
    vessel_name: `V${id}`,
    loa: 100,
    beam: 20,
    draft: 5,
    laytime_s,
    eta: '2030-01-10T00:00:00+00:00',
    status: 'accepted' as const,
    nomination_id: 7,
    berth_id: 1,
    berth_reservation_id: 100 + id,
    rta_window_start: '2030-01-10T00:00:00+00:00',
    rta_window_end: '2030-01-10T00:30:00+00:00',
    jit_eta: null,
    version: 3,
  });

  it('are the rows as states by id, the same state each time asked, none for an id not read', () => {
    const others = slotsById([row(2, 5400), row(3, 7200)]);
    const { laytime_s: _, version: __, ...rest } = row(3, 7200);
    expect(others.get(3)).toEqual({ state: { ...rest, laytime: 'PT2H' }, version: 3 });
    expect(others.get(3)).toBe(others.get(3));
    expect(others.get(2)?.state.laytime).toBe('PT1H30M');
    expect(others.get(4)).toBeUndefined();
  });
});
