// Gate passages as the API sends them (GET logistics-timestamps/:limit, a bare array newest first, and
// GET logistics-timestamps/by-license-plate/:plate, {license_plate, timestamps}), read defensively: a gate system
// may leave out plates or containers, and a malformed row must not take the list down.

export const LOGISTICS_CHANNEL = 'logistics-changed';
export const LIMITS = [100, 500, 1000] as const;
export type Limit = (typeof LIMITS)[number];

export const listPath = (limit: Limit): string => `logistics-timestamps/${limit}`;
export const plateSearchPath = (plate: string): string =>
  `logistics-timestamps/by-license-plate/${encodeURIComponent(plate)}`;

export interface Plate {
  number: string;
  nationality: string;
}

export interface Passage {
  key: string;
  time: string;
  checkpoint: string;
  direction: 'In' | 'Out' | null;
  externalId: string;
  frontPlates: Plate[];
  rearPlates: Plate[];
  containers: string[];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function platesOf(value: unknown): Plate[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((plate) => {
      const item = plate && typeof plate === 'object' ? (plate as Record<string, unknown>) : {};
      return { number: text(item.number), nationality: text(item.nationality) };
    })
    .filter((plate) => plate.number !== '');
}

function containersOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((container) =>
      container && typeof container === 'object' ? text((container as Record<string, unknown>).identification) : '',
    )
    .filter((id) => id !== '');
}

function passageOf(row: unknown, index: number): Passage | null {
  if (!row || typeof row !== 'object') return null;
  const item = row as Record<string, unknown>;
  const direction = item.direction === 'In' || item.direction === 'Out' ? item.direction : null;
  const time = text(item.time);
  const checkpoint = text(item.checkpoint);
  const externalId = text(item.external_id);
  return {
    // Two passages at the same gate and second are different trucks; the index keeps keys unique.
    key: `${time}|${checkpoint}|${item.direction}|${externalId}|${index}`,
    time,
    checkpoint,
    direction,
    externalId,
    frontPlates: platesOf(item.front_license_plates),
    rearPlates: platesOf(item.rear_license_plates),
    containers: containersOf(item.containers),
  };
}

function timeValue(passage: Passage): number {
  const value = Date.parse(passage.time);
  return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
}

function rowsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as { timestamps?: unknown }).timestamps)) {
    return (body as { timestamps: unknown[] }).timestamps;
  }
  return [];
}

/**
 * The passages of one or more answers (a list, or the searches of a plate's forms), newest first (the API's order
 * kept when times are equal or unreadable); a passage found by two searches is shown once.
 */
export function passagesOf(...bodies: unknown[]): Passage[] {
  const seen = new Set<string>();
  const rows = bodies.flatMap(rowsOf).filter((row) => {
    const identity = JSON.stringify(row);
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
  return rows
    .map(passageOf)
    .filter((passage): passage is Passage => passage !== null)
    .map((passage, index) => ({ passage, index }))
    .sort((a, b) => timeValue(b.passage) - timeValue(a.passage) || a.index - b.index)
    .map(({ passage }) => passage);
}

/** `ABC123` → `ABC-123`, as plates are painted; a number already dashed, spaced or of another shape is kept. */
export function formatPlate(number: string): string {
  const upper = number.trim().toUpperCase();
  const match = /^([A-ZÅÄÖ]+)(\d+)$/.exec(upper);
  return match ? `${match[1]}-${match[2]}` : upper;
}

/**
 * The forms of a typed plate a search asks for (the API matches plate numbers exactly): first without dashes or
 * spaces, as gate systems record them (the original's plate filter drops dashes too), so `abc-123` finds `ABC123`;
 * then as typed, in capitals, in case a gate records the dash.
 */
export function plateForms(input: string): string[] {
  const asTyped = input.trim().toUpperCase().replace(/\s+/g, ' ');
  const bare = asTyped.replace(/[\s-]+/g, '');
  if (bare === '') return [];
  return bare === asTyped ? [bare] : [bare, asTyped];
}
