// The shapes the STM formats are read into and written from (docs/architecture.md, "Libraries": stm).

/** A position in decimal degrees, WGS 84. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** The geographic area of a text message: a polygon, a circle, or both (the schema allows either or both). */
export interface TextMessageArea {
  /** Closed ring of positions (the schema's `posList`, "lat lon" pairs). */
  polygon?: LatLon[];
  /** Centre and radius; the radius is in nautical miles (the schema's unit). */
  circle?: { position: LatLon; radiusNm: number };
}

/** An STM text message (textMessageSchema 1.3), in the schema's element order. */
export interface TextMessage {
  /** `urn:mrn:stm:txt:…`. */
  id: string;
  informationObjectReferenceId?: string;
  /** `RTZ`, `S124` or `TXT`. */
  informationObjectReferenceType?: string;
  validityPeriodStart?: string;
  validityPeriodStop?: string;
  author: string;
  from: string;
  serviceType?: string;
  /** xs:dateTime in UTC as written in the message. */
  createdAt: string;
  subject: string;
  body: string;
  position?: LatLon;
  area?: TextMessageArea;
}

export type LegGeometry = 'Loxodrome' | 'Orthodrome';

/** A waypoint of an RTZ route; `geometryType` is that of the leg arriving at it (RTZ puts the leg there). */
export interface RtzWaypoint {
  id: number;
  name?: string;
  /** Turn radius in nautical miles, if given. */
  radius?: number;
  lat: number;
  lon: number;
  /** The waypoint's own leg geometry, else the defaultWaypoint's, else Loxodrome (RTZ's default). */
  geometryType: LegGeometry;
}

/** One scheduleElement; times as written (xs:dateTime), windows as xs:duration. */
export interface RtzScheduleElement {
  waypointId: number;
  etd?: string;
  eta?: string;
  speed?: number;
  etaWindowBefore?: string;
  etaWindowAfter?: string;
  etdWindowBefore?: string;
  etdWindowAfter?: string;
}

export interface RtzSchedule {
  id: number;
  name?: string;
  /** Absent when the schedule has no `<manual>`. */
  manual?: RtzScheduleElement[];
  /** Absent when the schedule has no `<calculated>`. */
  calculated?: RtzScheduleElement[];
}

/** An RTZ route (1.0 or 1.1 with the STM extension) as far as the port needs it. */
export interface RtzRoute {
  /** The root's `version` attribute (`1.0`, `1.1`). */
  version: string;
  /** The RTZ namespace the document used (`http://www.cirm.org/RTZ/1/1`), or '' when it had none. */
  namespace: string;
  routeName: string;
  routeAuthor?: string;
  routeStatus?: string;
  vesselName?: string;
  vesselImo?: number;
  vesselMmsi?: number;
  /** STM voyage id, `urn:mrn:stm:voyage:id:…`. */
  vesselVoyage?: string;
  /** STM routeInfo extension `routeStatusEnum` (1 original … 7 used for monitoring, 8 inactive). */
  routeStatusEnum?: number;
  waypoints: RtzWaypoint[];
  schedules: RtzSchedule[];
}

/** The synchronisation point: VIS_SYNC_POINT_LAT / VIS_SYNC_POINT_LON / VIS_SYNC_POINT_RADIUS (metres). */
export interface SyncPoint {
  lat: number;
  lon: number;
  radiusMeters: number;
}

/** The six RTZ states with the original's ids (`vis_rtz_state`). */
export type RtzStateName =
  | 'CALCULATED_SCHEDULE_NOT_FOUND'
  | 'SYNC_WITH_ETA_FOUND'
  | 'SYNC_WITHOUT_ETA_FOUND'
  | 'SYNC_NOT_FOUND_CAN_BE_ADDED'
  | 'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED'
  | 'RTA_SENT';

/**
 * What the route says about the synchronisation point, stored as a voyage plan's `rtz_parse_results`. The keys
 * are the original VIS agent's, so agent mode and direct mode store the same object: `route_name` and `eta`
 * (read by the API), the sync waypoint (`waypointId`), or where one can be added (`legEndWaypointId`, `lat`,
 * `lon`), and the vessel named in the route.
 */
export interface RtzParseResults {
  route_name: string;
  /** ETA at the sync waypoint from the calculated schedule, UTC `YYYY-MM-DDThh:mm:ss+00:00`. */
  eta?: string;
  waypointId?: number;
  /** The leg passing within the radius ends at this waypoint: a new waypoint goes before it. */
  legEndWaypointId?: number;
  lat?: number;
  lon?: number;
  /** Distance of the sync waypoint or of the point on the leg from the sync point, metres (rounded). */
  distance_m?: number;
  vessel_imo?: number;
  vessel_name?: string;
}

export interface RtzAssessment {
  state: Exclude<RtzStateName, 'RTA_SENT'>;
  parseResults: RtzParseResults;
}

/** An RTA to write into a received route (the `send-rta` flow). */
export interface RtaInput {
  /** The recommended time of arrival at the sync waypoint (any xs:dateTime / agent time; written in UTC). */
  rta: string;
  /** Window start (earliest acceptable arrival); written as `etaWindowBefore` = rta − etaMin. */
  etaMin?: string;
  /** Window end (latest acceptable arrival); written as `etaWindowAfter` = etaMax − rta. */
  etaMax?: string;
  /** Where: the sync waypoint, or a new waypoint on the leg ending at `legEndWaypointId` (from the parse results). */
  target: { waypointId: number } | { legEndWaypointId: number; lat: number; lon: number; name: string };
  /** Written to `schedule/@name` and `routeInfo/@routeAuthor` when given (the port's names). */
  scheduleName?: string;
  routeAuthor?: string;
}
