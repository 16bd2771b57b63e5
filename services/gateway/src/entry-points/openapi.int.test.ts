// GET /openapi.json over HTTP: public, a valid OpenAPI 3.1 document, and every route of the route table in it
// (so a route added later cannot be left out of it).

import { openApiPaths } from '@pcas/http-kit';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import gatewayPackage from '../../package.json' with { type: 'json' };
import { allRoutes } from './routes/index.ts';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

let gw: TestGateway;
let doc: any;
let answer: Response;

beforeAll(async () => {
  gw = await startTestGateway('gw_openapi');
  // No Authorization header, no session: the document is public.
  answer = await fetch(`${gw.baseUrl}/openapi.json`);
  doc = await answer.clone().json();
});

afterAll(async () => {
  await gw?.stop();
});

describe('GET /openapi.json', () => {
  it('answers without authentication, as JSON', () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.info).toMatchObject({ title: 'Port Call Activity Service', version: gatewayPackage.version });
  });

  it('lists every route of the route table with its permission, module and parameters, and nothing else', () => {
    const routes = allRoutes(gw.deps);
    expect(routes.length).toBeGreaterThan(40);
    let expected = 0;
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      for (const path of openApiPaths(route.path)) {
        expected++;
        const op = doc.paths[path]?.[route.method.toLowerCase()];
        expect(op, name).toBeDefined();
        expect(op['x-permission'], name).toBe(route.permission);
        expect(op['x-module'], name).toBe(route.module);
        const documented = new Set<string>([
          ...(op.parameters ?? []).map((p: any) => p.name),
          ...Object.keys(op.requestBody?.content['application/json'].schema.properties ?? {}),
        ]);
        expect([...documented].sort(), name).toEqual(Object.keys(route.params).sort());
        expect(op.responses['440'], name).toBeDefined();
      }
    }
    const operations = Object.values<object>(doc.paths).flatMap((item) => Object.keys(item));
    expect(operations.length).toBe(expected);
    expect(doc.paths['/openapi.json'].get['x-permission']).toBe('public');
  });

  it('answers the statuses the kit gives: 400 for parameters, 403 for a permission, 503 where a route says so', () => {
    const users = doc.paths['/users/{id}'].get;
    expect(users['x-permission']).toBe('manage_user');
    expect(users.parameters).toContainEqual({ name: 'id', in: 'path', required: true, schema: expect.any(Object) });
    expect(Object.keys(users.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '440']));
    expect(doc.paths['/health-check'].get.responses['503']).toBeDefined();
    expect(doc.components.schemas.Error.required).toEqual(['error']);
  });
});
