// The activity timeline's data: GET ongoing-port-calls read defensively (any field may be missing or of another
// type without the view failing, which is where the original crashed), and the three-part timeline of one port
// call split into past and future around "now".

import { normaliseTime } from '../../components/time.ts';

export interface Badge {
  type: string;
  value: string;
}

export interface Ship {
  /** The port call's id (the original's card key and timesheet link). */
  id: number | null;
  imo: number | null;
  vessel_name: string;
  nationality: string;
  vessel_type_name: string;
  from_port: string;
  to_port: string;
  next_port: string;
  badges: Badge[];
  next_event: { title: string; ts: string } | null;
}

/** One slot of the port call template: a reported timestamp (time set) or a placeholder (time null). */
export interface Slot {
  key: string;
  time_type: string;
  state: string;
  time: string | null;
  /** `time` in epoch ms, NaN when there is none. */
  ms: number;
  created_at: string | null;
  createdMs: number;
  source: string;
  /** `inbound`/`outbound` for pilotage slots. */
  direction: string;
}

/** One part of the timeline: arriving (sea), at berth (port), departing (sea). */
export interface Part {
  key: string;
  location: string;
  slots: Slot[];
}

export interface PortCallCard {
  /** Stable React key: the port call id, else the IMO, else the position. */
  key: string;
  ship: Ship;
  parts: Part[];
  /** Lower-cased name and IMO, what the search box matches. */
  searchText: string;
}

