// The settings that steer the port-call rules (docs/domain.md#grouping, #the-activity-timeline), as one plain
// object. A rebuild under other settings re-derives every port call from the same events.

import { type IsoDuration, parseIsoDuration, ZERO_DURATION } from '@pcas/values';

export interface PortCallSettings {
  /** PORT_CALL_MASTER_SOURCE: payload `source` values whose `external_id` is a master ID. Empty: clustering mode. */
  masterSources: readonly string[];
  /** PORT_CALL_MASTER_START_BUFFER_DURATION, ISO 8601 (`PT6H`); missing or invalid: none. */
  masterStartBuffer: string;
  /** PORT_CALL_MASTER_END_BUFFER_DURATION (`PT12H`). */
  masterEndBuffer: string;
  /** PORT_CALL_DEPARTED_STATES: an Actual timestamp of one of these states makes its port call departed. */
  departedStates: readonly string[];
  /** VISIBLE_UNLOCODES: `to_port` values shown on the activity timeline; an empty `to_port` is always shown. */
  visibleUnlocodes: readonly string[];
  /** NAMESPACE: which timeline template (and translations) the port uses. */
  namespace: string;
}

export const DEFAULT_DEPARTED_STATES: readonly string[] = ['Departure_Vessel_Berth'];

export const DEFAULT_PORT_CALL_SETTINGS: PortCallSettings = Object.freeze({
  masterSources: [],
  masterStartBuffer: 'PT0S',
  masterEndBuffer: 'PT0S',
  departedStates: DEFAULT_DEPARTED_STATES,
  visibleUnlocodes: [],
  namespace: 'gavle',
});

/** A comma list; blanks dropped (the original kept an empty entry, which matched nothing useful). */
const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** Reads the original's environment variables; anything missing takes its default. */
export function parsePortCallSettings(env: Readonly<Record<string, string | undefined>>): PortCallSettings {
  const departed = list(env.PORT_CALL_DEPARTED_STATES);
  return {
    masterSources: list(env.PORT_CALL_MASTER_SOURCE),
    masterStartBuffer: env.PORT_CALL_MASTER_START_BUFFER_DURATION?.trim() || 'PT0S',
    masterEndBuffer: env.PORT_CALL_MASTER_END_BUFFER_DURATION?.trim() || 'PT0S',
    departedStates: departed.length > 0 ? departed : DEFAULT_DEPARTED_STATES,
    visibleUnlocodes: list(env.VISIBLE_UNLOCODES),
    namespace: env.NAMESPACE?.trim() || 'gavle',
  };
}

export const isMasterMode = (settings: PortCallSettings): boolean => settings.masterSources.length > 0;

/** Settings in the form the rules use; computed once per settings object. */
export interface CompiledSettings {
  master: boolean;
  masterSources: ReadonlySet<string>;
  startBuffer: IsoDuration;
  endBuffer: IsoDuration;
  departedStates: ReadonlySet<string>;
  visibleUnlocodes: ReadonlySet<string>;
}

const compiled = new WeakMap<PortCallSettings, CompiledSettings>();

export function compileSettings(settings: PortCallSettings): CompiledSettings {
  let c = compiled.get(settings);
  if (!c) {
    c = {
      master: isMasterMode(settings),
      masterSources: new Set(settings.masterSources),
      // The original falls back to no buffer when a duration is invalid. Blanks around one were always forgiven here.
      startBuffer: parseIsoDuration(settings.masterStartBuffer?.trim()) ?? ZERO_DURATION,
      endBuffer: parseIsoDuration(settings.masterEndBuffer?.trim()) ?? ZERO_DURATION,
      departedStates: new Set(settings.departedStates.length > 0 ? settings.departedStates : DEFAULT_DEPARTED_STATES),
      visibleUnlocodes: new Set(settings.visibleUnlocodes),
    };
    compiled.set(settings, c);
  }
  return c;
}
