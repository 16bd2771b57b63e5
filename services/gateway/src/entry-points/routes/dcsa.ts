// DCSA Just in Time Port Call 2.0.0, the standard's endpoints under /dcsa/jit/v2/ (docs/dcsa.md): a partner calls
// with its API key (permission `dcsa_partner`). A request goes on to cmd.dcsa-bridge with its body as sent, where it
// is validated against the standard's schemas and decided; the answer is the standard's: 204, or its ErrorResponse
// (400 naming the property, 403, 404, 409), always with the API-Version header. The lists are the bridge's queries
// (@pcas/dcsa-bridge/queries), with the standard's filters. Refusals before the request reaches these handlers
// (no or a wrong API key, a body that is not JSON) keep the kit's {"error"} shape. Concurrent timestamp requests
// travel to the bridge together (putTimestamps), each still answered on its own.

import { randomUUID } from 'node:crypto';
import {
  type CommandBody,
  DCSA_BRIDGE,
  DcsaCommands,
  type DcsaDetailedError,
  type DcsaOutcome,
  type DcsaRequestCommand,
  type DcsaRequestsCommand,
  MAX_DCSA_BATCH,
} from '@pcas/contracts';
import {
  filterProblem,
  LISTS,
  type ListName,
  partnerIdOfApiKey,
  portCallServicesOf,
  portCallsOf,
  REQUEST_BODY_PROPERTIES,
  type RequestSchemaName,
  terminalCallsOf,
  timestampsOf,
  vesselStatusesOf,
} from '@pcas/dcsa-bridge/queries';
import { HttpResponse, type ParamSpec, type RequestContext, type Route } from '@pcas/http-kit';
import { gatheredRpc } from '@pcas/messaging';
import { currentTraceCarrier } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { mixed, optional, optionalText, text } from './params.ts';

export const DCSA_PREFIX = '/dcsa/jit/v2';
export const DCSA_API_VERSION = '2.0.0';
const HEADERS = { 'API-Version': DCSA_API_VERSION };

// Each body property the standard defines, passed on as sent (the bridge validates it); a large bound, so that a
// long value gets the standard's error rather than the kit's.
const bodyParams = (...names: string[]): Record<string, ParamSpec> =>
  Object.fromEntries(names.map((name) => [name, optional(mixed(1_000_000))]));

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
};

/** The standard's ErrorResponse. */
export function dcsaError(
  ctx: RequestContext,
  method: string,
  requestUri: string,
  status: number,
  statusCodeMessage: string,
  errors: DcsaDetailedError[],
): HttpResponse {
  const reqId = ctx.headers['x-request-id'];
  const body = {
    httpMethod: method,
    requestUri,
    statusCode: status,
    statusCodeText: STATUS_TEXT[status] ?? 'Error',
    statusCodeMessage: statusCodeMessage.slice(0, 200),
    providerCorrelationReference: typeof reqId === 'string' ? reqId.slice(0, 100) : randomUUID(),
    errorDateTime: new Date().toISOString(),
    errors,
  };
  return new HttpResponse(status, JSON.stringify(body), HEADERS);
}

/** A request's API-Version header, when given, must name the major version of the path (2). */
function versionProblem(ctx: RequestContext): DcsaDetailedError | undefined {
  const asked = ctx.headers['api-version'];
  if (asked === undefined || asked === '2') return undefined;
  return {
    errorCode: 7002,
    property: 'API-Version',
    value: String(asked).slice(0, 500),
    errorCodeText: 'invalid header',
    errorCodeMessage: 'API-Version must name the major version only, 2, as the path does',
  };
}

function outcomeResponse(ctx: RequestContext, method: string, uri: string, outcome: DcsaOutcome): HttpResponse {
  if (outcome.status === 204) return new HttpResponse(204, '', HEADERS);
  return dcsaError(ctx, method, uri, outcome.status, outcome.statusCodeMessage, outcome.errors);
}

type Forward = (payload: CommandBody<DcsaRequestCommand>) => Promise<DcsaOutcome>;

