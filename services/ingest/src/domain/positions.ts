// Vessel positions from AIS agents (docs/domain.md#sea-chart). Pure: each item of POST /sea-chart/vessels is checked
// with the original's rules and messages, in its order, and either fails with a reason or becomes one
// VesselPositionRecorded event on its vessel's stream. An item names its vessel by IMO (a known vessel) or by MMSI
// alone (a vessel of an ongoing port call, or a fixed vessel); the event's id derives from the stream and the
// location time, so the same position posted again (a retry, a redelivered command) is stored once.

import {
  POSITION_SIGNAL_STREAMS,
  parseAgentTime,
  positionSignalStream,
  positionStream,
  type RecordVesselPositionsReply,
  type VesselPositionRecorded,
  type VesselPositionsRecorded,
} from '@pcas/contracts';
import { postedVesselIdentity } from '@pcas/values';
import { uuidV5 } from './event-id.ts';

/** What the checks look up, read in one go for a whole batch (adapters/positions.ts). */
export interface PositionLookups {
  /** Known vessels (ingest.vessels) by IMO: their names. */
  vessels: ReadonlyMap<number, string>;
  /** Fixed vessels by MMSI: their IMO (if any) and name. */
  fixedByMmsi: ReadonlyMap<number, { imo: number | null; vessel_name: string }>;
  /** Fixed vessels by IMO: their names. */
  fixedByImo: ReadonlyMap<number, string>;
  /** The vessels of the ongoing port calls by MMSI: their IMO. */
  ongoingByMmsi: ReadonlyMap<number, number>;
}

/** A position as it goes into its stream and onto the read model's row. */
export interface PositionEvent {
  streamId: string;
  id: string;
  type: 'VesselPositionRecorded';
  data: VesselPositionRecorded;
}

export interface PositionDecision {
  /** One per accepted item, in the items' order. */
  events: PositionEvent[];
  reply: RecordVesselPositionsReply;
}

/** A number as posted (JSON number or numeric text); null when absent. */
function numeric(value: unknown): number | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : 'invalid';
}

const shown = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** The identities of the batch's items, for the lookups. */
export function identitiesOf(items: readonly unknown[]): { imos: number[]; mmsis: number[] } {
  const imos = new Set<number>();
  const mmsis = new Set<number>();
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const { imo, mmsi } = item as Record<string, unknown>;
    const i = postedVesselIdentity(imo);
    const m = postedVesselIdentity(mmsi);
    if (typeof i === 'number') imos.add(i);
    if (typeof m === 'number') mmsis.add(m);
  }
  return { imos: [...imos], mmsis: [...mmsis] };
}

class ItemFailed extends Error {}
const fail = (reason: string): never => {
  throw new ItemFailed(reason);
};

/** Heading and course: 0 means "not given" (the original skipped its check), else 0–360. */
function degrees(value: unknown, name: string): number | null {
  const n = numeric(value);
  if (n === 'invalid' || (n !== null && n !== 0 && (n < 0 || n > 360))) fail(`Invalid ${name}: ${shown(value)}`);
  return n as number | null;
}

