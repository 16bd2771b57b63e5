// cmd.logistics: POST /agent/rest/logistics-timestamps (docs/domain.md#gate-logistics). A gate system's post is
// checked and decided by the domain, then appended with its row; a duplicate is answered OK and stores nothing.

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import { LogisticsCommands, type RecordGatePassageCommand, type ServiceDeps } from '@pcas/contracts';
import { recordGatePassage } from '../adapters/gate-passages.ts';
import { decideGatePassage, readGatePassage } from '../domain/gate-passages.ts';

export function gatePassageCommands(deps: ServiceDeps): Record<string, CommandFunction> {
  const { db, store, log } = deps;

  async function record(payload: unknown, headers: Record<string, unknown> = {}): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<RecordGatePassageCommand>(payload);
    const event = decideGatePassage(readGatePassage(input), actor);
    const stored = await recordGatePassage(db, store, event, eventMetadata(actor, headers));
    if (!stored) log.debug({ event_id: event.id }, 'gate passage already recorded');
    return { result: 'OK' };
  }

  return { [LogisticsCommands.recordGatePassage]: record };
}
