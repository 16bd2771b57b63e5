// `pnpm rebuild:portcalls [-- --imo 9074729] [-- --workers 1]`: rebuilds the port calls of every vessel (or one)
// from the event log, with a progress bar and a closing events/s figure. Safe while the fleet runs and traffic
// flows (adapters/rebuild.ts): each chunk of vessels is replaced in one transaction under the vessels' locks.
// Fleet: against DATABASE_URL (the running projectors arm the moved timers by their sweep). Embedded: against the
// PGlite database in DATA_DIR, with the embedded service stopped (PGlite is one process's database).

import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '@pcas/config';
import { createEventStore } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import { openDb } from '@pcas/sql';
import { type RebuildProgress, rebuildAll } from '../adapters/rebuild.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { rulesFromEnv } from './service.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    imo: { type: 'string', multiple: true },
    workers: { type: 'string', default: '0' },
    concurrency: { type: 'string', default: '2' },
  },
});

function progressBar(p: RebuildProgress, startedMs: number): string {
  const width = 30;
  const share = p.totalEvents === 0 ? 1 : p.events / p.totalEvents;
  const filled = Math.round(share * width);
  const seconds = (performance.now() - startedMs) / 1000;
  const rate = seconds > 0 ? Math.round(p.events / seconds) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(share * 100)}%  ${p.vessels}/${p.totalVessels} vessels  ${p.events}/${p.totalEvents} events  ${rate} events/s`;
}

async function main() {
  const config = loadConfig(process.env);
  const log = createLogger('rebuild-portcalls', config.logLevel === 'info' ? 'warn' : config.logLevel);
  const imos = values.imo?.map((v) => {
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`--imo must be an IMO number, got '${v}'`);
    return n;
  });
  const db = config.databaseUrl
    ? await openDb({ url: config.databaseUrl, applicationName: 'rebuild-portcalls' })
    : await openDb({ dataDir: path.join(config.dataDir, 'pglite') });
  try {
    const store = createEventStore(db);
    await store.init();
    await ensureSchema(db);
    const started = performance.now();
    const tty = process.stderr.isTTY;
    let lastDraw = 0;
    const summary = await rebuildAll({
      db,
      store,
      log,
      rules: rulesFromEnv(process.env, config.namespace),
      imos,
      workers: Number(values.workers),
      concurrency: Number(values.concurrency),
      databaseUrl: config.databaseUrl,
      onProgress: (p) => {
        const now = performance.now();
        if (!tty && now - lastDraw < 5_000 && p.events < p.totalEvents) return;
        lastDraw = now;
        process.stderr.write(tty ? `\r${progressBar(p, started)}` : `${progressBar(p, started)}\n`);
      },
    });
    if (tty) process.stderr.write('\n');
    console.log(
      `Rebuilt ${summary.vessels} vessels: ${summary.events} events in ${summary.seconds.toFixed(1)} s, ` +
        `${summary.events_per_second} events/s; ${summary.signals} port-call changes signalled.`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
