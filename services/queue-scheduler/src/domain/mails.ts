// The queue's e-mails (docs/domain.md#queue-e-mails-and-live-eta): the slot request mail to the vessel per
// status, the live ETA alert and the berth block shifted mail to the port operators, the RTA web form link. Text
// and HTML; every phrase goes through the port's translations, keyed by the English text with the original's
// prefix, and falls back to the text itself. Times in the port's time zone, as ISO 8601 with its offset. Pure.

import { isoInZone, isTimeZone, MAIL_TRANSLATION_KEYS, mailKeyText, type SlotRequestStatus } from '@pcas/contracts';
import { isoUtc } from './queue-rules.ts';

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A stored text for a key, or undefined (then the English text after the key's prefix is used). */
export type Translations = (key: string) => string | undefined;

const SLOT = '[EMAIL SLOT REQUEST]';
const ALERT = '[EMAIL LIVE ETA ALERT]';
const BLOCK = '[EMAIL BERTH BLOCK]';
const RTA_FORM = '[EMAIL RTA FORM]';

// The keys live in libs/contracts: the gateway serves their English texts as translation defaults.
export { MAIL_TRANSLATION_KEYS };

/** The translator of one mail: the stored text, else the English after the prefix. */
export function translator(stored: Translations): (key: string) => string {
  return (key) => {
    const text = stored(key);
    return text !== undefined && text !== '' ? text : mailKeyText(key);
  };
}

/** Subject suffix and heading per status; statuses without a mail (requested, completed) are absent. */
const SLOT_TEXTS: Partial<Record<SlotRequestStatus, [string, string]>> = {
  offered: ['offer', 'Please send your JIT ETA to outer port area based on RTA window given by port.'],
  accepted: ['confirmation', 'Your JIT ETA to outer port area has been accepted.'],
  no_nomination: ['nomination not found', 'Port is unable to find nomination for your slot request.'],
  no_free_slot: ['free slot not available', 'Port is unable to find free slot for your request.'],
  updated: ['updated by port', 'Port has updated your JIT ETA.'],
  cancelled_by_vessel: ['cancellation confirmation', 'Your slot request has been cancelled by your request.'],
  cancelled_by_port: ['cancelled by port', 'Your slot request has been cancelled by port.'],
};

/** Whether a slot request in this status is mailed. */
export const mailsStatus = (status: SlotRequestStatus): boolean => SLOT_TEXTS[status] !== undefined;

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `2024-06-11T13:30:00+03:00`: the original's ATOM format, in the given IANA zone (UTC when unknown). */
export const atomInZone = (ms: number, timeZone = 'UTC'): string =>
  // UTC (the default) needs no zone rules: its wall clock is the Date's own, written the same for four-digit years.
  timeZone === 'UTC' && ms >= FOUR_DIGIT_YEARS_FROM && ms < FOUR_DIGIT_YEARS_TO
    ? isoUtc(ms)
    : isoInZone(ms, isTimeZone(timeZone) ? timeZone : 'UTC');

const FOUR_DIGIT_YEARS_FROM = Date.UTC(1000, 0, 1);
const FOUR_DIGIT_YEARS_TO = Date.UTC(10_000, 0, 1);

/** Paragraphs and an optional link, as text and as a small HTML page. */
function compose(to: string[], subject: string, lines: string[], link?: { url: string; after?: string[] }): Mail {
  const textParts = [...lines];
  const htmlParts = lines.map((line, i) => (i === 0 ? `<h2>${escapeHtml(line)}</h2>` : `<p>${escapeHtml(line)}</p>`));
  if (link) {
    textParts.push(link.url, ...(link.after ?? []));
    htmlParts.push(`<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>`);
    htmlParts.push(...(link.after ?? []).map((line) => `<p>${escapeHtml(line)}</p>`));
  }
  return {
    to,
    subject,
    text: `${textParts.join('\n\n')}\n`,
    html: `<!doctype html><html><body>${htmlParts.join('')}</body></html>`,
  };
}

export interface SlotRequestMailInput {
  slot_request_id: number;
  status: SlotRequestStatus;
  email: string;
  /** The JIT ETA form with the signed link's token. */
  link: string;
  /** When the link's token expires (epoch ms). */
  linkExpires: number;
}

/** The slot request mail to the vessel, or null for a status the original does not mail. */
export function slotRequestMail(input: SlotRequestMailInput, stored: Translations, timeZone?: string): Mail | null {
  const texts = SLOT_TEXTS[input.status];
  if (!texts) return null;
  const t = translator(stored);
  const [suffix, heading] = texts;
  const subject = `${t(`${SLOT} Slot request`)} #${input.slot_request_id} ${t(`${SLOT} ${suffix}`)}`;
  return compose(
    [input.email],
    subject,
    [t(`${SLOT} ${heading}`), t(`${SLOT} To view and update your slot request please use the link below.`)],
    {
      url: input.link,
      after: [`${t(`${SLOT} This link is valid until:`)} ${atomInZone(input.linkExpires, timeZone)}`],
    },
  );
}

export interface LiveEtaAlertMailInput {
  to: string[];
  vessel_name: string;
  imo: number;
  jit_eta: number;
  live_eta: number | null;
}

/** The live ETA alert to the port operators and the nomination's e-mail. */
export function liveEtaAlertMail(input: LiveEtaAlertMailInput, stored: Translations, timeZone?: string): Mail {
  const t = translator(stored);
  const live = input.live_eta === null ? t(`${ALERT} unknown`) : atomInZone(input.live_eta, timeZone);
  return compose(input.to, `${t(`${ALERT} Live ETA alert for`)} ${input.vessel_name}`, [
    `${t(`${ALERT} Ship`)} ${input.vessel_name} (IMO: ${input.imo}) ${t(`${ALERT} JIT ETA differs from Live ETA`)}`,
    `${t(`${ALERT} JIT ETA`)}: ${atomInZone(input.jit_eta, timeZone)}`,
    `${t(`${ALERT} Live ETA`)}: ${live}`,
  ]);
}

export interface BerthBlockMailInput {
  to: string[];
  berth_code: string;
  berth_name: string;
  berth_reservation_id: number;
  start: number;
  end: number;
}

/** A port block moved by a longer laytime before it, to the port operators. */
export function berthBlockShiftedMail(input: BerthBlockMailInput, stored: Translations, timeZone?: string): Mail {
  const t = translator(stored);
  const id = input.berth_reservation_id;
  return compose(
    input.to,
    `${t(`${BLOCK} Berth`)} ${input.berth_code} ${t(`${BLOCK} block`)} #${id} ${t(`${BLOCK} shifted`)}`,
    [
      `${t(`${BLOCK} Berth`)} ${input.berth_name} ${t(`${BLOCK} block`)} #${id} ${t(`${BLOCK} has been shifted due to laytime change`)}`,
      t(`${BLOCK} New berth block time`),
      `${atomInZone(input.start, timeZone)} - ${atomInZone(input.end, timeZone)}`,
    ],
  );
}

export interface RtaFormMailInput {
  email: string;
  link: string;
  linkExpires: number;
}

/** The link to the RTA web form, to the port call's ETA form e-mail. */
export function rtaFormMail(input: RtaFormMailInput, stored: Translations, timeZone?: string): Mail {
  const t = translator(stored);
  return compose(
    [input.email],
    `Port Activity App / ${t(`${RTA_FORM} Link to RTA form`)}`,
    [
      t(`${RTA_FORM} Link to RTA form`),
      t(`${RTA_FORM} The port has given your vessel a required time of arrival (RTA). Please open the form below.`),
    ],
    {
      url: input.link,
      after: [`${t(`${RTA_FORM} This link is valid until:`)} ${atomInZone(input.linkExpires, timeZone)}`],
    },
  );
}

/** `port_operator_emails` as stored: space or comma separated; `empty` or blank is none. */
export function operatorEmails(setting: string | null | undefined): string[] {
  if (!setting || setting.trim() === 'empty') return [];
  return [...new Set(setting.split(/[\s,]+/).filter((e) => e !== ''))];
}
