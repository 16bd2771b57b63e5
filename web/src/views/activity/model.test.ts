import { describe, expect, it } from 'vitest';
import {
  filterCards,
  firstCards,
  newCount,
  ongoingPortCallsOf,
  orderCards,
  type Part,
  type PortCallCard,
  type Slot,
  slotAt,
  timelineOf,
  togglePinned,
} from './model.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const iso = (hoursFromNow: number) => `${new Date(NOW + hoursFromNow * 3600_000).toISOString().slice(0, 19)}+00:00`;

function slot(time_type: string, state: string, time: string | null, created_at: string | null = null): Slot {
  return slotAt({ key: `${time_type}-${state}`, time_type, state, time, created_at, source: 'src', direction: '' });
}

/** The first part of a timeline: at sea, before the port area. */
const seaPart = (...slots: Slot[]): Part => ({ key: '1', location: 'sea', slots });

function entry(id: number, imo: number, name: string, extra: Record<string, unknown> = {}) {
  return { ship: { id, imo, vessel_name: name, ...extra }, portcalls: [{ events: [] }] };
}

describe('the timeline of a port call', () => {
  const parts: Part[] = [
    seaPart(
      slot('Estimated', 'Arrival_Vessel_PortArea', iso(5)),
      slot('Recommended', 'Arrival_Vessel_PortArea', null),
      slot('Actual', 'Arrival_Vessel_TrafficArea', iso(-1)),
    ),
    {
      key: '2',
      location: 'port',
      slots: [slot('Actual', 'Arrival_Vessel_Berth', null), slot('Estimated', 'Departure_Vessel_Berth', iso(30))],
    },
    { key: '3', location: 'sea', slots: [slot('Actual', 'Departure_Vessel_PortArea', null)] },
  ];

  it('orders each part by time and puts now after the last past timestamp', () => {
    const timeline = timelineOf(parts, NOW);
    expect(timeline.parts.map((part) => part.title)).toEqual(['Arriving: sea and port area', 'At berth', 'Departing']);
    // The actual time of the traffic area comes before the ETA in time, though after it in the template.
    expect(timeline.parts[0].rows.map((row) => [row.slot.state, row.slot.time_type, row.past])).toEqual([
      ['Arrival_Vessel_TrafficArea', 'Actual', true],
      ['Arrival_Vessel_PortArea', 'Estimated', false],
    ]);
    expect(timeline.marker).toEqual({ part: 0, row: 1 });
    expect(timeline.parts[1].rows.map((row) => row.past)).toEqual([false]);
    expect(timeline.parts[0].placeholders.map((s) => s.time_type)).toEqual(['Recommended']);
    expect(timeline.reported).toBe(3);
  });

  it('counts an estimate whose time has passed as past, and an actual one as past whatever its time', () => {
    const timeline = timelineOf(
      [
        seaPart(slot('Estimated', 'Arrival_Vessel_PortArea', iso(-2)), slot('Actual', 'Arrival_Vessel_Berth', iso(1))),
        { key: '2', location: 'port', slots: [slot('Estimated', 'Departure_Vessel_Berth', iso(3))] },
      ],
      NOW,
    );
    expect(timeline.parts[0].rows.map((row) => row.past)).toEqual([true, true]);
    // After the last past row of the first part: between the parts.
    expect(timeline.marker).toEqual({ part: 0, row: 2 });
  });

  it('puts now first when nothing has happened, and last when everything has', () => {
    const future = timelineOf([seaPart(slot('Estimated', 'X', iso(1)))], NOW);
    expect(future.marker).toEqual({ part: 0, row: 0 });
    const past = timelineOf([seaPart(), { key: '2', location: 'port', slots: [slot('Actual', 'Y', iso(-1))] }], NOW);
    expect(past.marker).toEqual({ part: 1, row: 1 });
    const nothingYet = timelineOf([seaPart(slot('Estimated', 'X', null))], NOW);
    expect(nothingYet.reported).toBe(0);
  });

  it('marks a timestamp received in the last ten minutes as fresh', () => {
    const timeline = timelineOf(
      [
        seaPart(
          slot('Estimated', 'A', iso(1), iso(-9 / 60)),
          slot('Estimated', 'B', iso(2), iso(-11 / 60)),
          slot('Estimated', 'C', iso(3), null),
        ),
      ],
      NOW,
    );
    expect(timeline.parts[0].rows.map((row) => row.fresh)).toEqual([true, false, false]);
  });

  it('counts a timestamp received in the second of the last look as new (the API gives whole seconds)', () => {
    const look = Date.parse('2026-05-04T10:00:05.600Z');
    const at = (created: string) =>
      timelineOf([seaPart(slot('Estimated', 'A', iso(1), created))], NOW, look).parts[0].rows[0].fresh;
    expect(at('2026-05-04T10:00:05+00:00')).toBe(true);
    expect(at('2026-05-04T10:00:06+00:00')).toBe(true);
    expect(at('2026-05-04T10:00:04+00:00')).toBe(false);
    // The card's "New" count follows the same rule.
    const card = (created: string) => ({ parts: [seaPart(slot('Estimated', 'A', iso(1), created))] }) as PortCallCard;
    expect(newCount(card('2026-05-04T10:00:05+00:00'), look)).toBe(1);
    expect(newCount(card('2026-05-04T10:00:04+00:00'), look)).toBe(0);
  });
});

