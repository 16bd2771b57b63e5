// An OpenAPI 3.1 document made from the route table itself, so it lists exactly what the app serves: each
// route's method and path, its permission (`x-permission`) and module (`x-module`), its parameters with their
// types, and the answers the kit gives every route (400, 403, 440, and 429 where a rate limit applies, all as
// {"error": "..."}).

import { DEFAULT_MAX_LENGTH } from './params.ts';
import { HttpResponse, type ParamSpec, type ResponseDoc, type Route } from './types.ts';

export interface ApiInfo {
  title: string;
  version: string;
  description?: string;
}

type Json = Record<string, unknown>;

const JSON_MEDIA = 'application/json';

/** What holds for every route, said once in the document's description. */
const KIT_NOTES = [
  'Parameters come from the path, then the JSON body (POST, PUT, DELETE) or the query string (GET, PHP-style',
  'arrays). Every refusal has the body `{"error": "..."}`. A path no route serves answers 404, a method its',
  'path does not take 405 with `Allow`; a route that hands work to another service answers 503 when it does',
  'not reply in time.',
].join(' ');
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE']);

const ERROR_RESPONSE = (description: string) => ({
  description,
  content: { [JSON_MEDIA]: { schema: { $ref: '#/components/schemas/Error' } } },
});

const COMPONENTS = {
  schemas: {
    Error: {
      type: 'object',
      description: 'Every refusal and failure has this body.',
      required: ['error'],
      properties: { error: { type: 'string' } },
    },
  },
  responses: {
    BadRequest: ERROR_RESPONSE('A parameter is missing, of the wrong type or too long, or the body is not JSON.'),
    Forbidden: ERROR_RESPONSE('"Invalid access": the caller lacks the permission, or the route\'s module is off.'),
    SessionExpired: ERROR_RESPONSE(
      'Login Time-out: the Bearer session is unknown or expired (on every route, public ones included).',
    ),
    PayloadTooLarge: ERROR_RESPONSE('The request body is larger than 1 MB.'),
    TooManyRequests: {
      ...ERROR_RESPONSE('A rate limit of the route is spent for this client (x-rate-limits); try again later.'),
      headers: {
        'Retry-After': {
          description: 'Seconds until the limit lets this client in again.',
          schema: { type: 'integer' },
        },
      },
    },
  },
  securitySchemes: {
    session: {
      type: 'http',
      scheme: 'bearer',
      description: 'A session from POST /login: `Authorization: Bearer <session id>`.',
    },
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: "A data source's API key, sent as `Authorization: ApiKey <key>`.",
    },
  },
};

/** Either credential; public routes (and `login`, granted by the body's e-mail) also take none. */
const AUTHENTICATED = [{ session: [] }, { apiKey: [] }];
const OPTIONAL_AUTH = [{}, ...AUTHENTICATED];

/**
 * The OpenAPI paths an express path stands for: `:name` and `*name` become `{name}`, and each optional group
 * `{...}` gives the path with and without it.
 */
export function openApiPaths(expressPath: string): string[] {
  return expandOptional(expressPath).map((path) => path.replace(/[:*]([A-Za-z_$][A-Za-z0-9_$]*)/g, '{$1}'));
}

function expandOptional(path: string): string[] {
  const open = path.indexOf('{');
  if (open < 0) return [path];
  let depth = 0;
  let close = -1;
  for (let i = open; i < path.length && close < 0; i++) {
    if (path[i] === '{') depth++;
    else if (path[i] === '}' && --depth === 0) close = i;
  }
  if (close < 0) throw new Error(`Unbalanced optional group in route path ${path}`);
  const before = path.slice(0, open);
  const inner = expandOptional(path.slice(open + 1, close));
  return expandOptional(path.slice(close + 1)).flatMap((rest) => [
    ...inner.map((part) => `${before}${part}${rest}`),
    `${before}${rest}` || '/',
  ]);
}

/** The JSON schema of a parameter as a client should send it (the kit also takes digit strings for numbers). */
function paramSchema(spec: ParamSpec): Json {
  const schema: Json = (() => {
    switch (spec.type) {
      case 'int':
        return { type: 'integer', minimum: 0 };
      case 'float':
        return { type: 'number' };
      case 'bool':
        return { type: 'boolean' };
      case 'string':
        return { type: 'string', maxLength: spec.maxLength ?? DEFAULT_MAX_LENGTH };
      case 'array':
        return { type: ['object', 'array'], description: 'A JSON object or array.' };
      case 'mixed':
        return { description: `Any JSON value; a string at most ${spec.maxLength ?? DEFAULT_MAX_LENGTH} characters.` };
    }
  })();
  if (spec.default !== undefined) schema.default = spec.default;
  return schema;
}

