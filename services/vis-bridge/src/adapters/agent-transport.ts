// Agent mode (docs/domain.md#vis-and-other-ports): outgoing VIS calls go to the original's VIS agent at
// VIS_AGENT_API_URL, with its URL scheme `<base><call>[/<key>:<value>…]` and JSON bodies; the agent posts what it
// receives back to the /agent/rest/vis-* routes. Any answer but 200 is refused with 400, as the original did.

import { ApiError } from '@pcas/contracts';
import type { Logger } from '@pcas/observability';
import type {
  InterPortService,
  OutgoingDeparture,
  OutgoingRta,
  OutgoingTextMessage,
  VisTransport,
} from './transport.ts';

/** How long one agent call may take before it counts as failed. */
export const AGENT_TIMEOUT_MS = 10_000;

/** `<base><call>/<key>:<value>…`; a value keeps its colons (service ids are URNs) but nothing that ends a segment. */
export function agentUrl(base: string, call: string, args: Record<string, string | number | undefined> = {}): string {
  let url = `${base}${call}`;
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === '') continue;
    url += `/${key}:${encodeURIComponent(String(value)).replaceAll('%3A', ':')}`;
  }
  return url;
}

export function agentTransport(baseUrl: string, log: Logger): VisTransport {
  // The original concatenates; a base without its trailing slash would glue the call onto the last segment.
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;

  async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> {
    const call = url.slice(base.length).split('/')[0];
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(AGENT_TIMEOUT_MS),
      });
    } catch (error) {
      log.warn({ call, err: error }, 'VIS agent unreachable');
      throw ApiError.badRequest(`VIS agent call failed: ${call}`);
    }
    const text = await res.text();
    if (res.status !== 200) {
      log.warn({ call, status: res.status }, 'VIS agent refused a call');
      throw ApiError.badRequest(`VIS agent call failed: ${call} (HTTP ${res.status})`);
    }
    if (text.trim() === '') return {};
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  return {
    mode: 'agent',
    async findServices(query) {
      await call('GET', agentUrl(base, 'find-services', { imo: query.imo, 'service-id': query.service_id }));
    },
    async findInterPortServicesByLocode(locode): Promise<InterPortService[]> {
      const found = await call('GET', agentUrl(base, 'find-inter-port-services-by-locode', { locode }));
      if (!Array.isArray(found)) return [];
      return found
        .filter((s): s is Record<string, unknown> => s !== null && typeof s === 'object')
        .filter((s) => typeof s.service_id === 'string' && s.service_id !== '')
        .map((s) => ({
          name: typeof s.name === 'string' ? s.name : String(s.service_id),
          service_id: String(s.service_id),
        }));
    },
    async uploadTextMessage(m: OutgoingTextMessage) {
      const body: Record<string, string> = {
        to_service_id: m.to_service_id,
        to_url: m.to_url,
        author: m.author,
        subject: m.subject,
        body: m.body,
      };
      if (m.information_object_reference_id !== undefined) {
        body.information_object_reference_id = m.information_object_reference_id;
      }
      if (m.information_object_reference_type !== undefined) {
        body.information_object_reference_type = m.information_object_reference_type;
      }
      if (m.area !== undefined) body.area = m.area;
      await call('POST', agentUrl(base, 'upload-text-message'), body);
    },
    async sendRta(r: OutgoingRta) {
      await call('POST', agentUrl(base, 'send-rta'), {
        to_service_id: r.to_service_id,
        to_url: r.to_url,
        rtz_parse_results: r.rtz_parse_results,
        rtz: r.rtz,
        rta: r.rta,
        eta_min: r.eta_min,
        eta_max: r.eta_max,
      });
    },
    async sendDeparture(d: OutgoingDeparture) {
      await call('POST', agentUrl(base, 'send-departure'), {
        to_service_id: d.to_service_id,
        to_url: d.to_url,
        from_locode: d.from_locode,
        to_locode: d.to_locode,
        vessel_imo: d.vessel_imo,
        vessel_name: d.vessel_name,
        to_lat: d.to_lat,
        to_lon: d.to_lon,
        time: d.time,
      });
    },
    async poll() {
      await call('GET', agentUrl(base, 'poll-save'));
    },
    configuration() {
      return call('GET', agentUrl(base, 'config'));
    },
  };
}
