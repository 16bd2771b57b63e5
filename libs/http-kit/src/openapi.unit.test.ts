import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { openApiDocument, openApiPaths, withOpenApi } from './openapi.ts';
import { HttpResponse, type Route } from './types.ts';

const INFO = { title: 'Test API', version: '1.2.3' };

const route = (r: Partial<Route> & Pick<Route, 'method' | 'path'>): Route => ({
  permission: 'public',
  params: {},
  handle: async () => null,
  ...r,
});

const ROUTES: Route[] = [
  route({
    method: 'GET',
    path: '/things/:id',
    permission: 'view_things',
    module: 'queue',
    params: {
      id: { type: 'int' },
      limit: { type: 'int', optional: true, default: 10 },
      ratio: { type: 'float', optional: true },
      ids: { type: 'array', optional: true },
      q: { type: 'string', maxLength: 64 },
    },
  }),
  route({
    method: 'POST',
    path: '/things',
    permission: 'manage_things',
    params: {
      name: { type: 'string' },
      done: { type: 'bool', optional: true },
      payload: { type: 'mixed' },
    },
  }),
  route({
    method: 'POST',
    path: '/login',
    permission: 'login',
    params: { email: { type: 'string' } },
    rateLimits: [
      { limit: 'login_address', perAddress: true },
      { limit: 'login_account', perAddress: true, perParam: 'email' },
    ],
  }),
  route({ method: 'GET', path: '/', accept: 'text/html' }),
  route({
    method: 'GET',
    path: '/health',
    responses: { 503: { description: 'A dependency is down.' } },
  }),
];

describe('openApiPaths', () => {
  it('turns express parameters into OpenAPI templates', () => {
    expect(openApiPaths('/users/:id')).toEqual(['/users/{id}']);
    expect(openApiPaths('/translations/:ns/:lng')).toEqual(['/translations/{ns}/{lng}']);
    expect(openApiPaths('/files/*path')).toEqual(['/files/{path}']);
  });

  it('gives an optional group as the path with and without it', () => {
    expect(openApiPaths('/users{/:id}')).toEqual(['/users/{id}', '/users']);
    expect(openApiPaths('{/:a}')).toEqual(['/{a}', '/']);
    expect(openApiPaths('/a{/:b{/:c}}')).toEqual(['/a/{b}/{c}', '/a/{b}', '/a']);
  });
});

describe('openApiDocument', () => {
  const doc = openApiDocument(ROUTES, INFO) as any;

  it('is OpenAPI 3.1 with the given title and version', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject(INFO);
  });

  it('describes a GET: path parameter in the path, the rest in the query, with types and required', () => {
    const op = doc.paths['/things/{id}'].get;
    expect(op['x-permission']).toBe('view_things');
    expect(op['x-module']).toBe('queue');
    expect(op.requestBody).toBeUndefined();
    const byName = Object.fromEntries(op.parameters.map((p: any) => [p.name, p]));
    expect(byName.id).toEqual({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } });
    expect(byName.limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', default: 10 } });
    expect(byName.ratio).toMatchObject({ in: 'query', required: false, schema: { type: 'number' } });
    expect(byName.ids).toMatchObject({ in: 'query', schema: { type: ['object', 'array'] } });
    expect(byName.q).toMatchObject({ in: 'query', required: true, schema: { type: 'string', maxLength: 64 } });
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '403', '440']);
    expect(op.security).toEqual([{ session: [] }, { apiKey: [] }]);
  });

  it('describes a POST: parameters as a JSON body schema', () => {
    const op = doc.paths['/things'].post;
    expect(op.parameters).toBeUndefined();
    expect(op['x-module']).toBeUndefined();
    expect(op.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string', maxLength: 4096 },
              done: { type: 'boolean' },
              payload: { description: expect.stringContaining('Any JSON value') },
            },
            required: ['name', 'payload'],
          },
        },
      },
    });
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '403', '413', '440']);
  });

  it('lets anyone call public and login routes, and refuses with 403 only where a permission or module applies', () => {
    expect(doc.paths['/login'].post.security).toContainEqual({});
    expect(doc.paths['/health'].get.security).toContainEqual({});
    expect(doc.paths['/health'].get.responses['403']).toBeUndefined();
    expect(doc.paths['/login'].post.responses['403']).toBeDefined();
  });

  it('gives the error shape as a component, and a route its own extra answers', () => {
    expect(doc.components.schemas.Error).toMatchObject({
      required: ['error'],
      properties: { error: { type: 'string' } },
    });
    expect(doc.paths['/health'].get.responses['503']).toEqual({
      description: 'A dependency is down.',
      content: { 'application/json': { schema: {} } },
    });
    const home = doc.paths['/'].get.responses;
    expect(home['200'].content).toHaveProperty(['text/html']);
    expect(home['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('names the rate limits of a route that has them, and their 429 with Retry-After', () => {
    const login = doc.paths['/login'].post;
    expect(login['x-rate-limits']).toEqual(['login_address', 'login_account']);
    expect(login.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    expect(doc.components.responses.TooManyRequests.headers['Retry-After'].schema).toEqual({ type: 'integer' });
    expect(doc.paths['/things'].post['x-rate-limits']).toBeUndefined();
    expect(doc.paths['/things'].post.responses['429']).toBeUndefined();
  });

  it('names the Authorization header formats the app accepts', () => {
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(doc.components.securitySchemes.apiKey.description).toContain('ApiKey <key>');
  });

  it('has only valid JSON schemas (draft 2020-12, the OpenAPI 3.1 dialect)', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    const schemas: unknown[] = [];
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        for (const p of op.parameters ?? []) schemas.push(p.schema);
        if (op.requestBody) schemas.push(op.requestBody.content['application/json'].schema);
      }
    }
    for (const schema of schemas) expect(() => ajv.compile(schema as object)).not.toThrow();
  });

  it('refuses two routes with the same method and path', () => {
    expect(() => openApiDocument([ROUTES[1], { ...ROUTES[1] }], INFO)).toThrow(/Two routes for POST \/things/);
  });
});

describe('withOpenApi', () => {
  it('adds a public GET /openapi.json serving the document of every route, its own included', async () => {
    const routes = withOpenApi(ROUTES, INFO);
    expect(routes.slice(0, ROUTES.length)).toEqual(ROUTES);
    const own = routes[routes.length - 1];
    expect(own).toMatchObject({ method: 'GET', path: '/openapi.json', permission: 'public' });
    const answer = (await own.handle({} as never)) as HttpResponse;
    expect(answer).toBeInstanceOf(HttpResponse);
    const doc = JSON.parse(String(answer.body));
    expect(doc).toEqual(openApiDocument(routes, INFO));
    expect(doc.paths['/openapi.json'].get['x-permission']).toBe('public');
  });
});
