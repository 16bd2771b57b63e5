// Manual port-call corrections (docs/domain.md#corrections): the
// gateway checks the parameters' types and sends each command to the portcall-projector, which decides it against
// the vessel's stream and records it there (so a replay repeats it). Unknown ids, bad times and the like come back
// from the service as 400 with the original's messages. Answers are the original's: `true`, null, or
// `{"result": "OK"|"ERROR"}`.

import {
  type AttachOrphansCommand,
  PORTCALL_PROJECTOR,
  type PortCallIdCommand,
  PortcallCommands,
  type RebuildVesselCommand,
  type SetPortCallRangeCommand,
  type SetVesselVisibilityCommand,
  type UnsetPortCallIdCommand,
  type UpdatePortCallIdCommand,
} from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { bool, int, mixed, optional, text } from './params.ts';

export function portCallCorrectionRoutes(deps: GatewayDeps): Route[] {
  const { bus } = deps;

  /** A manage_port_call route of the activity module whose input goes to the projector as it is. */
  const command = <I>(
    method: Route['method'],
    path: string,
    params: Record<string, ParamSpec>,
    name: string,
    input: (params: Record<string, any>) => I,
    answer: (reply: unknown) => unknown = (reply) => reply,
  ): Route => ({
    method,
    path,
    permission: 'manage_port_call',
    module: 'activity',
    params,
    async handle(ctx) {
      return answer(await sendAs<I>(bus, PORTCALL_PROJECTOR, name, ctx.auth, input(ctx.params)));
    },
  });

  const portCallId = { port_call_id: int() } as const;
  const byPortCallId = (p: Record<string, any>): PortCallIdCommand => ({ port_call_id: p.port_call_id });

  return [
    command('GET', '/force-close-port-call', portCallId, PortcallCommands.forceClose, byPortCallId),
    command('GET', '/force-scan-port-call', portCallId, PortcallCommands.forceScan, byPortCallId),
    // {port_call_id, start, end, master_id, master_manual} (PortCallRangeReply).
    command('GET', '/port-call-range', portCallId, PortcallCommands.getPortCallRange, byPortCallId),
    command(
      'POST',
      '/port-call-range',
      { port_call_id: int(), start: text(), end: text() },
      PortcallCommands.setPortCallRange,
      (p): SetPortCallRangeCommand => ({ port_call_id: p.port_call_id, start: p.start, end: p.end }),
      () => null,
    ),
    command(
      'POST',
      '/update-port-call-id',
      // camelCase as the original's body.
      { id: int(), portCallId: int() },
      PortcallCommands.updatePortCallId,
      (p): UpdatePortCallIdCommand => ({ id: p.id, portCallId: p.portCallId }),
      () => true,
    ),
    command(
      'POST',
      '/unset-port-call-id',
      { id: int() },
      PortcallCommands.unsetPortCallId,
      (p): UnsetPortCallIdCommand => ({ id: p.id }),
      () => true,
    ),
    command(
      'GET',
      '/timestamps-to-port-calls',
      {
        imo: int(),
        isFromAgent: optional(bool(), false),
        ignoreStatus: optional(bool(), false),
      },
      PortcallCommands.attachOrphans,
      (p): AttachOrphansCommand => ({ imo: p.imo, isFromAgent: p.isFromAgent, ignoreStatus: p.ignoreStatus }),
    ),
    command(
      'GET',
      '/rebuild-port-calls',
      { imo: int() },
      PortcallCommands.rebuildVessel,
      (p): RebuildVesselCommand => ({ imo: p.imo }),
    ),
    command(
      'POST',
      '/vessel-visibility',
      // Untyped in the original (a JSON boolean from the UI); the projector reads true/false and their spellings.
      { imo: int(), visible: mixed() },
      PortcallCommands.setVesselVisibility,
      (p): SetVesselVisibilityCommand => ({ imo: p.imo, visible: p.visible }),
    ),
  ];
}
