// Port-call templates: the slots of the activity timeline per port namespace (docs/domain.md#the-timeline-template)
// from data/port-call-templates/<namespace>.txt (bundled into port-call-templates.generated.json by
// scripts/generate-templates.ts). Each entry is `group:time_type:state[:k=v,k=v]`, entries separated by new lines
// or `;`. Pure data and lookups.

import { isStateName, isTimeTypeName } from './index.ts';
import templateLines from './port-call-templates.generated.json' with { type: 'json' };

/** The three parts of the timeline, in order: before the port, at berth, after the port. */
export const TEMPLATE_GROUPS = ['seaArriving', 'atBerth', 'seaDeparting'] as const;
export type TemplateGroup = (typeof TEMPLATE_GROUPS)[number];

/** Where a group is drawn on the timeline: its event id 1 "sea", 2 "port", 3 "sea". */
export const TEMPLATE_GROUP_LOCATIONS: Readonly<Record<TemplateGroup, 'sea' | 'port'>> = {
  seaArriving: 'sea',
  atBerth: 'port',
  seaDeparting: 'sea',
};

export interface PortCallTemplateEntry {
  group: TemplateGroup;
  location: 'sea' | 'port';
  /** A posted time type, or the synthetic `LiveEstimated` (the port call's live ETA, never posted). */
  time_type: string;
  state: string;
  /** `payload.direction` when the entry names one (inbound / outbound pilotage are separate slots). */
  direction?: string;
  /** The `k=v` pairs after the state, `{}` when none; what GET /port-call-template shows as `payload`. */
  payload: Record<string, string>;
}

export interface TimestampPair {
  time_type: string;
  state: string;
}

const isGroup = (value: string): value is TemplateGroup => (TEMPLATE_GROUPS as readonly string[]).includes(value);

function parseEntry(text: string): PortCallTemplateEntry {
  const [group = '', timeType = '', state = '', options, ...rest] = text.split(':').map((part) => part.trim());
  if (!isGroup(group) || timeType === '' || state === '' || rest.length > 0) {
    throw new Error(`Invalid port call template entry: ${text}`);
  }
  const payload: Record<string, string> = {};
  for (const option of options ? options.split(',') : []) {
    const at = option.indexOf('=');
    if (at <= 0) throw new Error(`Invalid port call template entry: ${text}`);
    payload[option.slice(0, at).trim()] = option.slice(at + 1).trim();
  }
  const entry: PortCallTemplateEntry = {
    group,
    location: TEMPLATE_GROUP_LOCATIONS[group],
    time_type: timeType,
    state,
    payload,
  };
  if (payload.direction) entry.direction = payload.direction;
  return entry;
}

/**
 * Parses a template text. Entries are kept as written, in order, duplicates included (the Gävle template lists
 * Actual Arrival_Vessel_AnchorageArea twice; the timeline de-duplicates by slot). Throws on a malformed entry.
 */
export function parsePortCallTemplate(text: string): PortCallTemplateEntry[] {
  return text
    .split(/[;\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map(parseEntry);
}

const templates = new Map(
  Object.entries(templateLines as Record<string, string[]>).map(([namespace, lines]) => [
    namespace,
    Object.freeze(parsePortCallTemplate(lines.join('\n')).map((e) => Object.freeze(e))),
  ]),
);

/** Namespaces that have a bundled template. */
export const PORT_CALL_TEMPLATE_NAMESPACES: readonly string[] = [...templates.keys()];

/**
 * The template of a port namespace, or undefined when there is none (the original answers 400 "No port call
 * template for namespace X"). Case-insensitive, as the original's `PORT_CALL_TEMPLATE_<NAMESPACE>` variable.
 */
export function portCallTemplate(namespace: string): readonly PortCallTemplateEntry[] | undefined {
  return templates.get(namespace.toLowerCase());
}

const pairsByNamespace = new Map<string, readonly TimestampPair[]>();

/**
 * The distinct (time type, state) pairs of a namespace's template, in template order, keeping only pairs a
 * timestamp can carry (so no `LiveEstimated`): the pairs API-key priorities are set for
 * (docs/domain.md#timestamp-priorities).
 * Undefined when the namespace has no template.
 */
export function templatePairs(namespace: string): readonly TimestampPair[] | undefined {
  const key = namespace.toLowerCase();
  const cached = pairsByNamespace.get(key);
  if (cached) return cached;
  const template = templates.get(key);
  if (!template) return undefined;
  const seen = new Set<string>();
  const pairs: TimestampPair[] = [];
  for (const { time_type, state } of template) {
    const id = `${time_type}\u0000${state}`;
    if (seen.has(id) || !isTimeTypeName(time_type) || !isStateName(state)) continue;
    seen.add(id);
    pairs.push(Object.freeze({ time_type, state }));
  }
  const frozen = Object.freeze(pairs);
  pairsByNamespace.set(key, frozen);
  return frozen;
}

/**
 * Why a (time type, state) cannot have API-key priorities, or null when it can. As the original app: the time
 * type must be one of the template's time types and the state one of its states, each on its own, not as a
 * pair, so a pair the template does not list (Estimated Arrival_Vessel_Berth in gavle's) is accepted.
 */
export function priorityPairProblem(pairs: readonly TimestampPair[], timeType: string, state: string): string | null {
  if (!pairs.some((p) => p.time_type === timeType)) return `Invalid timestamp time type: ${timeType}`;
  if (!pairs.some((p) => p.state === state)) return `Invalid timestamp state: ${state}`;
  return null;
}
