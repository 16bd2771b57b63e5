// The gateway serves the read models of every area, through each owner's queries module run in this process
// (docs/architecture.md#queries). Before it serves them, each owner sets up its own tables here (its schema
// set-up, idempotent and safe beside the owner's own processes), so no query has to allow for a table that is
// not there yet and no start order between the processes matters.

import { prepareQueries as prepareDcsa } from '@pcas/dcsa-bridge/queries';
import { prepareQueries as prepareIngest } from '@pcas/ingest/queries';
import { prepareQueries as prepareLogistics } from '@pcas/logistics/queries';
import { ensureMessagingSchema } from '@pcas/messaging';
import { prepareQueries as prepareNotifier } from '@pcas/notifier/queries';
import { prepareQueries as preparePortCalls } from '@pcas/portcall-projector/queries';
import { prepareQueries as prepareQueue } from '@pcas/queue-scheduler/queries';
import type { Db } from '@pcas/sql';
import { prepareQueries as prepareVis } from '@pcas/vis-bridge/queries';

const OWNERS = [
  // The projections' progress, for /health-check's lag.
  ensureMessagingSchema,
  preparePortCalls,
  prepareIngest,
  prepareNotifier,
  prepareLogistics,
  prepareQueue,
  prepareVis,
  prepareDcsa,
];

/** Sets up the tables of every area whose queries the gateway runs. */
export async function prepareOwnersTables(db: Db): Promise<void> {
  for (const prepare of OWNERS) await prepare(db);
}
