// Timestamp routes: posting (agents and people) and trash/restore go to the ingest service over RPC; the lists
// are the projector's queries (`@pcas/portcall-projector/queries`), run here (docs/domain.md#posting-a-timestamp,
// #exports-and-the-timesheet).

import {
  ApiError,
  type CommandBody,
  INGEST,
  IngestCommands,
  MAX_TIMESTAMP_BATCH,
  type PostTimestampCommand,
  type PostTimestampsCommand,
} from '@pcas/contracts';
import { type ModuleName, type ParamSpec, parseLimit, parseOffset, type Route } from '@pcas/http-kit';
import { gatheredRpc } from '@pcas/messaging';
import { currentTraceCarrier } from '@pcas/observability';
import { listTimestamps, type TimestampFilter, withCreatorNames } from '@pcas/portcall-projector/queries';
import { creatorNames } from '../../adapters/read-models/port-calls.ts';
import { actorOf, sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { int, mixed, optional, optionalInt, optionalText, text } from './params.ts';

const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/**
 * The original's DateTools::isValidIsoDateTime: `YYYY-MM-DDThh:mm:ss±hh:mm` naming a real calendar instant;
 * `Z`, fractions and a missing offset are rejected. Any offset is accepted (the original accepts them too).
 */
export function isIsoDateTime(text: string): boolean {
  const m = ISO_WITH_OFFSET.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, , offsetHours, offsetMinutes] = m.slice(1).map(Number);
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return false;
  // Date.UTC rolls 2019-02-30 over into March; the original's round-trip check rejects such dates.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const POST_PARAMS: Record<string, ParamSpec> = {
  imo: int(),
  vessel_name: text(),
  time_type: text(),
  state: text(),
  time: text(),
  // An object, or a JSON string as the VIS agent sends it; the ingest domain decides.
  payload: mixed(1_000_000),
};

const LIST_PARAMS: Record<string, ParamSpec> = {
  id: optionalInt(),
  imo: optionalInt(),
  port_call_id: optionalInt(),
  start_date_time: optionalText(),
  end_date_time: optionalText(),
  // Checked by parseOffset/parseLimit so a negative limit gets the original's own message, not a type error.
  offset: optional(mixed()),
  limit: optional(mixed()),
  sort: optionalText(),
};

function listFilter(params: Record<string, any>): TimestampFilter {
  const filter: TimestampFilter = { id: params.id, imo: params.imo, port_call_id: params.port_call_id };
  // The original treats an empty date like any other malformed one; only an absent one means "no bound".
  if (params.start_date_time !== undefined) {
    if (!isIsoDateTime(params.start_date_time)) {
      throw ApiError.badRequest(`Given start date time is not in ISO format: ${params.start_date_time}`);
    }
    filter.start_date_time = params.start_date_time;
  }
  if (params.end_date_time !== undefined) {
    if (!isIsoDateTime(params.end_date_time)) {
      throw ApiError.badRequest(`Given end date time is not in ISO format: ${params.end_date_time}`);
    }
    filter.end_date_time = params.end_date_time;
  }
  return filter;
}

export function timestampRoutes(deps: GatewayDeps): Route[] {
  const { db, bus } = deps;

  // Concurrent posts travel to ingest together (one message, one append of many streams, one commit); a lone
  // post goes at once. Each request still gets its own answer. One batch on its way at a time: the posts arriving
  // meanwhile make the next one larger (measured under bench:ingest: about a tenth more accepted/s than two).
  const postTimestamp = gatheredRpc<PostTimestampsCommand['items'][number], unknown>(
    bus,
    INGEST,
    IngestCommands.postTimestamps,
    // Posts arriving together (one turn of the event loop) leave together, the first too (see createBatcher).
    { maxItems: MAX_TIMESTAMP_BATCH, sameTurn: true },
  );

  const post = (path: string, permission: string, manual: boolean, module?: ModuleName): Route => ({
    method: 'POST',
    path,
    permission,
    module,
    params: POST_PARAMS,
    async handle(ctx) {
      const { imo, vessel_name, time_type, state, time, payload } = ctx.params;
      const body: CommandBody<PostTimestampCommand> = {
        actor: actorOf(ctx.auth),
        input: { imo, vessel_name, time_type, state, time, payload, manual },
      };
      await postTimestamp({ body, headers: { ...currentTraceCarrier() } });
      return { result: 'OK' };
    },
  });

  // `named`: each row also says who created it in words (`created_by_name`, an added field: the web UI's vessel
  // timestamps show a data source's API key name rather than its user's id).
  const list = (path: string, permission: string, module?: ModuleName, named = false): Route => ({
    method: 'GET',
    path,
    permission,
    module,
    params: LIST_PARAMS,
    async handle({ params }) {
      const filter = listFilter(params);
      const limit = parseLimit(params.limit);
      const offset = parseOffset(params.offset);
      const page = await listTimestamps(db, filter, { offset, limit, sort: params.sort });
      return named ? withCreatorNames(page, (ids) => creatorNames(db, ids)) : page;
    },
  });

  const byId = (method: Route['method'], path: string, command: string): Route => ({
    method,
    path,
    permission: 'manage_port_call',
    module: 'activity',
    params: { id: int() },
    async handle(ctx) {
      await sendAs<{ id: number }>(bus, INGEST, command, ctx.auth, { id: ctx.params.id });
      return true;
    },
  });

  // Modules: what people do on the activity timeline and its admin pages belongs to `activity`. Data sources
  // posting and systems exporting stay open whatever the UI shows: other modules (queue, VIS) build on the
  // same timestamps, and an agent refused would silently drop data.
  return [
    post('/agent/rest/timestamps', 'timestamp', false),
    post('/timestamps', 'add_manual_timestamp', true, 'activity'),
    list('/timestamps', 'manage_port_call', 'activity', true),
    list('/export/timestamps', 'export_api'),
    byId('DELETE', '/timestamps', IngestCommands.deleteTimestamp),
    byId('POST', '/restore-timestamp', IngestCommands.restoreTimestamp),
  ];
}
