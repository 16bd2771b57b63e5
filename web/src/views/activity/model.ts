// The activity timeline's data: GET ongoing-port-calls read defensively (any field may be missing or of another
// type without the view failing, which is where the original crashed), and the three-part timeline of one port
// call split into past and future around "now".

import { normaliseTime } from '../../components/time.ts';
import { isDcsaSourced } from '../dcsa/model.ts';

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
  /** The projector's status (`arriving`, `at berth`, `departing`, `departed berth`, `departed`, `done`). */
  status: string;
  berth: string;
  berth_name: string;
  /** The port call's own times (PostgreSQL text or ''), what the header falls back to without timeline slots. */
  current_eta: string;
  ata: string;
  current_etd: string;
  atd: string;
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
  /** Came through the DCSA bridge (docs/dcsa.md#the-web-ui): the partner's name ('' when not told); else absent. */
  dcsa?: string;
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
    status: text(ship.status),
    berth: text(ship.berth),
    berth_name: text(ship.berth_name),
    current_eta: text(ship.current_eta),
    ata: text(ship.ata),
    current_etd: text(ship.current_etd),
    atd: text(ship.atd),
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
  return slotAt({
    key: `${index}-${time_type}-${state}-${direction}`,
    time_type,
    state,
    time,
    created_at,
    source: text(raw.source),
    direction,
    dcsa: isDcsaSourced(raw.payload) ? (isObject(raw.payload) ? text(raw.payload.dcsa_partner) : '') : undefined,
  });
}

