// A relay in its own process, for tests that kill it with SIGKILL (a real crash: no cleanup, no final
// checkpoint, its PostgreSQL session and advisory lock die with the process). Prints `active` once it holds
// the lock. Configured through the environment.

import { createEventStore } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import { openDb } from '@pcas/sql';
import { createAmqpBus } from '../amqp-bus.ts';
import { startRelay } from '../relay.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const log = createLogger('relay-child', process.env.LOG_LEVEL ?? 'warn');
const db = await openDb({ url: env('DATABASE_URL'), applicationName: 'relay-child' });
const store = createEventStore(db);
const bus = await createAmqpBus({ url: env('AMQP_URL'), log, exchange: env('EXCHANGE') });
const relay = await startRelay({
  store,
  db,
  bus,
  log,
  name: env('RELAY_NAME'),
  batchSize: Number(process.env.BATCH_SIZE ?? 100),
});

const announce = setInterval(() => {
  if (!relay.active) return;
  process.stdout.write('active\n');
  clearInterval(announce);
}, 20);

process.on('SIGTERM', async () => {
  await relay.stop();
  await bus.close();
  await db.close();
  process.exit(0);
});
