// ---- the sea chart (owned by ingest): vessel positions, fixed vessels. Streams, events and commands. ----
// docs/domain.md#sea-chart has the rules; docs/architecture.md#services who owns what.

/**
 * A vessel's positions, one stream per vessel: `position-imo-<imo>` when the vessel's IMO is known (given, or
 * found through an ongoing port call or a fixed vessel by MMSI), else `position-mmsi-<mmsi>` (a fixed vessel
 * known by MMSI only). Replaying a stream gives the vessel's track.
 */
export const positionStream = (key: { imo: number | null; mmsi: number | null }): string =>
  key.imo !== null ? `position-imo-${key.imo}` : `position-mmsi-${key.mmsi}`;
/** Every position stream starts so (the retention job's scope). */
export const POSITION_STREAM_PREFIX = 'position-';
export const VESSEL_POSITION_RECORDED_ROUTING_KEY = 'position.VesselPositionRecorded';

/**
 * One signal per accepted batch of positions, so the real-time feed hears of a batch once instead of once per
 * position (thousands a second); also where the retention job records what it compacted.
 */
export const SEA_CHART_CHANGES_STREAM = 'seachart-changes';
export const VESSEL_POSITIONS_RECORDED_ROUTING_KEY = 'seachart.VesselPositionsRecorded';
/**
 * The batch signals go to one of this many streams, `seachart-batches-<n>` (category `seachart`, so the same routing
 * key), chosen by the batch: a stream's lock is held until its append's transaction commits, so on one stream two
 * agents' batches would queue whole behind each other's append, upsert and commit.
 */
export const POSITION_SIGNAL_STREAMS = 16;
export const POSITION_SIGNAL_STREAM_PREFIX = 'seachart-batches-';
export const positionSignalStream = (n: number): string => `${POSITION_SIGNAL_STREAM_PREFIX}${n}`;

/**
 * The real-time channel a map reloads its vessels on. The gateway hears of each message before its sockets do,
 * to serve the change to the map's next read (services/gateway/src/entry-points/realtime.ts).
 */
export const SEA_CHART_VESSELS_CHANNEL = 'sea-chart-vessels-changed';

/** A fixed vessel ("port actor": tug, pilot boat…), one stream each. */
export const fixedVesselStream = (id: number): string => `fixedvessel-${id}`;

/** POST /sea-chart/vessels: one accepted position. Its id derives from (stream, location_timestamp). */
export interface VesselPositionRecorded {
  imo: number | null;
  mmsi: number | null;
  vessel_name: string;
  latitude: number;
  longitude: number;
  heading_degrees: number | null;
  speed_knots: number | null;
  course_over_ground_degrees: number | null;
  /** ISO 8601 in UTC, `YYYY-MM-DDThh:mm:ss(.sss)+00:00`. */
  location_timestamp: string;
}

/** A batch of positions was accepted (`count` new ones): `sea-chart-vessels-changed`, `sea-chart-markers-changed`. */
export interface VesselPositionsRecorded {
  count: number;
}

/** The retention job removed position events recorded before `before` (each vessel's newest kept). */
export interface VesselPositionsCompacted {
  before: string;
  removed: number;
}

export interface SeaChartEvents {
  VesselPositionsRecorded: VesselPositionsRecorded;
  VesselPositionsCompacted: VesselPositionsCompacted;
}

export interface PositionEvents {
  VesselPositionRecorded: VesselPositionRecorded;
}

/** A fixed vessel as stored (and as it is after the event). */
export interface FixedVesselData {
  id: number;
  imo: number | null;
  mmsi: number | null;
  vessel_type: number;
  vessel_name: string;
}

export interface FixedVesselEvents {
  FixedVesselAdded: FixedVesselData;
  FixedVesselChanged: FixedVesselData;
  FixedVesselRemoved: { id: number };
}

/** The routing keys of the fixed-vessel events (the real-time feed binds them). */
export const FIXED_VESSEL_ROUTING_KEYS = [
  'fixedvessel.FixedVesselAdded',
  'fixedvessel.FixedVesselChanged',
  'fixedvessel.FixedVesselRemoved',
] as const;

// ---- cmd.ingest: the sea chart's commands ----

export const SeaChartCommands = {
  recordVesselPositions: 'recordVesselPositions',
  addFixedVessel: 'addFixedVessel',
  changeFixedVessel: 'changeFixedVessel',
  removeFixedVessel: 'removeFixedVessel',
} as const;

/** Most positions in one POST /sea-chart/vessels (an AIS agent sends a few hundred). */
export const MAX_POSITION_BATCH = 1000;

/** POST /sea-chart/vessels `{locations}`: each item checked by ingest (per item: accepted or failed with a reason). */
export interface RecordVesselPositionsCommand {
  locations: unknown[];
}

export interface PositionItemReply {
  imo: number | null;
  mmsi: number | null;
}

/** The original's answer: every item either in `successful` or in `failed` with its reason. */
export interface RecordVesselPositionsReply {
  successful: PositionItemReply[];
  failed: (PositionItemReply & { reason: string })[];
}

/** POST /sea-chart/fixed-vessel (types checked by the gateway; values by ingest). */
export interface AddFixedVesselCommand {
  vesselType: number;
  vesselName: string;
  imo?: unknown;
  mmsi?: unknown;
}

/** PUT /sea-chart/fixed-vessel: every key given, imo and mmsi may be null. */
export interface ChangeFixedVesselCommand extends AddFixedVesselCommand {
  id: number;
}

export interface RemoveFixedVesselCommand {
  id: number;
}

/** The fixed-vessel commands' business answers, HTTP 200 as the original. */
export type FixedVesselReply = { result: 'OK' } | { result: 'ERROR'; message: string };

/** The Redis key the AIS agents read the fixed vessels' `{mmsi: imo}` from (PHP serialize() format). */
export const FIXED_VESSELS_MMSI_IMO_MAP_KEY = 'sea_chart_fixed_vessels_mmsi_imo_map';
