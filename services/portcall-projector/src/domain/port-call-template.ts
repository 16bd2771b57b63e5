// The port-call template: the activity timeline's slots (shared/reference/original-app.md §4.4). The files are in
// services/portcall-projector/data/port-call-templates/<namespace>.txt; an adapter reads them, this parses them.

import { ApiError } from '@pcas/contracts';

/** The three parts of the timeline: before the port, at berth, after the port. */
export const TIMELINE_GROUPS = ['seaArriving', 'atBerth', 'seaDeparting'] as const;
export type TimelineGroup = (typeof TIMELINE_GROUPS)[number];

/** One template line, as `GET /port-call-template` lists it. */
export interface TemplateEntry {
  group: string;
  time_type: string;
  state: string;
  /** `k=v` pairs after the state, e.g. `{direction: 'inbound'}`; `{}` when none. */
  payload: Record<string, string>;
}

function parsePayload(raw: string | undefined): Record<string, string> {
  const payload: Record<string, string> = {};
  if (!raw) return payload;
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    if (at < 0) payload[pair] = '';
    else payload[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return payload;
}

/**
 * Entries separated by `;` or new lines, each `group:time_type:state[:k=v,k=v]`. Lines are kept as written,
 * duplicates included (the Gävle template lists Actual Arrival_Vessel_AnchorageArea twice), as the original
 * returns them; the timeline de-duplicates by slot key.
 */
export function parsePortCallTemplate(text: string): TemplateEntry[] {
  return text
    .split(/[;\n]/)
    .map((token) => token.trim())
    .filter((token) => token !== '')
    .map((token) => {
      const [group = '', timeType = '', state = '', payload] = token.split(':');
      return { group, time_type: timeType, state, payload: parsePayload(payload) };
    });
}

/** The template for a namespace from the loaded files (namespace → file text); 400 when there is none. */
export function portCallTemplate(namespace: string, templates: Readonly<Record<string, string>>): TemplateEntry[] {
  const text = Object.hasOwn(templates, namespace.toLowerCase()) ? templates[namespace.toLowerCase()] : undefined;
  if (!text || text.trim() === '') throw ApiError.badRequest(`No port call template for namespace ${namespace}`);
  return parsePortCallTemplate(text);
}

/** A payload's `direction`, when it is a non-empty string or number (the original tests it for truthiness). */
export function directionOf(payload: unknown): string | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const d = (payload as Record<string, unknown>).direction;
  if (typeof d === 'string' && d !== '' && d !== '0') return d;
  if (typeof d === 'number' && d !== 0) return String(d);
  return undefined;
}

/** A timeline slot's key: `time_type_state`, plus `_direction` when the payload names one (§4.4). */
export function slotKey(timeType: string, state: string, payload: unknown): string {
  const direction = directionOf(payload);
  return `${timeType}_${state}${direction ? `_${direction}` : ''}`;
}

/** The (time type, state) pairs of a template, without duplicates: what API-key priorities may be set for. */
export function templatePairs(template: readonly TemplateEntry[]): { time_type: string; state: string }[] {
  const seen = new Set<string>();
  const pairs: { time_type: string; state: string }[] = [];
  for (const e of template) {
    const key = `${e.time_type}\u0000${e.state}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push({ time_type: e.time_type, state: e.state });
  }
  return pairs;
}
