// Port-call queries (docs/domain.md#the-activity-timeline, #the-ship-object, #exports-and-the-timesheet): the
// activity timeline, the port-call list and timesheet, a port call's timestamps and its vessel's orphans, the
// CSV timesheet, the template and the manual-entry definitions, and the export. All of them read the
// portcall-projector's read models through its queries (`@pcas/portcall-projector/queries`), run here; nothing here
// changes data.

import { ApiError } from '@pcas/contracts';
import { HttpResponse, parseLimit, parseOffset, type Route } from '@pcas/http-kit';
import { exportPortCalls, listPortCalls, listTimestamps } from '@pcas/portcall-projector/queries';
import { portCallTemplate, TIMESTAMP_DEFINITIONS } from '@pcas/s211';
import { acceptsGzip } from '../../adapters/read-models/gzip-splice.ts';
import { createOngoingPortCalls, portCallById } from '../../adapters/read-models/port-calls.ts';
import { storedTranslations } from '../../adapters/translations.ts';
import { timelineSlots, timesheetCsv } from '../../domain/port-calls.ts';
import { DEFAULT_TEXT_LANGUAGE, defaultTranslations, effectiveTranslations } from '../../domain/translations.ts';
import type { GatewayDeps } from '../deps.ts';
import { page, searchedPage } from './paging.ts';
import { int, mixed, optional, optionalInt, optionalText, text } from './params.ts';

// These lists require limit and offset as the original did (paged by paging.ts).
const pageParam = mixed();

const invalidPortCallId = (id: unknown) => ApiError.badRequest(`Invalid port call ID: ${String(id)}`);

/** GET /timestamp-definitions items: the original's rows, whose audit columns were never set by a person. */
const DEFINITIONS = TIMESTAMP_DEFINITIONS.map((d) => ({
  id: d.id,
  name: d.name,
  time_type_id: d.time_type_id,
  state_id: d.state_id,
  created_by: null,
  created_at: null,
  modified_by: null,
  modified_at: null,
  time_type: d.time_type,
  state: d.state,
}));

/** GET /ongoing-port-calls: the activity timeline's port calls, gzipped for a client that accepts it. */
function ongoingPortCallsRoute({ db }: GatewayDeps): Route {
  const ongoingPortCalls = createOngoingPortCalls(db);
  return {
    method: 'GET',
    path: '/ongoing-port-calls',
    permission: 'basic_user_action',
    module: 'activity',
    // The spec's example also sends imo, limit, offset and sort; the original ignored them, and so does this.
    params: {},
    async handle({ headers, auth }) {
      const { body, pinned } = await ongoingPortCalls(auth.userId);
      // A megabyte of JSON for 300 port calls is some 50 kB gzipped; browsers and the mobile app ask for it.
      if (acceptsGzip(headers['accept-encoding'])) {
        return new HttpResponse(200, body.gzipped(pinned), { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
      }
      return new HttpResponse(200, body.json(pinned), { Vary: 'Accept-Encoding' });
    },
  };
}

/** GET <path>: a page of the timestamps `filter` selects by the route's one id parameter, `key`. */
function timestampsRoute(
  { db }: GatewayDeps,
  path: string,
  key: string,
  filter: (id: number) => Parameters<typeof listTimestamps>[1],
): Route {
  return {
    method: 'GET',
    path,
    permission: 'basic_user_action',
    module: 'activity',
    params: { [key]: int(), limit: pageParam, offset: pageParam, sort: text() },
    handle: ({ params }) => listTimestamps(db, filter(params[key]), page(params)),
  };
}

/** GET /port-call-csv: a port call's timesheet as CSV, in the default language's texts. */
function timesheetCsvRoute({ db, config }: GatewayDeps): Route {
  return {
    method: 'GET',
    path: '/port-call-csv',
    permission: 'basic_user_action',
    module: 'activity',
    params: { id: int(), time_zone: text(64) },
    async handle({ params }) {
      const found = await portCallById(db, params.id);
      if (!found) throw invalidPortCallId(params.id);
      const texts = effectiveTranslations(
        defaultTranslations(config.namespace, DEFAULT_TEXT_LANGUAGE),
        await storedTranslations(db, config.namespace, DEFAULT_TEXT_LANGUAGE),
      );
      const sheet = timesheetCsv(found.ship, timelineSlots(found.timeline), {
        timeZone: params.time_zone,
        translate: (text) => (Object.hasOwn(texts, text) ? texts[text] : undefined),
      });
      return new HttpResponse(200, sheet.body, {
        'Content-Type': 'application/csv',
        'Content-Disposition': `attachment; filename="${sheet.filename}"`,
      });
    },
  };
}

export function portCallRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;

  return [
    ongoingPortCallsRoute(deps),
    {
      method: 'GET',
      path: '/port-calls',
      permission: 'basic_user_action',
      module: 'activity',
      ...searchedPage(pageParam, (query) => listPortCalls(db, query)),
    },
    {
      method: 'GET',
      path: '/port-call',
      permission: 'basic_user_action',
      module: 'activity',
      params: { id: int() },
      async handle({ params }) {
        const found = await portCallById(db, params.id);
        if (!found) throw invalidPortCallId(params.id);
        return { ship: found.ship, timestamps: timelineSlots(found.timeline) };
      },
    },
    timestampsRoute(deps, '/port-call-timestamps', 'port_call_id', (id) => ({ port_call_id: id })),
    timestampsRoute(deps, '/non-port-call-timestamps', 'imo', (imo) => ({ imo, without_port_call: true })),
    timesheetCsvRoute(deps),
    {
      method: 'GET',
      path: '/port-call-template',
      permission: 'basic_user_action',
      module: 'activity',
      params: { namespace: text(64) },
      async handle({ params }) {
        const template = portCallTemplate(params.namespace);
        if (!template) throw ApiError.badRequest(`No port call template for namespace ${params.namespace}`);
        return template.map(({ group, time_type, state, payload }) => ({ group, time_type, state, payload }));
      },
    },
    {
      method: 'GET',
      path: '/timestamp-definitions',
      permission: 'add_manual_timestamp',
      module: 'activity',
      params: {},
      async handle() {
        return DEFINITIONS;
      },
    },
    {
      // Systems exporting stay open whatever the UI's modules show, as GET /export/timestamps.
      method: 'GET',
      path: '/export/port-calls',
      permission: 'export_api',
      params: {
        id: optionalInt(),
        imo: optionalInt(),
        offset: optional(mixed()),
        limit: optional(mixed()),
        sort: optionalText(),
      },
      async handle({ params }) {
        return exportPortCalls(
          db,
          { id: params.id, imo: params.imo },
          { offset: parseOffset(params.offset), limit: parseLimit(params.limit), sort: params.sort },
        );
      },
    },
  ];
}