function operation(route: Route, path: string, operationId: string): Json {
  const inPath = new Set([...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
  const parameters: Json[] = [...inPath].map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: route.params[name] ? paramSchema(route.params[name]) : { type: 'string' },
  }));
  const rest = Object.entries(route.params).filter(([name]) => !inPath.has(name));
  const takesBody = BODY_METHODS.has(route.method);
  let requestBody: Json | undefined;
  if (!takesBody) {
    for (const [name, spec] of rest) {
      const parameter: Json = { name, in: 'query', required: !spec.optional, schema: paramSchema(spec) };
      // PHP-style, as the original's $_GET: `ids[]=1&ids[]=2`, `filter[key]=value`.
      if (spec.type === 'array') Object.assign(parameter, { style: 'deepObject', explode: true });
      parameters.push(parameter);
    }
  } else if (rest.length > 0) {
    const required = rest.filter(([, spec]) => !spec.optional).map(([name]) => name);
    requestBody = {
      required: required.length > 0,
      content: {
        [JSON_MEDIA]: {
          schema: {
            type: 'object',
            properties: Object.fromEntries(rest.map(([name, spec]) => [name, paramSchema(spec)])),
            ...(required.length > 0 ? { required } : {}),
          },
        },
      },
    };
  }

  const guarded = route.permission !== 'public';
  const responses: Json = {
    200: response({ description: 'OK', contentType: route.accept }),
    ...(Object.keys(route.params).length > 0 || takesBody
      ? { 400: { $ref: '#/components/responses/BadRequest' } }
      : {}),
    ...(guarded || route.module ? { 403: { $ref: '#/components/responses/Forbidden' } } : {}),
    ...(route.accept
      ? { 404: ERROR_RESPONSE(`Not found: the answer to a client that does not prefer ${route.accept}.`) }
      : {}),
    ...(takesBody ? { 413: { $ref: '#/components/responses/PayloadTooLarge' } } : {}),
    ...(route.rateLimits?.length ? { 429: { $ref: '#/components/responses/TooManyRequests' } } : {}),
    440: { $ref: '#/components/responses/SessionExpired' },
  };
  for (const [status, doc] of Object.entries(route.responses ?? {})) responses[status] = response(doc);

  return {
    operationId,
    summary: `${route.method} ${route.path}`,
    'x-permission': route.permission,
    ...(route.module ? { 'x-module': route.module } : {}),
    ...(route.rateLimits?.length ? { 'x-rate-limits': route.rateLimits.map((limit) => limit.limit) } : {}),
    security: guarded && route.permission !== 'login' ? AUTHENTICATED : OPTIONAL_AUTH,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** A route's own answer, its body described in words (any JSON unless another media type is named). */
function response(doc: ResponseDoc): Json {
  const media = doc.contentType ?? JSON_MEDIA;
  return {
    description: doc.description,
    content: { [media]: { schema: media === JSON_MEDIA ? {} : { type: 'string' } } },
  };
}

/** The document of these routes. Throws if two routes share a method and path (the second could never answer). */
export function openApiDocument(routes: readonly Route[], info: ApiInfo): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    for (const path of openApiPaths(route.path)) {
      const method = route.method.toLowerCase();
      paths[path] ??= {};
      const item = paths[path];
      if (item[method]) throw new Error(`Two routes for ${route.method} ${path}`);
      // `GET /users/{id}` → getUsersId; a clash (`/a-b` and `/a/b`) gets a suffix.
      let operationId = method + path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase());
      while (operationIds.has(operationId)) operationId += '_';
      operationIds.add(operationId);
      item[method] = operation(route, path, operationId);
    }
  }
  const description = info.description ? `${info.description}\n\n${KIT_NOTES}` : KIT_NOTES;
  return { openapi: '3.1.0', info: { ...info, description }, paths, components: COMPONENTS };
}

/**
 * The routes plus `GET <path>` (public) serving their OpenAPI document, its own route included. The document is
 * built once, here, so a route table it cannot describe stops the start.
 */
export function withOpenApi(routes: readonly Route[], info: ApiInfo, path = '/openapi.json'): Route[] {
  let body = '';
  const route: Route = {
    method: 'GET',
    path,
    permission: 'public',
    params: {},
    responses: { 200: { description: 'This document (OpenAPI 3.1).' } },
    async handle() {
      return new HttpResponse(200, body);
    },
  };
  const all = [...routes, route];
  body = JSON.stringify(openApiDocument(all, info));
  return all;
}