/** A slot with its times also in epoch ms, as the timeline compares them. */
export function slotAt(fields: Omit<Slot, 'ms' | 'createdMs'>): Slot {
  return { ...fields, ms: timeMs(fields.time), createdMs: timeMs(fields.created_at) };
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

/** On a user's first look in this browser, a timestamp received this recently counts as new. */
export const FRESH_MS = 10 * 60_000;

export interface TimelineRow {
  slot: Slot;
  /** Happened (an actual time) or due already (its time has passed). */
  past: boolean;
  /** Received since the user last looked (timelineOf's `newSince`). */
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
export function timelineOf(parts: readonly Part[], now: number, newSince: number = now - FRESH_MS): Timeline {
  const built: TimelinePart[] = parts.map((part, index) => {
    const reported = part.slots.filter((slot) => !Number.isNaN(slot.ms));
    reported.sort((a, b) => a.ms - b.ms);
    return {
      key: part.key,
      title: partTitle(part, index, parts.length),
      rows: reported.map((slot) => ({
        slot,
        past: slot.time_type === 'Actual' || slot.ms <= now,
        fresh: receivedSince(slot, newSince),
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

// ---- the card's header and the compact row ----

/** The time of an arrival or a departure for the header: which kind of report it is, and when. */
export interface HeaderTime {
  /** `ATA`, `ETA`, `PTA` (arrival) or `ATD`, `ETD`, `PTD` (departure). */
  label: string;
  time: string;
  ms: number;
  actual: boolean;
}

function slotsOf(card: PortCallCard, state: string): Slot[] {
  const found: Slot[] = [];
  for (const part of card.parts) {
    for (const slot of part.slots) if (slot.state === state && !Number.isNaN(slot.ms)) found.push(slot);
  }
  return found;
}

/**
 * The newest word on one state: the actual time when there is one, else the most recently received of the planned
 * and estimated ones. The timeline holds one slot per (time type, state), each already its priorities' winner, so
 * this is "whichever is newest by the priorities". The same rule draws the berth board's bars (GET berth-board).
 */
export function newestReport(slots: readonly Slot[]): Slot | null {
  const actual = slots.find((slot) => slot.time_type === 'Actual');
  if (actual) return actual;
  let best: Slot | null = null;
  for (const slot of slots) {
    const created = Number.isNaN(slot.createdMs) ? -1 : slot.createdMs;
    const bestCreated = best === null || Number.isNaN(best.createdMs) ? -1 : best.createdMs;
    if (best === null || created > bestCreated) best = slot;
  }
  return best;
}

function headerTime(slot: Slot | null, arrival: boolean): HeaderTime | null {
  if (!slot?.time) return null;
  const kind = slot.time_type === 'Actual' ? 'A' : slot.time_type === 'Planned' ? 'P' : 'E';
  return { label: `${kind}T${arrival ? 'A' : 'D'}`, time: slot.time, ms: slot.ms, actual: kind === 'A' };
}

function fallbackTime(actual: string, expected: string, arrival: boolean): HeaderTime | null {
  const [time, kind] = actual ? [actual, 'A'] : expected ? [expected, 'E'] : ['', ''];
  const ms = timeMs(time);
  if (!time || Number.isNaN(ms)) return null;
  return { label: `${kind}T${arrival ? 'A' : 'D'}`, time, ms, actual: kind === 'A' };
}

/** The arrival: at the berth, else (nothing reported for the berth) at the port area, else the port call's ETA. */
export function arrivalOf(card: PortCallCard): HeaderTime | null {
  const berth = newestReport(slotsOf(card, 'Arrival_Vessel_Berth'));
  const area = berth ? null : newestReport(slotsOf(card, 'Arrival_Vessel_PortArea'));
  return headerTime(berth ?? area, true) ?? fallbackTime(card.ship.ata, card.ship.current_eta, true);
}

/** The departure from the berth, else the port call's ETD. */
export function departureOf(card: PortCallCard): HeaderTime | null {
  return (
    headerTime(newestReport(slotsOf(card, 'Departure_Vessel_Berth')), false) ??
    fallbackTime(card.ship.atd, card.ship.current_etd, false)
  );
}

/** When the newest of the port call's timestamps was received (epoch ms), NaN when none says. */
export function newestReceived(card: PortCallCard): number {
  let newest = Number.NaN;
  for (const part of card.parts) {
    for (const slot of part.slots) {
      if (!Number.isNaN(slot.createdMs) && !(slot.createdMs <= newest)) newest = slot.createdMs;
    }
  }
  return newest;
}

/** How many of the port call's timestamps were received after `since`. */
export function newCount(card: PortCallCard, since: number): number {
  let count = 0;
  for (const part of card.parts) {
    for (const slot of part.slots) if (!Number.isNaN(slot.ms) && receivedSince(slot, since)) count++;
  }
  return count;
}

/**
 * Whether a timestamp is new to a user who last looked at `since` (epoch ms). A clock behind the server's makes a
 * new one look received in the future: still new. The API gives the second only: one received in the second of
 * the last look may have come after it, so it counts as new.
 */
export function receivedSince(slot: Pick<Slot, 'createdMs'>, since: number): boolean {
  return !Number.isNaN(slot.createdMs) && slot.createdMs >= Math.floor(since / 1000) * 1000;
}

/** The route's ports that are known, each with what it is: no placeholder for a port nobody reported. */
export function routeOf(ship: Ship): Array<{ label: string; port: string }> {
  return [
    { label: 'From', port: ship.from_port },
    { label: 'To', port: ship.to_port },
    { label: 'Next port', port: ship.next_port },
  ].filter((stop) => stop.port.trim() !== '');
}

/** The berth in words: its name, else its code. */
export const berthOf = (ship: Ship): string => ship.berth_name || ship.berth;

// ---- order and grouping ----

/** The orders a user may choose; `movements` is the default. */
export const ORDERS = ['movements', 'arrival', 'name'] as const;
export type Order = (typeof ORDERS)[number];

export interface CardGroup {
  key: string;
  /** English, a translation key; '' for the one group of an order without groups. */
  title: string;
  cards: PortCallCard[];
}

const AT_BERTH = new Set(['at berth']);
const GONE = new Set(['departed', 'done']);
const DEPARTING = new Set(['departing', 'departed berth']);

const byTime = (key: (card: PortCallCard) => number) => (a: PortCallCard, b: PortCallCard) => {
  const x = key(a);
  const y = key(b);
  // Cards with no time go last, in the API's order.
  if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
  if (Number.isNaN(y)) return -1;
  return x - y;
};
const arrivalMs = (card: PortCallCard) => arrivalOf(card)?.ms ?? Number.NaN;
const departureMs = (card: PortCallCard) => departureOf(card)?.ms ?? Number.NaN;

/**
 * The cards in the user's order, pinned vessels first (in the order they were pinned):
 * - `movements` (default): the next arrivals and departures in time order (an arriving vessel by its arrival, a
 *   departing one by its departure), then the vessels at berth grouped (by departure), then the departed ones;
 * - `arrival`: by arrival (ATA, else ETA), earliest first;
 * - `name`: by vessel name.
 */
export function groupCards(cards: readonly PortCallCard[], pinned: readonly number[], order: Order): CardGroup[] {
  const rank = new Map(pinned.map((imo, index) => [imo, index]));
  const isPinned = (card: PortCallCard) => card.ship.imo !== null && rank.has(card.ship.imo);
  const pins = cards.filter(isPinned).sort((a, b) => rank.get(a.ship.imo!)! - rank.get(b.ship.imo!)!);
  const rest = cards.filter((card) => !isPinned(card));
  const groups: CardGroup[] = [];
  const add = (key: string, title: string, list: PortCallCard[]) => {
    if (list.length > 0) groups.push({ key, title, cards: list });
  };
  add('pinned', order === 'movements' ? 'Pinned' : '', pins);
  if (order === 'name') {
    add(
      'all',
      '',
      [...rest].sort((a, b) => a.ship.vessel_name.localeCompare(b.ship.vessel_name)),
    );
  } else if (order === 'arrival') {
    add('all', '', [...rest].sort(byTime(arrivalMs)));
  } else {
    const moving = rest.filter((card) => !AT_BERTH.has(card.ship.status) && !GONE.has(card.ship.status));
    const movementMs = (card: PortCallCard) => (DEPARTING.has(card.ship.status) ? departureMs(card) : arrivalMs(card));
    add('moving', 'Next arrivals and departures', moving.sort(byTime(movementMs)));
    add('berth', 'At berth', rest.filter((card) => AT_BERTH.has(card.ship.status)).sort(byTime(departureMs)));
    add('gone', 'Departed', rest.filter((card) => GONE.has(card.ship.status)).sort(byTime(departureMs)));
  }
  // An order without groups reads as one list: the pinned ones simply come first.
  if (order !== 'movements' && groups.length > 1) {
    return [{ key: 'all', title: '', cards: groups.flatMap((group) => group.cards) }];
  }
  return groups;
}

/** A group as shown: `shown` is the part of its cards within the view's limit (`cards` still counts them all). */
export interface ShownGroup extends CardGroup {
  shown: PortCallCard[];
}

/** The groups cut to the first `limit` cards in all, in order; a group with none of them left is dropped. */
export function firstCards(groups: readonly CardGroup[], limit: number): ShownGroup[] {
  let left = limit;
  const result: ShownGroup[] = [];
  for (const group of groups) {
    const shown = group.cards.slice(0, Math.max(0, left));
    left -= shown.length;
    if (shown.length > 0) result.push({ ...group, shown });
  }
  return result;
}
