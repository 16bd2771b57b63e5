// The request bodies of DCSA Just in Time Port Call 2.0.0 as JSON Schemas, derived from the standard's OpenAPI
// (services/dcsa-bridge/openapi/JIT_v2.0.0.yaml, Apache-2.0, components/schemas): the same properties, types,
// patterns, lengths, enums and required lists. Left out: descriptions and examples, the OpenAPI-only `format`s
// int32/float (the JSON type says it), and readOnly/writeOnly (annotations). docs/dcsa.md#validation-and-errors.

const TRIMMED = '^\\S(?:.*\\S)?$';
const UN_LOCATION_CODE = { type: 'string', pattern: '^[A-Z]{2}[A-Z2-9]{3}$', minLength: 5, maxLength: 5 };
const UUID = { type: 'string', format: 'uuid' };
const IS_FYI = { type: 'boolean', default: false };
const REASON = { type: 'string', maxLength: 500 };
const UNITS = { type: 'integer', minimum: 0 };
// A place: the standard's VesselPosition and PortCallServiceLocation have the same properties.
const LOCATION_PROPERTIES = {
  locationName: { type: 'string', pattern: TRIMMED, maxLength: 100 },
  facility: { $ref: '#/definitions/Facility' },
  UNLocationCode: UN_LOCATION_CODE,
  geoCoordinate: { $ref: '#/definitions/GeoCoordinate' },
};

/** The schemas the bodies refer to (`#/definitions/<name>`). */
const definitions: Record<string, object> = {
  Vessel: {
    type: 'object',
    properties: {
      vesselIMONumber: { type: 'string', pattern: '^\\d{7,8}$', minLength: 7, maxLength: 8 },
      MMSINumber: { type: 'string', pattern: '^\\d{9}$', minLength: 9, maxLength: 9 },
      name: { type: 'string', pattern: TRIMMED, maxLength: 50 },
      lengthOverall: { type: 'number' },
      width: { type: 'number' },
      dimensionUnit: { type: 'string', enum: ['MTR', 'FOT'] },
      callSign: { type: 'string', maxLength: 10, pattern: TRIMMED },
      typeCode: {
        type: 'string',
        enum: ['GCGO', 'CONT', 'RORO', 'CARC', 'PASS', 'FERY', 'BULK', 'TANK', 'LGTK', 'ASSI', 'PILO'],
      },
    },
  },
  VesselPosition: { type: 'object', properties: LOCATION_PROPERTIES },
  // The same properties as a vessel position, the UN/LOCODE required.
  PortCallServiceLocation: { type: 'object', properties: LOCATION_PROPERTIES, required: ['UNLocationCode'] },
  Facility: {
    type: 'object',
    properties: {
      facilityCode: { type: 'string', pattern: TRIMMED, maxLength: 6 },
      facilityCodeListProvider: { type: 'string', enum: ['BIC', 'SMDG'] },
      subFacility: { type: 'string', maxLength: 100, pattern: TRIMMED },
    },
    required: ['facilityCode', 'facilityCodeListProvider'],
  },
  GeoCoordinate: {
    type: 'object',
    properties: { latitude: { type: 'string', maxLength: 10 }, longitude: { type: 'string', maxLength: 11 } },
    required: ['latitude', 'longitude'],
  },
  MovesList: { type: 'array', items: { $ref: '#/definitions/Moves' } },
  Moves: {
    type: 'object',
    properties: {
      carrierCode: { type: 'string', maxLength: 4, pattern: '^\\S+$' },
      carrierCodeListProvider: { type: 'string', enum: ['SMDG', 'NMFTA'] },
      restows: { $ref: '#/definitions/Restows' },
    },
    oneOf: [{ $ref: '#/definitions/TotalUnits' }, { $ref: '#/definitions/SpecificUnits' }],
  },
  Restows: {
    type: 'object',
    oneOf: [{ $ref: '#/definitions/TotalRestows' }, { $ref: '#/definitions/ContainerRestows' }],
  },
  TotalRestows: {
    type: 'object',
    additionalProperties: false,
    properties: { totalRestows: UNITS },
    required: ['totalRestows'],
  },
  ContainerRestows: {
    type: 'object',
    properties: { _20_units: UNITS, _40_units: UNITS, _45_units: UNITS },
    required: ['_20_units', '_40_units', '_45_units'],
  },
  TotalUnits: {
    type: 'object',
    additionalProperties: false,
    properties: { totalUnits: UNITS },
    required: ['totalUnits'],
  },
  SpecificUnits: {
    type: 'object',
    properties: {
      loadUnits: { $ref: '#/definitions/LoadUnits' },
      dischargeUnits: { $ref: '#/definitions/DischargeUnits' },
    },
  },
  LoadUnits: { $ref: '#/definitions/CargoUnits' },
  DischargeUnits: { $ref: '#/definitions/CargoUnits' },
  // LoadUnits and DischargeUnits are the same object in the standard.
  CargoUnits: {
    type: 'object',
    properties: {
      ladenContainerUnits: { type: 'object', oneOf: [{ $ref: '#/definitions/TotalOnly' }, CONTAINER_UNITS()] },
      emptyContainerUnits: { type: 'object', oneOf: [{ $ref: '#/definitions/TotalOnly' }, CONTAINER_UNITS()] },
      reeferPluggedContainerUnits: {
        type: 'object',
        oneOf: [{ $ref: '#/definitions/TotalOnly' }, CONTAINER_UNITS()],
      },
      oogUnits: UNITS,
    },
  },
  // TotalLadenUnits, TotalEmptyUnits and TotalReeferPluggedUnits are the same object in the standard.
  TotalOnly: {
    type: 'object',
    additionalProperties: false,
    properties: { totalUnits: UNITS },
    required: ['totalUnits'],
  },
};