describe('reading GET ongoing-port-calls', () => {
  it('reads the ship and the first port call of each entry', () => {
    const { cards, pinned } = ongoingPortCallsOf({
      portcalls: [
        {
          ship: {
            id: 7,
            imo: 9074729,
            vessel_name: 'Test Vessel',
            from_port: 'SESTO',
            badges: [{ type: 'success', value: 'arriving' }],
            next_event: { title: 'ETA', ts: '2026-11-26T10:00:00+00:00' },
          },
          portcalls: [
            {
              id: 1,
              events: [
                {
                  id: 1,
                  location: 'sea',
                  timestamps: [
                    {
                      time_type: 'Estimated',
                      state: 'Pilotage_Commenced',
                      time: null,
                      payload: { direction: 'inbound' },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
      pinned_vessels: [9074729],
    });
    expect(pinned).toEqual([9074729]);
    expect(cards[0].key).toBe('pc-7');
    expect(cards[0].ship).toMatchObject({ id: 7, imo: 9074729, from_port: 'SESTO', to_port: '', next_port: '' });
    expect(cards[0].ship.next_event).toEqual({ title: 'ETA', ts: '2026-11-26T10:00:00+00:00' });
    expect(cards[0].parts[0].slots[0]).toMatchObject({ direction: 'inbound', time: null });
  });

  it('survives unexpected data: missing ships, fields of other types, empty or missing events', () => {
    const { cards, pinned } = ongoingPortCallsOf({
      portcalls: [
        null,
        {},
        { ship: { id: '12', imo: 'x', vessel_name: 42, badges: 'no', next_event: null }, portcalls: [] },
        { ship: { id: 5 }, portcalls: [{ events: [{ id: 1, location: 'sea', timestamps: [null, { state: 1 }] }] }] },
        { ship: { id: 5 }, portcalls: 'none' },
      ],
      pinned_vessels: ['9074729', null, 'abc'],
    });
    expect(cards).toHaveLength(5);
    expect(cards[2].ship).toMatchObject({ id: 12, imo: null, vessel_name: '42', badges: [], next_event: null });
    expect(cards[3].parts[0].slots).toEqual([]);
    // Keys stay unique for React.
    expect(new Set(cards.map((card) => card.key)).size).toBe(5);
    expect(pinned).toEqual([9074729]);
    expect(ongoingPortCallsOf(null)).toEqual({ cards: [], pinned: [] });
    expect(ongoingPortCallsOf({ portcalls: 'x' }).cards).toEqual([]);
  });

  it('keeps the card of an entry that did not change, so its card is not rendered again', () => {
    const same = entry(1, 9074729, 'A');
    const first = ongoingPortCallsOf({ portcalls: [same, entry(2, 9319466, 'B')] });
    const second = ongoingPortCallsOf({ portcalls: [same, entry(2, 9319466, 'B')] });
    expect(second.cards[0]).toBe(first.cards[0]);
    expect(second.cards[1]).not.toBe(first.cards[1]);
  });
});

describe('order, search and pins', () => {
  const { cards } = ongoingPortCallsOf({
    portcalls: [entry(1, 9074729, 'Alpha'), entry(2, 9319466, 'Bravo'), entry(3, 9176187, 'Charlie')],
  });

  it('puts pinned vessels first in the order pinned, the rest in arrival order', () => {
    expect(orderCards(cards, []).map((card) => card.ship.vessel_name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(orderCards(cards, [9176187, 9319466]).map((card) => card.ship.vessel_name)).toEqual([
      'Charlie',
      'Bravo',
      'Alpha',
    ]);
  });

  it('finds vessels by a part of the name, in any case, or of the IMO', () => {
    expect(filterCards(cards, 'ALP').map((card) => card.ship.vessel_name)).toEqual(['Alpha']);
    expect(filterCards(cards, ' 93194 ').map((card) => card.ship.vessel_name)).toEqual(['Bravo']);
    expect(filterCards(cards, 'zulu')).toEqual([]);
    expect(filterCards(cards, '')).toBe(cards);
  });

  it('adds or removes one vessel from the whole list', () => {
    expect(togglePinned([1, 2], 3)).toEqual([1, 2, 3]);
    expect(togglePinned([1, 2, 3], 2)).toEqual([1, 3]);
  });
});

describe('the cards shown under a limit', () => {
  it('keeps the first cards across the groups in order, drops a group left without any, and counts each in full', () => {
    const card = (key: string) => ({ key }) as unknown as PortCallCard;
    const groups = [
      { key: 'pinned', title: 'Pinned', cards: [card('a')] },
      { key: 'moving', title: 'Next arrivals and departures', cards: [card('b'), card('c')] },
      { key: 'berth', title: 'At berth', cards: [card('d')] },
    ];
    const shown = firstCards(groups, 2).map((group) => [group.key, group.shown.map((c) => c.key), group.cards.length]);
    expect(shown).toEqual([
      ['pinned', ['a'], 1],
      ['moving', ['b'], 2],
    ]);
    expect(firstCards(groups, 0)).toEqual([]);
  });
});