export function dcsaRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;

  const alone =
    (command: string): Forward =>
    (payload) =>
      bus.rpc<DcsaOutcome>(DCSA_BRIDGE, command, payload);

  // A partner's timestamps come in bulk: concurrent ones travel to the bridge in one message (putTimestamps), as
  // the agent API's posts do to ingest (routes/timestamps.ts); a lone one goes at once. Each gets its own answer.
  const putTimestamp = gatheredRpc<DcsaRequestsCommand['items'][number], DcsaOutcome>(
    bus,
    DCSA_BRIDGE,
    DcsaCommands.putTimestamps,
    // Requests arriving together (one turn of the event loop) leave together, the first too (see createBatcher).
    { maxItems: MAX_DCSA_BATCH, sameTurn: true },
  );
  const gathered: Forward = (body) => putTimestamp({ body, headers: { ...currentTraceCarrier() } });

  const send = (
    method: 'PUT' | 'POST',
    path: string,
    forward: Forward,
    body: RequestSchemaName,
    uri: (id: string) => string,
  ): Route => ({
    method,
    path: `${DCSA_PREFIX}${path}`,
    permission: 'dcsa_partner',
    params: { id: text(100), ...bodyParams(...REQUEST_BODY_PROPERTIES[body]) },
    responses: {
      204: { description: 'Accepted (DCSA JIT 2.0.0); API-Version header.' },
      400: { description: "The standard's ErrorResponse, naming the property." },
      404: { description: "The standard's ErrorResponse: an object this partner does not know." },
      409: { description: "The standard's ErrorResponse: omitted, cancelled or declined." },
    },
    async handle(ctx) {
      const { id, ...fields } = ctx.params as Record<string, unknown>;
      const version = versionProblem(ctx);
      if (version) return dcsaError(ctx, method, uri(String(id)), 400, version.errorCodeMessage, [version]);
      const input: DcsaRequestCommand = { id: String(id), body: fields };
      const payload: CommandBody<DcsaRequestCommand> = { actor: actorOf(ctx.auth), input };
      const outcome = await forward(payload);
      return outcomeResponse(ctx, method, uri(String(id)), outcome);
    },
  });

  const list = (
    path: string,
    name: ListName,
    read: (db: Queryable, partnerId: number, filters: Record<string, string | undefined>) => Promise<unknown[]>,
  ): Route => ({
    method: 'GET',
    path: `${DCSA_PREFIX}${path}`,
    permission: 'dcsa_partner',
    params: Object.fromEntries(LISTS[name].filters.map((filter) => [filter, optionalText(200) as ParamSpec])),
    responses: { 400: { description: "The standard's ErrorResponse: a filter missing or malformed." } },
    async handle(ctx) {
      const uri = `${DCSA_PREFIX}${path}`;
      const version = versionProblem(ctx);
      if (version) return dcsaError(ctx, 'GET', uri, 400, version.errorCodeMessage, [version]);
      const partnerId = ctx.auth.apiKeyId === null ? undefined : await partnerIdOfApiKey(db, ctx.auth.apiKeyId);
      if (partnerId === undefined) {
        return dcsaError(ctx, 'GET', uri, 403, 'This API key is not a DCSA partner', [
          {
            errorCode: 7008,
            errorCodeText: 'not a DCSA partner',
            errorCodeMessage: 'This API key is not a DCSA partner',
          },
        ]);
      }
      const filters = ctx.params as Record<string, string | undefined>;
      const problem = filterProblem(name, filters);
      if (problem) return dcsaError(ctx, 'GET', uri, 400, problem.errorCodeMessage, [problem]);
      return new HttpResponse(200, JSON.stringify(await read(db, partnerId, filters)), HEADERS);
    },
  });

  const at =
    (segment: string, suffix = '') =>
    (id: string) =>
      `${DCSA_PREFIX}/${segment}/${id}${suffix}`;
  return [
    send('PUT', '/port-calls/:id', alone(DcsaCommands.putPortCall), 'PortCall', at('port-calls')),
    send('POST', '/port-calls/:id/omit', alone(DcsaCommands.omitPortCall), 'OmitPortCall', at('port-calls', '/omit')),
    list('/port-calls', 'portCalls', portCallsOf),
    send('PUT', '/terminal-calls/:id', alone(DcsaCommands.putTerminalCall), 'TerminalCall', at('terminal-calls')),
    send(
      'POST',
      '/terminal-calls/:id/omit',
      alone(DcsaCommands.omitTerminalCall),
      'OmitTerminalCall',
      at('terminal-calls', '/omit'),
    ),
    list('/terminal-calls', 'terminalCalls', terminalCallsOf),
    send(
      'PUT',
      '/port-call-services/:id',
      alone(DcsaCommands.putPortCallService),
      'PortCallService',
      at('port-call-services'),
    ),
    send(
      'POST',
      '/port-call-services/:id/cancel',
      alone(DcsaCommands.cancelPortCallService),
      'Cancel',
      at('port-call-services', '/cancel'),
    ),
    send(
      'POST',
      '/port-call-services/:id/decline',
      alone(DcsaCommands.declinePortCallService),
      'Decline',
      at('port-call-services', '/decline'),
    ),
    list('/port-call-services', 'portCallServices', portCallServicesOf),
    send('PUT', '/timestamps/:id', gathered, 'Timestamp', at('timestamps')),
    list('/timestamps', 'timestamps', timestampsOf),
    send('PUT', '/vessel-statuses/:id', alone(DcsaCommands.putVesselStatus), 'VesselStatus', at('vessel-statuses')),
    list('/vessel-statuses', 'vesselStatuses', vesselStatusesOf),
  ];
}
