// bench:positions' map views (bench/positions.ts), in a worker thread of their own: 16 browsers are 16 clients, and
// on the benchmark's main thread their latencies also counted its own work (building the AIS agent's batches).
// Plain JavaScript, as a worker starts without the TypeScript loader. Messages: `idle` (read `runs` times, answer
// the latencies), `load` (read until `stop`, then answer the latencies), `last` (one read, answer its JSON).
import { parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';

const { baseUrl, sessionId, readers } = workerData;
const pool = new Pool(baseUrl, { connections: readers, pipelining: 1 });
const headers = { authorization: `Bearer ${sessionId}`, 'accept-encoding': 'gzip' };
let errors = 0;
let bytes = 0;
let plain = 0;

/** One read: its JSON when `decode`, else nothing (the readers do not unpack what they read). */
async function readOnce(latencies, decode = false) {
  const t0 = performance.now();
  const res = await pool.request({ path: '/sea-chart/vessels', method: 'GET', headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  latencies.push(performance.now() - t0);
  if (res.statusCode !== 200) errors++;
  const zipped = res.headers['content-encoding'] === 'gzip';
  if (zipped) bytes = body.byteLength;
  else plain++;
  if (!decode) return undefined;
  return zipped ? gunzipSync(body) : body;
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
    parentPort.postMessage({ type: 'load', latencies, errors, bytes, plain });
  } else if (message.type === 'stop') {
    stopping = true;
  } else if (message.type === 'last') {
    const body = await readOnce([], true);
    await pool.close();
    parentPort.postMessage({ type: 'last', body });
  }
});
