// The operations port on a real socket: the probes tell up from ready and say which check fails, and a gauge whose
// collector fails leaves the others' series in the scrape.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { collectGauge, httpRequestDuration, initMetrics, instanceId } from './metrics.ts';
import { type OpsServer, startOpsServer } from './ops-server.ts';

describe('ops server', () => {
  let ops: OpsServer;
  let base: string;
  const removals: Array<() => void> = [];

  beforeAll(async () => {
    initMetrics('ops-test');
    ops = await startOpsServer({ service: 'ops-test', port: 0, log: createLogger('ops-test', 'warn') });
    base = `http://127.0.0.1:${ops.port}`;
  });
  afterAll(async () => {
    for (const remove of removals) remove();
    await ops.close();
  });

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  it('is up but not ready while starting, ready once its checks pass, and says which fails', async () => {
    const live = await get('/livez');
    expect(live.status).toBe(200);
    expect(JSON.parse(live.text)).toMatchObject({ status: 'up', service: 'ops-test', instance_id: instanceId() });
    expect(await get('/readyz')).toMatchObject({ status: 503 });
    expect(JSON.parse((await get('/readyz')).text).status).toBe('starting');

    let brokerUp = true;
    ops.ready({ postgres: async () => true, rabbitmq: async () => brokerUp });
    expect(JSON.parse((await get('/readyz')).text)).toMatchObject({
      status: 'ready',
      checks: { postgres: 'ok', rabbitmq: 'ok' },
    });
    brokerUp = false;
    const failing = await get('/readyz');
    expect(failing.status).toBe(503);
    expect(JSON.parse(failing.text)).toMatchObject({ status: 'not ready', checks: { rabbitmq: 'failing' } });
    ops.ready({ postgres: async () => true, broken: () => Promise.reject(new Error('no')) });
    expect((await get('/readyz')).status).toBe(503);
    ops.stopping();
    expect(JSON.parse((await get('/readyz')).text).status).toBe('stopping');
    expect((await get('/livez')).status).toBe(200);
  });

  it('serves the metrics with the process labels; a failing collector leaves the others in', async () => {
    httpRequestDuration.observe({ route: '/ops-test', method: 'GET', status: '200' }, 0.003);
    removals.push(collectGauge('ops_test_depth', 'test gauge', ['part'], (set) => set({ part: 'a' }, 7)));
    removals.push(
      collectGauge('ops_test_depth', 'test gauge', ['part'], () => {
        throw new Error('down');
      }),
    );
    const scraped = await get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.type).toContain('text/plain');
    const id = instanceId();
    expect(scraped.text).toContain(`ops_test_depth{part="a",service="ops-test",instance_id="${id}"} 7`);
    expect(scraped.text).toMatch(
      new RegExp(
        `http_request_duration_seconds_count\\{service="ops-test",instance_id="${id}",route="/ops-test",method="GET",status="200"\\} 1`,
      ),
    );
    expect(scraped.text).toContain('process_resident_memory_bytes');
    expect((await get('/nothing')).status).toBe(404);
  });
});
