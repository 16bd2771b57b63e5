// The port's vessel types and the sea-chart marker types that colour them, with the ids the original Port
// Activity App gave them (its `vessel_type` and `sea_chart_marker_type` rows). Pure data and lookups, shared by
// the service that keeps a vessel's type (ingest), the gateway's GET /vessel-types and the sea chart.

/** The marker types: the CSS class of a vessel's icon on the sea chart. */
export const MARKER_TYPES = [
  { id: 1, name: 'vessel_gray' },
  { id: 2, name: 'vessel_blue' },
  { id: 3, name: 'vessel_cyan' },
  { id: 4, name: 'vessel_purple' },
  { id: 5, name: 'vessel_green' },
  { id: 6, name: 'vessel_black' },
  { id: 7, name: 'vessel_white' },
  { id: 8, name: 'vessel_red' },
  { id: 9, name: 'vessel_orange' },
  { id: 10, name: 'vessel_yellow' },
] as const;

export type MarkerClass = (typeof MARKER_TYPES)[number]['name'];

export interface VesselType {
  id: number;
  name: string;
  /** The marker type (MARKER_TYPES) the vessel is drawn with. */
  sea_chart_marker_type_id: number;
}

/** A vessel whose type nobody has set. */
export const UNKNOWN_VESSEL_TYPE = 1;

// Groups in id order: each group's names take the next ids and share a marker.
const GROUPS: readonly [MarkerClass, readonly string[]][] = [
  ['vessel_gray', ['Unknown Vessel Type']],
  [
    'vessel_green',
    [
      'General Cargo',
      'Bulk Carrier',
      'Container Ship',
      'Ro-Ro/Vehicles Carrier',
      'Reefer',
      'Aggregates Carrier',
      'Cement Carrier',
      'Ore Carrier',
      'Livestock Carrier',
      'OBO Carrier',
      'Heavy Load Carrier',
      'Barge',
      'Inland Cargo',
      'Special Cargo',
      'Other Cargo',
    ],
  ],
  [
    'vessel_red',
    [
      'Tanker',
      'Oil Products',
      'Crude Oil',
      'Oil/Chemical',
      'Chemical',
      'LPG',
      'LNG',
      'Bunkering',
      'Asphalt/Bitumen',
      'Water',
      'Inland',
      'Special',
      'Other Tanker',
    ],
  ],
  [
    'vessel_blue',
    [
      'Passenger Ship',
      'Ro-Ro/Passenger Ship',
      'Inland Passenger Ship',
      'Passenger/Cargo Ship',
      'Special Passenger Ship',
      'Other Passenger Ship',
    ],
  ],
  ['vessel_yellow', ['High Speed Craft']],
  [
    'vessel_cyan',
    [
      'Tug',
      'Pusher Tug',
      'Tug/Supply Vessel',
      'Special Tug',
      'Pilot Boat',
      'Supply Vessel',
      'Service Vessel',
      'Offshore Structure',
      'Dredger',
      'Research/Survey Vessel',
      'Crew Boat',
      'Patrol Vessel',
      'Cable Layer',
      'Landing Craft',
      'Offshore Vessel',
      'Anchor Handling Vessel',
      'Platform',
      'Floating Storage/Production',
      'Floating Crane',
      'Drill Ship',
      'Search & Rescue',
      'Pollution Control Vessel',
      'Icebreaker',
      'Fire Fighting Vessel',
      'Training Ship',
      'Inland Tug',
      'Special Craft',
      'Military Ops',
      'Other Tug / Special Craft',
    ],
  ],
  ['vessel_orange', ['Fishing Vessel', 'Fish Carrier', 'Trawler', 'Special Fishing Vessel', 'Other Fishing']],
  ['vessel_purple', ['Yacht', 'Sailing Vessel', 'Other Pleasure Craft']],
];

const markerIds = new Map<string, number>(MARKER_TYPES.map((m) => [m.name, m.id]));
const markerNames = new Map<number, MarkerClass>(MARKER_TYPES.map((m) => [m.id, m.name]));

/** The 73 vessel types, by id (1 = unknown, every vessel's type until one is set). */
export const VESSEL_TYPES: readonly VesselType[] = GROUPS.flatMap(([marker, names]) =>
  names.map((name) => ({ name, sea_chart_marker_type_id: markerIds.get(marker)! })),
).map((type, i) => ({ id: i + 1, ...type }));

const vesselTypesById = new Map(VESSEL_TYPES.map((t) => [t.id, t]));

export const vesselTypeById = (id: number): VesselType | undefined => vesselTypesById.get(id);
export const isVesselTypeId = (id: unknown): id is number =>
  typeof id === 'number' && Number.isInteger(id) && vesselTypesById.has(id);
/** The marker class of a marker type id (`vessel_gray` for one there is not). */
export const markerClassOf = (markerTypeId: number): MarkerClass => markerNames.get(markerTypeId) ?? 'vessel_gray';
/** The marker class a vessel of this type is drawn with (an unknown type: as the unknown vessel type). */
export const vesselMarkerClass = (vesselTypeId: number): MarkerClass =>
  markerClassOf(vesselTypeById(vesselTypeId)?.sea_chart_marker_type_id ?? 1);
