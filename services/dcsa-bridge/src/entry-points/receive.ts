// cmd.dcsa-bridge, the receiving side (docs/dcsa.md#receiving): each DCSA request of a partner is checked against
// the standard's schema, decided by src/domain/jit.ts against what is stored, and appended as an event of the
// object's own stream with its row. A timestamp is first mapped to S-211 and posted to ingest (src/domain/mapping.ts),
// so that what the timeline got is recorded with it; a repeated request decides nothing and stores nothing. The
// appends of concurrent requests share a transaction (adapters/decided-appends.ts).
// putTimestamps carries the gateway's concurrent timestamp requests: each is the same putTimestamp, answered alone
// (adapters/request-batch.ts).

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type Actor,
  DcsaCommands,
  type DcsaOutcome,
  type DcsaRequestCommand,
  MAX_DCSA_BATCH,
  type ServiceDeps,
} from '@pcas/contracts';
import { createDecidedAppends } from '../adapters/decided-appends.ts';
import { batchOf } from '../adapters/request-batch.ts';
import { createRowLoaders } from '../adapters/row-loaders.ts';
import { latestVesselStatus, loadTerminalCall, type Partner, streams, withRetries } from '../adapters/store.ts';
import {
  type Body,
  type DcsaEvent,
  type Decision,
  decideCancelService,
  decideDeclineService,
  decideOmitPortCall,
  decideOmitTerminalCall,
  decidePutPortCall,
  decidePutService,
  decidePutTerminalCall,
  decidePutTimestamp,
  decidePutVesselStatus,
  refuse,
} from '../domain/jit.ts';
import { type Classifier, toS211 } from '../domain/mapping.ts';
import type { RequestSchemaName } from '../domain/schemas.ts';
import { validateBody } from '../domain/validation.ts';
import type { PostToTimeline } from './ingest-link.ts';

interface Decided {
  version: number;
  decision: Decision;
  /** Adds to the events what their I/O found (a timestamp's S-211 post), before they are appended. */
  complete?: (events: DcsaEvent[]) => Promise<DcsaEvent[]>;
}

type Decide = (partner: Partner, id: string, body: Body, actor: Actor) => Promise<Decided>;