function CONTAINER_UNITS(): object {
  return {
    type: 'object',
    properties: { _20_units: UNITS, _40_units: UNITS, _45_units: UNITS },
    required: ['_20_units', '_40_units', '_45_units'],
  };
}

const body = (properties: Record<string, object>, required: string[] = []) => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  definitions,
});

/** The standard's request bodies by schema name. */
export const REQUEST_SCHEMAS = {
  PortCall: body(
    {
      portCallID: UUID,
      portVisitReference: { type: 'string', maxLength: 50 },
      UNLocationCode: UN_LOCATION_CODE,
      vessel: { $ref: '#/definitions/Vessel' },
      omitted: { type: 'boolean', default: false },
      isFYI: IS_FYI,
    },
    ['portCallID', 'UNLocationCode', 'vessel'],
  ),
  TerminalCall: body(
    {
      terminalCallID: UUID,
      portCallID: UUID,
      terminalCallReference: { type: 'string', maxLength: 100 },
      terminalCallSequenceNumber: { type: 'integer' },
      carrierServiceName: { type: 'string', maxLength: 50, pattern: TRIMMED },
      carrierServiceCode: { type: 'string', maxLength: 11, pattern: TRIMMED },
      universalServiceReference: { type: 'string', pattern: '^SR\\d{5}[A-Z]$', minLength: 8, maxLength: 8 },
      carrierImportVoyageNumber: { type: 'string', maxLength: 50, pattern: TRIMMED },
      carrierExportVoyageNumber: { type: 'string', maxLength: 50, pattern: TRIMMED },
      universalImportVoyageReference: {
        type: 'string',
        pattern: '^\\d{2}[0-9A-Z]{2}[NEWSR]$',
        minLength: 5,
        maxLength: 5,
      },
      universalExportVoyageReference: {
        type: 'string',
        pattern: '^\\d{2}[0-9A-Z]{2}[NEWSR]$',
        minLength: 5,
        maxLength: 5,
      },
      omitted: { type: 'boolean', default: false },
      isFYI: IS_FYI,
    },
    ['terminalCallID', 'portCallID', 'carrierServiceName', 'carrierServiceCode'],
  ),
  PortCallService: body(
    {
      terminalCallID: UUID,
      portCallServiceID: UUID,
      portCallServiceType: { type: 'string', maxLength: 50, pattern: TRIMMED },
      portCallServiceEventTypeCode: { type: 'string', enum: ['STRT', 'CMPL', 'ARRI', 'DEPA'] },
      portCallPhaseTypeCode: { type: 'string', enum: ['INBD', 'ALGS', 'SHIF', 'OUTB'] },
      facilityTypeCode: { type: 'string', maxLength: 4, enum: ['PBPL', 'BRTH', 'ANCH'] },
      portCallServiceLocation: { $ref: '#/definitions/PortCallServiceLocation' },
      moves: { $ref: '#/definitions/MovesList' },
      cancelled: { type: 'boolean', default: false },
      declined: { type: 'boolean', default: false },
      isFYI: IS_FYI,
    },
    [
      'terminalCallID',
      'portCallServiceID',
      'portCallServiceType',
      'portCallServiceEventTypeCode',
      'portCallServiceLocation',
    ],
  ),
  Timestamp: body(
    {
      timestampID: UUID,
      replyToTimestampID: UUID,
      portCallServiceID: UUID,
      classifierCode: { type: 'string', enum: ['ACT', 'EST', 'PLN', 'REQ'] },
      dateTime: { type: 'string', format: 'date-time' },
      portCallServiceLocation: { $ref: '#/definitions/PortCallServiceLocation' },
      delayReasonCode: { type: 'string', maxLength: 3 },
      remark: { type: 'string', maxLength: 500 },
      isFYI: IS_FYI,
    },
    ['timestampID', 'portCallServiceID', 'classifierCode', 'dateTime'],
  ),
  VesselStatus: body(
    {
      portCallServiceID: UUID,
      draft: { type: 'number' },
      airDraft: { type: 'number' },
      aftDraft: { type: 'number' },
      forwardDraft: { type: 'number' },
      dimensionUnit: { type: 'string', enum: ['MTR', 'FOT'] },
      vesselPosition: { $ref: '#/definitions/VesselPosition' },
      milesToDestinationPort: { type: 'number' },
      isFYI: IS_FYI,
    },
    ['portCallServiceID'],
  ),
  Cancel: body({ reason: REASON, isFYI: IS_FYI }),
  Decline: body({ reason: REASON, isFYI: IS_FYI }),
  OmitPortCall: body({ reason: REASON, isFYI: IS_FYI }),
  OmitTerminalCall: body({ reason: REASON, isFYI: IS_FYI }),
} as const;

export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;

/** Each request body's property names, in the standard's order: what the gateway takes from a request and passes on. */
export const REQUEST_BODY_PROPERTIES = Object.fromEntries(
  Object.entries(REQUEST_SCHEMAS).map(([name, schema]) => [name, Object.keys(schema.properties)]),
) as Record<RequestSchemaName, string[]>;
