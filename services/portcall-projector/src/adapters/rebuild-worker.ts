// A rebuild worker thread (adapters/rebuild.ts `workers`): its own PostgreSQL connections, rebuilding the chunks of
// vessels the main thread hands it, one transaction each, with the same code as every other rebuild. Folding is
// CPU work; threads let it use every core while other chunks wait for the database.

import { parentPort, workerData } from 'node:worker_threads';
import { createEventStore } from '@pcas/eventstore';
import { openDb } from '@pcas/sql';
import type { Priorities } from '../domain/port-calls.ts';
import { type ProjectorRules, rebuildVessels } from './projection.ts';

export interface RebuildWorkerData {
  databaseUrl: string;
  rules: ProjectorRules;
  priorities: Priorities;
}

export type RebuildWorkerRequest = { chunk: number[] } | { stop: true };

const data = workerData as RebuildWorkerData;
const db = await openDb({ url: data.databaseUrl, poolSize: 2, applicationName: 'portcall-rebuild' });
const store = createEventStore(db);

parentPort!.on('message', async (request: RebuildWorkerRequest) => {
  if ('stop' in request) {
    await db.close();
    parentPort!.close();
    return;
  }
  try {
    const outcome = await db.transaction((tx) => rebuildVessels(tx, store, data.rules, request.chunk, data.priorities));
    parentPort!.postMessage({ ok: true, chunk: request.chunk, outcome });
  } catch (error) {
    parentPort!.postMessage({ ok: false, chunk: request.chunk, error: (error as Error).stack ?? String(error) });
  }
});
parentPort!.postMessage({ ready: true });