export interface OngoingPortCalls {
  cards: PortCallCard[];
  pinned: number[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';

const integer = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
};

export const timeMs = (value: string | null): number => (value ? Date.parse(normaliseTime(value)) : Number.NaN);

function shipOf(raw: unknown): Ship {
  const ship = isObject(raw) ? raw : {};
  const next = isObject(ship.next_event) ? ship.next_event : null;
  const badges = Array.isArray(ship.badges)
    ? ship.badges.filter(isObject).map((badge) => ({ type: text(badge.type), value: text(badge.value) }))
    : [];
  return {
    id: integer(ship.id),
    imo: integer(ship.imo),
    vessel_name: text(ship.vessel_name),
    nationality: text(ship.nationality),
    vessel_type_name: text(ship.vessel_type_name),
    from_port: text(ship.from_port),
    to_port: text(ship.to_port),
    next_port: text(ship.next_port),
    badges: badges.filter((badge) => badge.value !== ''),
    next_event: next && text(next.ts) ? { title: text(next.title), ts: text(next.ts) } : null,
  };
}

function slotOf(raw: unknown, index: number): Slot | null {
  if (!isObject(raw)) return null;
  const time_type = text(raw.time_type);
  const state = text(raw.state);
  if (!time_type || !state) return null;
  const time = text(raw.time) || null;
  const created_at = text(raw.created_at) || null;
  const direction = isObject(raw.payload) ? text(raw.payload.direction) : '';
  return {
    key: `${index}-${time_type}-${state}-${direction}`,
    time_type,
    state,
    time,
    ms: timeMs(time),
    created_at,
    createdMs: timeMs(created_at),
    source: text(raw.source),
    direction,
  };
}

function partsOf(raw: unknown): Part[] {
  // Only the first port call of an entry is shown, as the original did.
  const first = Array.isArray(raw) && isObject(raw[0]) ? raw[0] : {};
  const events = Array.isArray(first.events) ? first.events.filter(isObject) : [];
  return events.map((event, index) => ({
    key: `${text(event.id) || index}`,
    location: text(event.location),
    slots: Array.isArray(event.timestamps)
      ? event.timestamps.map(slotOf).filter((slot): slot is Slot => slot !== null)
      : [],
  }));
}

// An entry that did not change keeps its object through a refetch (TanStack Query shares structure), so its
// card keeps its props and is not rendered again.
const cardCache = new WeakMap<object, PortCallCard>();

function cardOf(raw: unknown, index: number): PortCallCard {
  if (isObject(raw)) {
    const cached = cardCache.get(raw);
    if (cached) return cached;
  }
  const entry = isObject(raw) ? raw : {};
  const ship = shipOf(entry.ship);
  const card: PortCallCard = {
    key: ship.id !== null ? `pc-${ship.id}` : ship.imo !== null ? `imo-${ship.imo}` : `at-${index}`,
    ship,
    parts: partsOf(entry.portcalls),
    searchText: `${ship.vessel_name.toLowerCase()}\n${ship.imo ?? ''}`,
  };
  if (isObject(raw)) cardCache.set(raw, card);
  return card;
}

/** GET ongoing-port-calls, whatever it holds, as cards and the caller's pinned IMOs. */
export function ongoingPortCallsOf(raw: unknown): OngoingPortCalls {
  const body = isObject(raw) ? raw : {};
  const cards = Array.isArray(body.portcalls) ? body.portcalls.map(cardOf) : [];
  // Two entries with one key (not expected) would confuse React: later ones get their position added.
  const seen = new Set<string>();
  for (const [index, card] of cards.entries()) {
    if (seen.has(card.key)) cards[index] = { ...card, key: `${card.key}-${index}` };
    seen.add(cards[index].key);
  }
  const pinned = Array.isArray(body.pinned_vessels)
    ? body.pinned_vessels.map(integer).filter((imo): imo is number => imo !== null)
    : [];
  return { cards, pinned };
}

/** Pinned vessels first (in the order they were pinned), then the rest in the API's arrival order. */
export function orderCards(cards: readonly PortCallCard[], pinned: readonly number[]): PortCallCard[] {
  if (pinned.length === 0) return [...cards];
  const rank = new Map(pinned.map((imo, index) => [imo, index]));
  const first = cards.filter((card) => card.ship.imo !== null && rank.has(card.ship.imo));
  first.sort((a, b) => rank.get(a.ship.imo!)! - rank.get(b.ship.imo!)!);
  return [...first, ...cards.filter((card) => card.ship.imo === null || !rank.has(card.ship.imo))];
}

/** The cards whose vessel name or IMO contains the search text. */
export function filterCards(cards: readonly PortCallCard[], search: string): readonly PortCallCard[] {
  const wanted = search.trim().toLowerCase();
  if (!wanted) return cards;
  return cards.filter((card) => card.searchText.includes(wanted));
}

/** The pins after pinning or unpinning one vessel: the whole list, as PUT pinned-vessel-ids takes it. */
export function togglePinned(pinned: readonly number[], imo: number): number[] {
  return pinned.includes(imo) ? pinned.filter((other) => other !== imo) : [...pinned, imo];
}

// ---- the timeline of one port call ----

/** A timestamp received this recently is highlighted. */
export const FRESH_MS = 10 * 60_000;

export interface TimelineRow {
  slot: Slot;
  /** Happened (an actual time) or due already (its time has passed). */
  past: boolean;
  /** Received within the last ten minutes. */
  fresh: boolean;
}

export interface TimelinePart {
  key: string;
  /** The part's name (English, a translation key). */
  title: string;
  /** Reported timestamps, in time order. */
  rows: TimelineRow[];
  /** Template slots with no time yet (shown only when the whole timeline is). */
  placeholders: Slot[];
}

export interface Timeline {
  parts: TimelinePart[];
  /** "Now" goes before `rows[row]` of `parts[part]` (row may be rows.length: after the part's rows). */
  marker: { part: number; row: number };
  reported: number;
}

/** What each part of the template is: the original's events are sea (arriving), port (at berth), sea (departing). */
export function partTitle(part: Part, index: number, count: number): string {
  if (count === 3) return ['Arriving: sea and port area', 'At berth', 'Departing'][index];
  if (part.location === 'port') return 'In port';
  if (part.location === 'sea') return 'At sea';
  return part.location || 'Timeline';
}

/**
 * The timeline of a port call at `now`: in each part its reported timestamps in time order (template order where
 * times are equal), and "now" after the last one that is past, so what happened is above it and what is expected
 * below. An actual time counts as past whatever its value.
 */
export function timelineOf(parts: readonly Part[], now: number): Timeline {
  const built: TimelinePart[] = parts.map((part, index) => {
    const reported = part.slots.filter((slot) => !Number.isNaN(slot.ms));
    reported.sort((a, b) => a.ms - b.ms);
    return {
      key: part.key,
      title: partTitle(part, index, parts.length),
      rows: reported.map((slot) => ({
        slot,
        past: slot.time_type === 'Actual' || slot.ms <= now,
        // A clock behind the server's makes a new one look received in the future: still new.
        fresh: !Number.isNaN(slot.createdMs) && now - slot.createdMs < FRESH_MS,
      })),
      placeholders: part.slots.filter((slot) => Number.isNaN(slot.ms)),
    };
  });
  let marker = { part: 0, row: 0 };
  let firstWithRows = -1;
  for (const [partIndex, part] of built.entries()) {
    if (part.rows.length > 0 && firstWithRows < 0) firstWithRows = partIndex;
    for (const [rowIndex, row] of part.rows.entries()) {
      if (row.past) marker = { part: partIndex, row: rowIndex + 1 };
    }
  }
  // Nothing past: "now" is before the first reported timestamp.
  if (marker.row === 0 && firstWithRows >= 0) marker = { part: firstWithRows, row: 0 };
  const reported = built.reduce((sum, part) => sum + part.rows.length, 0);
  return { parts: built, marker, reported };
}

/** The human form of the next event's title (the projector's ETA, ETD, ATD). */
export function nextEventTitle(title: string): string {
  switch (title) {
    case 'ETA':
      return 'Estimated arrival';
    case 'ETD':
      return 'Estimated departure';
    case 'ATD':
      return 'Departed';
    case 'ATA':
      return 'Arrived';
    default:
      return title || 'Next event';
  }
}
