// What each setting is, in words, and which values it takes: the gateway's rules (an on/off switch, an ISO 8601
// duration, a list of e-mail addresses), checked here first so the form can say what is wrong before sending.
// A setting this list does not know is still shown, as free text, so a newer service does not hide it. The rules
// themselves are the gateway's own, from @pcas/values.

import { isEmailAddress, isIsoDuration, isoDurationFields, splitEmailList } from '@pcas/values';

export type SettingKind = 'module' | 'switch' | 'choice' | 'duration' | 'emails' | 'text';

export interface SettingChoice {
  value: string;
  label: string;
  description: string;
}

export interface SettingInfo {
  kind: SettingKind;
  label: string;
  description?: string;
  /** The values of a `choice`, in order. */
  choices?: SettingChoice[];
}

export const SETTINGS: Record<string, SettingInfo> = {
  activity_module: {
    kind: 'module',
    label: 'Activity timeline and port calls',
    description: 'The live activity timeline and the port call lists with their corrections.',
  },
  logistics_module: {
    kind: 'module',
    label: 'Gate logistics',
    description: 'Trucks, license plates and containers passing the gates.',
  },
  queue_module: {
    kind: 'module',
    label: 'Just-in-time queue',
    description: 'Nominations, slot requests and berth reservations.',
  },
  map_module: { kind: 'module', label: 'Sea chart', description: 'Vessels and markers on a map.' },
  vis_module: {
    kind: 'module',
    label: 'STM / VIS',
    description: 'Voyage plans and text messages with STM vessels, inbound vessels and other ports.',
  },
  codeless_registration_module: {
    kind: 'module',
    label: 'Registration without a code',
    description: 'Anyone may create an account on the sign-in page, without a registration code.',
  },
  realtime_anonymous: {
    kind: 'choice',
    label: 'Live updates without signing in',
    description:
      'What a live connection that never signed in may receive. This web UI signs its connection in, so it works in every mode.',
    choices: [
      {
        value: 'off',
        label: 'Nothing',
        description: 'Only signed-in connections receive live updates, each what its user may see.',
      },
      {
        value: 'signals',
        label: 'Change signals (default)',
        description:
          'Anyone may receive the signals that say a list changed, which carry no data. The original web UI and mobile app get their live port call updates.',
      },
      {
        value: 'legacy',
        label: 'Everything, as the original',
        description:
          'Anyone may receive every channel, notifications and other users’ channels included. Needed only for the original web UI’s and mobile app’s notification pop-ups.',
      },
    ],
  },
  queue_travel_duration_to_berth: { kind: 'duration', label: 'Travel time from the queue to the berth' },
  queue_rta_window_duration: { kind: 'duration', label: 'Length of the arrival (RTA) window' },
  queue_laytime_buffer_duration: { kind: 'duration', label: 'Buffer after laytime' },
  queue_live_eta_alert_buffer_duration: { kind: 'duration', label: 'Live ETA alert: allowed difference' },
  queue_live_eta_alert_delay_duration: { kind: 'duration', label: 'Live ETA alert: delay before alerting' },
  queue_max_laytime_duration: {
    kind: 'duration',
    label: 'Longest laytime of a slot request',
    description: 'A slot request or change with a longer laytime is refused.',
  },
  port_operator_emails: {
    kind: 'emails',
    label: 'Port operator e-mail addresses',
    description: 'Who receives the just-in-time queue’s mails. Separate addresses with commas or spaces.',
  },
};

/** Any setting: its known description, or a module switch by its name's ending, or free text. */
export function settingInfo(name: string): SettingInfo {
  const known = SETTINGS[name];
  if (known) return known;
  if (name.endsWith('_module')) return { kind: 'module', label: wordsOfName(name.slice(0, -'_module'.length)) };
  return { kind: 'text', label: wordsOfName(name) };
}

/** A setting's name as words when no label is known: `queue_max_laytime_duration` → `Queue max laytime duration`. */
export function wordsOfName(name: string): string {
  const words = name.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `PT1H30M` → `1 h 30 min`; null when it is not a duration. */
export function durationInWords(value: string): string | null {
  const fields = isoDurationFields(value);
  if (!fields) return null;
  const parts: string[] = [];
  const add = (part: number | undefined, unit: string) => {
    if (part !== undefined) parts.push(`${part} ${unit}`);
  };
  add(fields.years, 'y');
  add(fields.months, 'mo');
  add(fields.weeks, 'wk');
  add(fields.days, 'd');
  add(fields.hours, 'h');
  add(fields.minutes, 'min');
  add(fields.seconds, 's');
  return parts.join(' ');
}

/** The addresses of a list that are not e-mail addresses. */
export function invalidEmails(value: string): string[] {
  return splitEmailList(value).filter((part) => !isEmailAddress(part));
}

/** What is wrong with a value for this kind of setting, or null. */
export function valueProblem(kind: SettingKind, value: string): string | null {
  if (kind === 'duration') {
    return isIsoDuration(value.trim()) ? null : 'Write a duration such as PT30M (30 minutes) or PT1H30M';
  }
  if (kind === 'emails') {
    return invalidEmails(value).length === 0 ? null : 'Not an e-mail address: {{addresses}}';
  }
  if (kind === 'text') return value.trim() === '' ? 'Write a value' : null;
  return null;
}

/** The gateway takes the value in the path; the word `empty` clears the e-mail list (an empty path part cannot). */
export function settingPath(name: string, value: string): string {
  const stored = value.trim() === '' ? 'empty' : value.trim();
  return `settings/${encodeURIComponent(name)}/${encodeURIComponent(stored)}`;
}
