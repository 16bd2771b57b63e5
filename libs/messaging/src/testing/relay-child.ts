// A relay in its own process, for tests that kill it with SIGKILL (a real crash: no cleanup, no final
// checkpoint, its PostgreSQL session and advisory lock die with the process). Prints `active` once it holds
// the lock. Configured through the environment.

import { createEventStore } from '@pcas/eventstore';
import { createAmqpBus } from '../amqp-bus.ts';
import { startRelay } from '../relay.ts';
import { env, exitOnSigterm, openChild } from './child-process.ts';

const { log, db } = await openChild('relay-child');
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

exitOnSigterm(relay, bus, db);
