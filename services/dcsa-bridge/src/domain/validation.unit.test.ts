// The standard's own cases (services/dcsa-bridge/openapi/JIT_v2.0.0.yaml): every request example is accepted, and
// every invalid case its 400 examples describe is refused naming the same property with the same error code. The
// schemas derived from it keep its properties and required lists.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REQUEST_SCHEMAS, type RequestSchemaName } from './schemas.ts';
import { validateBody } from './validation.ts';

const openapi = parse(readFileSync(path.join(import.meta.dirname, '../../openapi/JIT_v2.0.0.yaml'), 'utf8'));
type Operation = {
  operationId: string;
  requestBody?: { content: { 'application/json': { schema: { $ref: string }; examples?: Record<string, any> } } };
  responses: Record<string, any>;
};
const operations: Operation[] = Object.values(openapi.paths as Record<string, Record<string, Operation>>).flatMap(
  (methods) => Object.values(methods),
);
const schemaOf = (op: Operation) =>
  op.requestBody!.content['application/json'].schema.$ref.split('/').at(-1) as RequestSchemaName;

// A valid body of each schema, for the schemas whose operation has no example of its own.
const VALID: Record<RequestSchemaName, Record<string, unknown>> = {
  PortCall: {
    portCallID: '0342254a-5927-4856-b9c9-aa12e7c00563',
    UNLocationCode: 'NLAMS',
    vessel: { vesselIMONumber: '9704611' },
  },
  TerminalCall: {
    terminalCallID: '0342254a-5927-4856-b9c9-aa12e7c00563',
    portCallID: '0342254a-5927-4856-b9c9-aa12e7c00563',
    carrierServiceName: 'Great Lion Service',
    carrierServiceCode: 'FE1',
  },
  PortCallService: {
    terminalCallID: '0342254a-5927-4856-b9c9-aa12e7c00563',
    portCallServiceID: '7992f6cb-3a5f-45c9-bf43-36e4f05e0bd4',
    portCallServiceType: 'BERTH',
    portCallServiceEventTypeCode: 'ARRI',
    portCallServiceLocation: { locationName: 'CMP Container Terminal Copenhagen', UNLocationCode: 'DKCPH' },
  },
  Timestamp: {
    timestampID: '05986866-1d62-4f84-bc10-3e1b0ddf6990',
    portCallServiceID: '20648fdc-4287-4e0f-81e8-f5ad9b3e5973',
    classifierCode: 'EST',
    dateTime: '2019-11-12T07:41:00+08:30',
  },
  VesselStatus: { portCallServiceID: '0342254a-5927-4856-b9c9-aa12e7c00563', draft: 12.5, dimensionUnit: 'MTR' },
  Cancel: { reason: 'Storms ahead' },
  Decline: { reason: 'Crane broken' },
  OmitPortCall: { reason: 'Engine failure' },
  OmitTerminalCall: { reason: 'Engine failure' },
};

describe('the standard’s request examples', () => {
  const examples = operations.flatMap((op) =>
    Object.entries(op.requestBody?.content['application/json'].examples ?? {}).map(
      ([name, example]) => [op.operationId, name, schemaOf(op), example.value] as const,
    ),
  );

  it('are there to check (8 in JIT 2.0.0)', () => expect(examples).toHaveLength(8));

  it.each(examples)('%s %s is accepted', (_op, _name, schema, value) => {
    expect(validateBody(schema, value)).toEqual([]);
  });

  it.each(Object.entries(VALID))('a plain %s is accepted', (schema, value) => {
    expect(validateBody(schema as RequestSchemaName, value)).toEqual([]);
  });

  it('the GET examples’ timestamps are valid timestamps too', () => {
    const list = openapi.paths['/v2/timestamps'].get.responses['200'].content['application/json'].examples
      .timestampsMatchingPortCallServiceID.value as unknown[];
    for (const t of list) expect(validateBody('Timestamp', t)).toEqual([]);
  });
});

describe('the standard’s invalid cases', () => {
  const cases = operations
    .filter((op) => op.requestBody && op.responses['400']?.content)
    .map((op) => {
      const example = Object.values(op.responses['400'].content['application/json'].examples)[0] as any;
      return [op.operationId, schemaOf(op), example.value.errors[0]] as const;
    });

  it('are there to check (one 400 example per operation with a body)', () => expect(cases).toHaveLength(9));

  it.each(cases)('%s: %j is refused naming its property', (_op, schema, expected) => {
    const body: Record<string, unknown> = structuredClone(VALID[schema]);
    if (expected.errorCodeText === 'mandatory property missing') delete body[expected.property];
    else body[expected.property] = 12;
    const errors = validateBody(schema, body);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      errorCode: expected.errorCode,
      property: expected.property,
      errorCodeText: expected.errorCodeText,
    });
  });

  it('names nested properties with their JSON path and value', () => {
    const body = { ...VALID.PortCall, vessel: { vesselIMONumber: '97046' } };
    expect(validateBody('PortCall', body)[0]).toMatchObject({
      property: 'vesselIMONumber',
      jsonPath: '$.vessel.vesselIMONumber',
      value: '97046',
    });
    const service = { ...VALID.PortCallService, portCallServiceLocation: { UNLocationCode: 'dkcph' } };
    expect(validateBody('PortCallService', service)[0]).toMatchObject({
      property: 'UNLocationCode',
      jsonPath: '$.portCallServiceLocation.UNLocationCode',
    });
    expect(validateBody('Timestamp', { ...VALID.Timestamp, classifierCode: 'ETA' })[0]).toMatchObject({
      property: 'classifierCode',
      errorCode: 7002,
    });
    expect(validateBody('Timestamp', { ...VALID.Timestamp, dateTime: 'tomorrow' })[0]).toMatchObject({
      property: 'dateTime',
    });
    expect(validateBody('PortCall', [])[0]).toMatchObject({ errorCode: 7004, errorCodeText: 'wrong property type' });
  });
});

describe('the schemas derived from the standard', () => {
  it.each(Object.keys(REQUEST_SCHEMAS) as RequestSchemaName[])('%s keeps its properties and required list', (name) => {
    const original = openapi.components.schemas[name];
    const ours = REQUEST_SCHEMAS[name] as { properties: object; required?: string[] };
    expect(Object.keys(ours.properties).sort()).toEqual(Object.keys(original.properties).sort());
    expect([...(ours.required ?? [])].sort()).toEqual([...(original.required ?? [])].sort());
  });
});
