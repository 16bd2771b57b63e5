// bench:positions' map views (bench/positions.ts), in a worker thread of their own: 16 browsers are 16 clients, and
// on the benchmark's main thread their latencies also counted its own work (building the AIS agent's batches).
// Plain JavaScript, as a worker starts without the TypeScript loader. Messages: `idle` (read `runs` times, answer
// the latencies), `load` (read until `stop`, then answer the latencies), `last` (one read, answer its body).
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { baseUrl, sessionId, readers } = workerData;
const pool = new Pool(baseUrl, { connections: readers, pipelining: 1 });
const headers = { authorization: `Bearer ${sessionId}`, 'accept-encoding': 'gzip' };
let errors = 0;
let bytes = 0;

async function readOnce(latencies) {
  const t0 = performance.now();
  const res = await pool.request({ path: '/sea-chart/vessels', method: 'GET', headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  latencies.push(performance.now() - t0);
  if (res.statusCode !== 200) errors++;
  bytes = body.byteLength;
  return body;
}

let stopping = false;
parentPort.on('message', async (message) => {
  if (message.type === 'idle') {
    const latencies = [];
    await Promise.all(
      Array.from({ length: readers }, async () => {
        while (latencies.length < message.runs) await readOnce(latencies);
      }),
    );
    parentPort.postMessage({ type: 'idle', latencies });
  } else if (message.type === 'load') {
    const latencies = [];
    stopping = false;
    await Promise.all(
      Array.from({ length: readers }, async () => {
        while (!stopping) await readOnce(latencies);
      }),
    );
    parentPort.postMessage({ type: 'load', latencies, errors, bytes });
  } else if (message.type === 'stop') {
    stopping = true;
  } else if (message.type === 'last') {
    const body = await readOnce([]);
    await pool.close();
    parentPort.postMessage({ type: 'last', body });
  }
});
