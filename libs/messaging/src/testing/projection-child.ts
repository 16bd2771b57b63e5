// A partitioned projection in its own process, for tests that kill it with SIGKILL (a real crash: its broker
// connection, and so its claims on partitions, die with it). Prints `held <partitions>` each time the partitions it
// holds change. Configured through the environment.

import { createAmqpBus } from '../amqp-bus.ts';
import { startProjection } from '../projection.ts';
import { env, exitOnSigterm, openChild } from './child-process.ts';
import { countingApply } from './flow-fixture.ts';

const { log, db } = await openChild('projection-child');
const bus = await createAmqpBus({
  url: env('AMQP_URL'),
  log,
  exchange: env('EXCHANGE'),
  partitions: Number(env('PARTITIONS')),
  rebalanceMs: Number(env('REBALANCE_MS')),
});
const projection = await startProjection({
  bus,
  db,
  log,
  name: env('PROJECTION'),
  bindings: ['vessel.*'],
  apply: countingApply(env('TABLE')),
  partitioned: true,
});

let last = '';
setInterval(() => {
  const held = (projection.heldPartitions?.() ?? []).join(',');
  if (held === last) return;
  last = held;
  process.stdout.write(`held ${held}\n`);
}, 20);

exitOnSigterm(projection, bus, db);
