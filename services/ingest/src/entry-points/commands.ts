// The `cmd.ingest` RPC handler (docs/port-calls.md#ingest): one file per command group, each command reading
// decode → load state → decide (src/domain) → append with the expected version → reply.
// - timestamp-commands.ts: postTimestamp, postTimestamps (with the vessel cache and the timestamp batcher)
// - trash-commands.ts: deleteTimestamp, restoreTimestamp
// - priority-commands.ts: setTimestampApiKeyWeights, setPayloadKeyApiKeyWeights
// - vessel-type-command.ts: setVesselType

import { commandHandler } from '@pcas/commands';
import { IngestCommands } from '@pcas/contracts';
import { VesselCache } from '../adapters/vessel-cache.ts';
import type { IngestCommandDeps, IngestContext } from './command-context.ts';
import { createPriorityCommands } from './priority-commands.ts';
import { createTimestampCommands } from './timestamp-commands.ts';
import { createTrashCommands } from './trash-commands.ts';
import { createVesselTypeCommand } from './vessel-type-command.ts';

export type { PostTimestampReply } from '../adapters/timestamp-batch.ts';
export type { IngestCommandDeps } from './command-context.ts';

export function createIngestCommands(deps: IngestCommandDeps) {
  const ctx: IngestContext = {
    db: deps.db,
    store: deps.store,
    log: deps.log,
    namespace: deps.namespace,
    now: deps.now ?? (() => new Date()),
    cache: new VesselCache(deps.cacheSize ?? 50_000),
  };
  const commands = {
    ...createTimestampCommands(ctx),
    ...createTrashCommands(ctx),
    ...createPriorityCommands(ctx),
    ...createVesselTypeCommand(ctx),
  };

  /** The `cmd.ingest` RPC handler. */
  const handle = commandHandler({
    [IngestCommands.postTimestamp]: commands.postTimestamp,
    [IngestCommands.postTimestamps]: commands.postTimestamps,
    [IngestCommands.deleteTimestamp]: commands.deleteTimestamp,
    [IngestCommands.restoreTimestamp]: commands.restoreTimestamp,
    [IngestCommands.setTimestampApiKeyWeights]: commands.setTimestampApiKeyWeights,
    [IngestCommands.setPayloadKeyApiKeyWeights]: commands.setPayloadKeyApiKeyWeights,
    [IngestCommands.setVesselType]: commands.setVesselType,
  });

  return { ...commands, handle };
}

export type IngestCommandHandlers = ReturnType<typeof createIngestCommands>;
