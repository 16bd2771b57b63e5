// What each setting is, in words, and which values it takes: the gateway's rules (an on/off switch, an ISO 8601
// duration, a list of e-mail addresses), checked here first so the form can say what is wrong before sending.
// A setting this list does not know is still shown, as free text, so a newer service does not hide it.

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
  if (name.endsWith('_module')) return { kind: 'module', label: name };
  return { kind: 'text', label: name };
}

// The gateway's (PHP DateInterval's) form: whole numbers, designators in order, a `T` only before a time part.
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/;

export function isIsoDuration(value: string): boolean {
  return ISO_DURATION.test(value);
}

/** `PT1H30M` → `1 h 30 min`; null when it is not a duration. */
export function durationInWords(value: string): string | null {
  const match = ISO_DURATION.exec(value);
  if (!match) return null;
  const [, y, mo, w, d, , h, mi, s] = match;
  const parts: string[] = [];
  const add = (part: string | undefined, unit: string) => {
    if (part) parts.push(`${Number.parseInt(part, 10)} ${unit}`);
  };
  add(y, 'y');
  add(mo, 'mo');
  add(w, 'wk');
  add(d, 'd');
  add(h, 'h');
  add(mi, 'min');
  add(s, 's');
  return parts.join(' ');
}

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function isEmailAddress(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at <= 0 || text.length > 254) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  return local.length <= 64 && LOCAL_PART.test(local) && domain.length <= 253 && DOMAIN.test(domain);
}

/** The addresses of a list that are not e-mail addresses. */
export function invalidEmails(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .filter((part) => part !== '')
    .filter((part) => !isEmailAddress(part));
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
