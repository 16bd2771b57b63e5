// The port-call template: the activity timeline's slots (docs/domain.md#the-timeline-template). The templates
// are those of libs/s211 (data/port-call-templates/<namespace>.txt, bundled there); this module picks one by
// namespace and holds the slot rules the timeline uses.

import { ApiError } from '@pcas/contracts';
import { parsePortCallTemplate as parseS211Template, portCallTemplate as s211Template } from '@pcas/s211';

/** One template line, as `GET /port-call-template` lists it (libs/s211's entries carry more; these are read). */
export interface TemplateEntry {
  group: string;
  time_type: string;
  state: string;
  /** `k=v` pairs after the state, e.g. `{direction: 'inbound'}`; `{}` when none. */
  payload: Record<string, string>;
}

/**
 * Entries separated by `;` or new lines, each `group:time_type:state[:k=v,k=v]`. Lines are kept as written,
 * duplicates included (the Gävle template lists Actual Arrival_Vessel_AnchorageArea twice), as the original
 * returns them; the timeline de-duplicates by slot key. A malformed entry throws.
 */
export const parsePortCallTemplate = (text: string): TemplateEntry[] => parseS211Template(text);

/** The bundled template of a namespace (case-insensitive); 400 when there is none, as the original. */
export function portCallTemplate(namespace: string): readonly TemplateEntry[] {
  const template = s211Template(namespace);
  if (!template || template.length === 0) {
    throw ApiError.badRequest(`No port call template for namespace ${namespace}`);
  }
  return template;
}

/** A payload's `direction`, when it is a non-empty string or number (the original tests it for truthiness). */
export function directionOf(payload: unknown): string | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const d = (payload as Record<string, unknown>).direction;
  if (typeof d === 'string' && d !== '' && d !== '0') return d;
  if (typeof d === 'number' && d !== 0) return String(d);
  return undefined;
}

/** A timeline slot's key: `time_type_state`, plus `_direction` when the payload names one. */
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
