// Settings the gateway seeds and the rules of changing them (docs/domain.md#settings-and-modules).
// Ids keep the original's listing order, since GET /settings returns `[{id, <name>: value}]` and the UI shows
// them in that order.

import { ApiError, PORT_OPERATOR_EMAILS_DEFAULT, QUEUE_SETTING_DEFAULTS } from '@pcas/contracts';
import { isIsoDuration, parseEmailList } from '@pcas/values';
import { DEFAULT_REALTIME_ANONYMOUS, REALTIME_ANONYMOUS_MODES } from './realtime.ts';

export interface SettingDef {
  id: number;
  name: string;
  value: string;
}

// The queue's values are the queue-scheduler's fallbacks too (libs/contracts/src/queue.ts): one definition.
export const DEFAULT_SETTINGS: readonly SettingDef[] = [
  { id: 1, name: 'activity_module', value: 'enabled' },
  { id: 2, name: 'logistics_module', value: 'enabled' },
  { id: 3, name: 'queue_module', value: 'enabled' },
  { id: 4, name: 'map_module', value: 'enabled' },
  { id: 5, name: 'codeless_registration_module', value: 'disabled' },
  { id: 6, name: 'queue_travel_duration_to_berth', value: QUEUE_SETTING_DEFAULTS.queue_travel_duration_to_berth },
  { id: 7, name: 'queue_rta_window_duration', value: QUEUE_SETTING_DEFAULTS.queue_rta_window_duration },
  { id: 8, name: 'queue_laytime_buffer_duration', value: QUEUE_SETTING_DEFAULTS.queue_laytime_buffer_duration },
  {
    id: 9,
    name: 'queue_live_eta_alert_buffer_duration',
    value: QUEUE_SETTING_DEFAULTS.queue_live_eta_alert_buffer_duration,
  },
  {
    id: 10,
    name: 'queue_live_eta_alert_delay_duration',
    value: QUEUE_SETTING_DEFAULTS.queue_live_eta_alert_delay_duration,
  },
  { id: 11, name: 'port_operator_emails', value: PORT_OPERATOR_EMAILS_DEFAULT },
  // Not the original's (its socket server let anyone subscribe): what a socket that never signed in may subscribe
  // to, `off`, `signals` or `legacy` (any channel, as the original); domain/realtime.ts, docs/architecture.md#real-time.
  { id: 12, name: 'realtime_anonymous', value: DEFAULT_REALTIME_ANONYMOUS },
  // Not the original's (it had no VIS switch): VIS/STM messaging on or off, like the other modules.
  { id: 13, name: 'vis_module', value: 'enabled' },
  // Not the original's (it took a laytime of any length): the longest laytime of a slot request (docs/domain.md#queue).
  { id: 14, name: 'queue_max_laytime_duration', value: QUEUE_SETTING_DEFAULTS.queue_max_laytime_duration },
];

export const SETTING_NAMES: readonly string[] = DEFAULT_SETTINGS.map((s) => s.name);

/** The only setting anyone may read without a session (the login page asks before anyone logs in). */
export const PUBLIC_SETTINGS: readonly string[] = ['codeless_registration_module'];

const ON_OFF_SETTINGS = new Set(['activity_module', 'logistics_module', 'queue_module', 'map_module', 'vis_module']);
const DURATION_SETTINGS = new Set([
  'queue_travel_duration_to_berth',
  'queue_rta_window_duration',
  'queue_laytime_buffer_duration',
  'queue_live_eta_alert_buffer_duration',
  'queue_live_eta_alert_delay_duration',
  'queue_max_laytime_duration',
]);
const EMAIL_LIST_SETTINGS = new Set(['port_operator_emails']);

/** The UI cannot put an empty value in a URL path, so it sends this word to clear a setting. */
export const EMPTY_VALUE = 'empty';

export function isSettingName(name: string): boolean {
  return SETTING_NAMES.includes(name);
}

/**
 * The value PUT /settings/:name/:value stores, or a 400 with the original's messages: an unknown name first,
 * then a value the setting does not take. `empty` stores "" where "" is allowed (the e-mail list).
 */
export function settingValueToStore(name: string, value: string): string {
  if (!isSettingName(name)) throw ApiError.badRequest(`Invalid setting name: ${name}`);
  let valid = true;
  if (ON_OFF_SETTINGS.has(name)) valid = value === 'enabled' || value === 'disabled';
  else if (DURATION_SETTINGS.has(name)) valid = isIsoDuration(value);
  else if (EMAIL_LIST_SETTINGS.has(name)) valid = value === EMPTY_VALUE || parseEmailList(value) !== null;
  // codeless_registration_module: the original checks nothing; anything but "enabled" keeps sign-up closed.
  else if (name === 'codeless_registration_module') valid = value === 'enabled' || value === 'disabled';
  else if (name === 'realtime_anonymous') valid = (REALTIME_ANONYMOUS_MODES as readonly string[]).includes(value);
  if (!valid) throw ApiError.badRequest(`Invalid value: ${value} for setting: ${name}`);
  return value === EMPTY_VALUE ? '' : value;
}
