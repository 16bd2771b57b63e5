// Checks a DCSA request body against the standard's schema (schemas.ts) and, when it is refused, names what is
// wrong the way the standard's ErrorResponse does: one DetailedError with the property, its JSON path and value.
// Pure (ajv compiles once, at load).

import type { DcsaDetailedError } from '@pcas/contracts';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { REQUEST_SCHEMAS, type RequestSchemaName } from './schemas.ts';

type AddFormats = (ajv: Ajv, formats?: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

// allErrors off: the first failure is the one reported, as the standard's examples report one property.
const ajv = new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
addFormats(ajv, ['uuid', 'date-time']);

const validators = new Map<RequestSchemaName, ValidateFunction>(
  (Object.keys(REQUEST_SCHEMAS) as RequestSchemaName[]).map((name) => [name, ajv.compile(REQUEST_SCHEMAS[name])]),
);

/** The standard leaves error codes to implementers (7000-7999: technical); these are ours, documented in docs/dcsa.md. */
export const ERROR_CODES = { missing: 7003, wrongType: 7004, invalidValue: 7002, conflict: 7009, notFound: 7006 };

/** The problems of a body for a schema: none when the standard accepts it. */
export function validateBody(schema: RequestSchemaName, value: unknown): DcsaDetailedError[] {
  const validate = validators.get(schema)!;
  if (validate(value)) return [];
  const first = (validate.errors ?? [])[0] as ErrorObject | undefined;
  return [detailedError(first, value)];
}

function jsonPathOf(instancePath: string): string {
  let path = '$';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  return path;
}

function valueAt(root: unknown, instancePath: string): unknown {
  let at = root;
  for (const part of instancePath.split('/').slice(1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return at;
}

const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 500 ? text.slice(0, 500) : text;
};

function detailedError(error: ErrorObject | undefined, body: unknown): DcsaDetailedError {
  if (!error) {
    return { errorCode: ERROR_CODES.invalidValue, errorCodeText: 'invalid body', errorCodeMessage: 'Invalid body' };
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    const jsonPath = `${jsonPathOf(error.instancePath)}.${missing}`;
    return {
      errorCode: ERROR_CODES.missing,
      property: missing,
      jsonPath,
      errorCodeText: 'mandatory property missing',
      errorCodeMessage: `${missing} must be provided (${jsonPath})`,
    };
  }
  const parts = error.instancePath.split('/');
  const property = parts.length > 1 ? parts.filter((p) => !/^\d+$/.test(p)).at(-1) || undefined : undefined;
  const value = valueAt(body, error.instancePath);
  const named = property ?? 'body';
  // Where the bad value is, and the value as shown.
  const at = {
    ...(property ? { property } : {}),
    value: shown(value),
    jsonPath: jsonPathOf(error.instancePath),
  };
  if (error.keyword === 'type') {
    const expected = String((error.params as { type: string }).type);
    return {
      errorCode: ERROR_CODES.wrongType,
      ...at,
      errorCodeText: 'wrong property type',
      errorCodeMessage: `${named} should be a ${expected}. \`${shown(value)}\` provided as value`,
    };
  }
  return {
    errorCode: ERROR_CODES.invalidValue,
    ...at,
    errorCodeText: 'invalid property value',
    errorCodeMessage: `${named} ${error.message ?? 'is invalid'}`,
  };
}