export function receiveCommands(deps: ServiceDeps, postToTimeline: PostToTimeline): Record<string, CommandFunction> {
  const { db, store } = deps;
  const load = createRowLoaders(db);
  const appendDecision = createDecidedAppends(db, store, { maxItems: MAX_DCSA_BATCH });

  const handler =
    (schema: RequestSchemaName, streamOf: (id: string) => string, decide: Decide): CommandFunction =>
    async (payload, headers): Promise<DcsaOutcome> => {
      const { actor, input } = decodeCommand<DcsaRequestCommand>(payload);
      const partner = actor.api_key_id === null ? undefined : await load.partnerByApiKey(actor.api_key_id);
      if (!partner) {
        return refuse(403, 'This API key is not a DCSA partner', {
          errorCodeText: 'not a DCSA partner',
          errorCodeMessage: 'An administrator registers the API key as a DCSA partner first (docs/dcsa.md)',
        }).outcome;
      }
      const body = input.body;
      const problems = validateBody(schema, body);
      if (problems.length > 0) {
        return { status: 400, statusCodeMessage: problems[0].errorCodeMessage, errors: problems };
      }
      const id = String(input.id);
      const streamId = streamOf(id);
      return withRetries(
        streamId,
        async () => {
          const { version, decision, complete } = await decide(partner, id, body as Body, actor);
          if (decision.outcome.status !== 204 || decision.events.length === 0) return decision.outcome;
          const events = complete ? await complete(decision.events) : decision.events;
          const metadata = eventMetadata(actor, headers);
          await appendDecision({ streamId, version, events, metadata });
          return decision.outcome;
        },
        { log: deps.log },
      );
    };

  const putTimestamp: Decide = async (partner, id, body, actor) => {
    const [current, service, repliedTo] = await Promise.all([
      load.timestamp(id),
      load.service(String(body.portCallServiceID)),
      typeof body.replyToTimestampID === 'string' ? load.timestamp(body.replyToTimestampID) : undefined,
    ]);
    const portCall = service ? await load.portCall(service.port_call_id) : undefined;
    const decision = decidePutTimestamp(partner.id, id, body, current, service, portCall, repliedTo);
    const complete = async (events: DcsaEvent[]): Promise<DcsaEvent[]> => {
      const sb = service!.body;
      const classifier = body.classifierCode as Classifier;
      const mapped = toS211(
        {
          serviceType: String(sb.portCallServiceType),
          eventType: String(sb.portCallServiceEventTypeCode),
          phase: sb.portCallPhaseTypeCode as string | undefined,
        },
        classifier,
      );
      const imo = portCall?.imo ?? null;
      let s211: Record<string, unknown> = { imo, status: 'dcsa_only' };
      if (mapped && imo === null) s211 = { ...s211, ...mapped, error: 'The port call names no IMO number' };
      else if (mapped && imo !== null) {
        const answer = await postToTimeline(actor, {
          imo,
          vessel_name: portCall?.vessel_name ?? '',
          ...mapped,
          time: String(body.dateTime),
          manual: false,
          // What the timeline shows of the DCSA origin; no remark, so a changed remark posts the same time once.
          payload: {
            source: 'dcsa',
            dcsa_partner: partner.name,
            dcsa_classifier: classifier,
            dcsa_service_type: sb.portCallServiceType,
            dcsa_port_call_id: service!.port_call_id,
            dcsa_timestamp_id: id,
          },
        });
        s211 = { imo, ...mapped, ...answer };
      }
      return events.map((e) => ({ ...e, data: { ...e.data, s211 } }));
    };
    return { version: current?.version ?? 0, decision, complete };
  };

  const putTimestampCommand = handler('Timestamp', streams.timestamp, putTimestamp);

  return {
    [DcsaCommands.putPortCall]: handler('PortCall', streams.portCall, async (partner, id, body) => {
      const current = await load.portCall(id);
      return { version: current?.version ?? 0, decision: decidePutPortCall(partner.id, id, body, current) };
    }),
    [DcsaCommands.omitPortCall]: handler('OmitPortCall', streams.portCall, async (partner, id, body) => {
      const current = await load.portCall(id);
      return { version: current?.version ?? 0, decision: decideOmitPortCall(partner.id, id, body, current) };
    }),
    [DcsaCommands.putTerminalCall]: handler('TerminalCall', streams.terminalCall, async (partner, id, body) => {
      const current = await loadTerminalCall(db, id);
      const portCall = await load.portCall(String(body.portCallID));
      return {
        version: current?.version ?? 0,
        decision: decidePutTerminalCall(partner.id, id, body, current, portCall),
      };
    }),
    [DcsaCommands.omitTerminalCall]: handler('OmitTerminalCall', streams.terminalCall, async (partner, id, body) => {
      const current = await loadTerminalCall(db, id);
      const portCall = current ? await load.portCall(current.port_call_id) : undefined;
      return {
        version: current?.version ?? 0,
        decision: decideOmitTerminalCall(partner.id, id, body, current, portCall),
      };
    }),
    [DcsaCommands.putPortCallService]: handler('PortCallService', streams.service, async (partner, id, body) => {
      const current = await load.service(id);
      const terminalCall = await loadTerminalCall(db, String(body.terminalCallID));
      const portCall = terminalCall ? await load.portCall(terminalCall.port_call_id) : undefined;
      return {
        version: current?.version ?? 0,
        decision: decidePutService(partner.id, id, body, current, terminalCall, portCall),
      };
    }),
    [DcsaCommands.cancelPortCallService]: handler('Cancel', streams.service, async (partner, id, body) => {
      const current = await load.service(id);
      const portCall = current ? await load.portCall(current.port_call_id) : undefined;
      return { version: current?.version ?? 0, decision: decideCancelService(partner.id, id, body, current, portCall) };
    }),
    [DcsaCommands.declinePortCallService]: handler('Decline', streams.service, async (partner, id, body) => {
      const current = await load.service(id);
      const portCall = current ? await load.portCall(current.port_call_id) : undefined;
      return {
        version: current?.version ?? 0,
        decision: decideDeclineService(partner.id, id, body, current, portCall),
      };
    }),
    [DcsaCommands.putTimestamp]: putTimestampCommand,
    [DcsaCommands.putTimestamps]: batchOf(putTimestampCommand, deps.log),
    [DcsaCommands.putVesselStatus]: handler('VesselStatus', streams.vesselStatus, async (partner, id, body) => {
      const service = await load.service(id);
      const portCall = service ? await load.portCall(service.port_call_id) : undefined;
      const version = (await store.readStream(streams.vesselStatus(id))).length;
      const latest = await latestVesselStatus(db, id);
      return { version, decision: decidePutVesselStatus(partner.id, id, body, latest, service, portCall) };
    }),
  };
}