/** One item checked in the original's order; the position it records, or throws ItemFailed with the reason. */
function checkItem(item: unknown, lookups: PositionLookups): VesselPositionRecorded {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return fail('IMO and MMSI missing');
  const raw = item as Record<string, unknown>;
  const givenImo = postedVesselIdentity(raw.imo);
  const mmsi = postedVesselIdentity(raw.mmsi);
  if (givenImo === null && (mmsi === null || mmsi === 'invalid')) fail('IMO and MMSI missing');
  let imo: number | null;
  let vesselName: string;
  if (givenImo !== null) {
    if (givenImo === 'invalid' || !lookups.vessels.has(givenImo)) return fail(`Invalid imo: ${shown(raw.imo)}`);
    imo = givenImo;
    vesselName = lookups.fixedByImo.get(imo) ?? lookups.vessels.get(imo) ?? '';
  } else {
    // Known by MMSI only: a vessel of an ongoing port call first (as the original), else a fixed vessel.
    const m = mmsi as number;
    const fixed = lookups.fixedByMmsi.get(m);
    const ongoing = lookups.ongoingByMmsi.get(m);
    if (ongoing === undefined && !fixed) return fail('MMSI can not be matched to fixed vessels');
    imo = ongoing ?? fixed?.imo ?? null;
    vesselName = fixed?.vessel_name ?? (imo !== null ? lookups.vessels.get(imo) : undefined) ?? '';
  }
  const latitude = numeric(raw.latitude);
  const longitude = numeric(raw.longitude);
  if (latitude === null || longitude === null || latitude === 0 || longitude === 0)
    fail('Mandatory coordinates missing');
  if (latitude === 'invalid' || (latitude as number) < -90 || (latitude as number) > 90) {
    fail(`Invalid latitude: ${shown(raw.latitude)}`);
  }
  if (longitude === 'invalid' || (longitude as number) < -180 || (longitude as number) > 180) {
    fail(`Invalid longitude: ${shown(raw.longitude)}`);
  }
  const heading = degrees(raw.headingDegrees, 'heading');
  const course = degrees(raw.courseOverGroundDegrees, 'course over ground');
  const speed = numeric(raw.speedKnots);
  if (speed === 'invalid') fail(`Invalid speed: ${shown(raw.speedKnots)}`);
  let at: Date;
  try {
    if (typeof raw.locationTimestamp !== 'string') throw new Error('not text');
    at = parseAgentTime(raw.locationTimestamp);
  } catch {
    return fail(`Given location timestamp not in ISO format: ${shown(raw.locationTimestamp)}`);
  }
  return {
    imo,
    mmsi: typeof mmsi === 'number' ? mmsi : null,
    vessel_name: vesselName,
    latitude: latitude as number,
    longitude: longitude as number,
    heading_degrees: heading,
    speed_knots: speed as number | null,
    course_over_ground_degrees: course,
    location_timestamp: `${at.toISOString().slice(0, 19)}+00:00`,
  };
}

/** A position's event id: one position per vessel and location time (a re-post of it is a duplicate). */
export const positionEventId = (streamId: string, locationTimestamp: string): string =>
  uuidV5(`position:${streamId}:${locationTimestamp}`);

/** Every item checked: the events of the accepted ones and the original's `{successful, failed}` answer. */
export function decidePositions(items: readonly unknown[], lookups: PositionLookups): PositionDecision {
  const events: PositionEvent[] = [];
  const reply: RecordVesselPositionsReply = { successful: [], failed: [] };
  for (const item of items) {
    const raw = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const echo = { imo: (raw.imo ?? null) as number | null, mmsi: (raw.mmsi ?? null) as number | null };
    try {
      const data = checkItem(item, lookups);
      const streamId = positionStream(data);
      events.push({
        streamId,
        id: positionEventId(streamId, data.location_timestamp),
        type: 'VesselPositionRecorded',
        data,
      });
      reply.successful.push({ imo: data.imo, mmsi: data.mmsi });
    } catch (error) {
      if (!(error instanceof ItemFailed)) throw error;
      reply.failed.push({ ...echo, reason: error.message });
    }
  }
  return { events, reply };
}

/** The newest position of each stream among `events`: what the read model's row of that vessel may become. */
export function newestPerVessel(events: readonly PositionEvent[]): PositionEvent[] {
  const newest = new Map<string, PositionEvent>();
  for (const event of events) {
    const seen = newest.get(event.streamId);
    if (!seen || event.data.location_timestamp > seen.data.location_timestamp) newest.set(event.streamId, event);
  }
  // In stream order, so concurrent batches lock the read model's rows in one order.
  return [...newest.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
}

/**
 * The batch's signal for the real-time feed and the stream it goes to; its id derives from the batch's events (a
 * redelivery repeats it), and so does its stream, one of POSITION_SIGNAL_STREAMS.
 */
export function positionsSignal(events: readonly PositionEvent[]): {
  streamId: string;
  id: string;
  type: 'VesselPositionsRecorded';
  data: VesselPositionsRecorded;
} {
  const id = uuidV5(`positions:${events.map((e) => e.id).join(',')}`);
  return {
    streamId: positionSignalStream(Number.parseInt(id.slice(0, 8), 16) % POSITION_SIGNAL_STREAMS),
    id,
    type: 'VesselPositionsRecorded',
    data: { count: events.length },
  };
}
