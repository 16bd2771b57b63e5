// Translations (docs/domain.md#translations): flat key → text maps per (namespace, language). The keys
// are the English source texts. Timestamp labels use the key "<time_type> <state with _ as spaces>"; their
// default text is the S-211 catalogue's name of the state, so the timeline reads the IALA naming until a port
// stores its own (shorter) text, which then wins. Pure.

import { ApiError, MAIL_TRANSLATION_KEYS, mailKeyText, type TranslationEntry } from '@pcas/contracts';
import { defaultTimestampLabel, STATES, stateByName, TIME_TYPE_NAMES, timestampLabelKey } from '@pcas/s211';

/** The language the S-211 names are written in; other languages fall back to it in the UI. */
export const DEFAULT_TEXT_LANGUAGE = 'en';

// No '-' in a namespace, so `translations-<ns>-<lng>` names one pair; i18next uses common, gavle, rauma.
const NAMESPACE = /^[A-Za-z0-9_]{1,64}$/;
// BCP 47 tags (en, en-US, zh-Hant-TW) and i18next's `dev`; up to 35 characters as the RFC allows.
const LANGUAGE = /^[A-Za-z0-9]{1,8}([-_][A-Za-z0-9]{1,8}){0,4}$/;

export const MAX_KEY_LENGTH = 1_000;
export const MAX_VALUE_LENGTH = 10_000;
export const MAX_ENTRIES = 20_000;

export function checkNamespaceAndLanguage(namespace: string, language: string): void {
  if (!NAMESPACE.test(namespace)) throw ApiError.badRequest(`Invalid namespace: ${clip(namespace)}`);
  if (!LANGUAGE.test(language) || language.length > 35) {
    throw ApiError.badRequest(`Invalid language: ${clip(language)}`);
  }
}

export { timestampLabelKey };

// The timeline's synthetic live ETA row (port call template) is labelled like a time type of its own.
const LIVE_ESTIMATED: readonly [string, string, string][] = [
  ['LiveEstimated', 'Arrival_Vessel_PortArea', 'Live Estimated'],
];

function buildTimestampDefaults(): ReadonlyMap<string, string> {
  const texts = new Map<string, string>();
  for (const timeType of TIME_TYPE_NAMES) {
    for (const state of STATES)
      texts.set(timestampLabelKey(timeType, state.name), defaultTimestampLabel(timeType, state.name)!);
  }
  for (const [timeType, state, words] of LIVE_ESTIMATED) {
    texts.set(timestampLabelKey(timeType, state), `${words} ${stateByName(state)!.label}`);
  }
  // The queue's e-mail phrases, so a port finds them in the editor before translating any.
  for (const key of MAIL_TRANSLATION_KEYS) texts.set(key, mailKeyText(key));
  return texts;
}

const TIMESTAMP_DEFAULTS = buildTimestampDefaults();

/** Texts served when nothing is stored for a key: the S-211 timestamp names and the e-mail phrases, in English, in every namespace. */
export function defaultTranslations(_namespace: string, language: string): ReadonlyMap<string, string> {
  return language === DEFAULT_TEXT_LANGUAGE ? TIMESTAMP_DEFAULTS : new Map();
}

/** What GET /translations/:ns/:lng answers: stored texts over the defaults. */
export function effectiveTranslations(
  defaults: ReadonlyMap<string, string>,
  stored: readonly TranslationEntry[],
): Record<string, string> {
  const merged = new Map(defaults);
  for (const { key, value } of stored) merged.set(key, value);
  // fromEntries defines own properties, so a key such as "__proto__" stays a plain key.
  return Object.fromEntries(merged);
}

/**
 * Reads a list of texts in either form clients send: `{key: text, ...}` (i18next saveMissing) or
 * `[{key, value}, ...]` (the admin page). Every key and text must be a string within bounds; a repeated key
 * keeps its last text. Anything else is a 400 naming the parameter, so nothing half-applies.
 */
export function readEntries(param: string, input: unknown): TranslationEntry[] {
  const entries: [unknown, unknown][] = [];
  if (Array.isArray(input)) {
    for (const item of input) {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        throw ApiError.badRequest(`Invalid ${param}: each item must be an object with key and value`);
      }
      const row = item as Record<string, unknown>;
      entries.push([row.key, row.value]);
    }
  } else if (input !== null && typeof input === 'object') {
    for (const [key, value] of Object.entries(input)) entries.push([key, value]);
  } else {
    throw ApiError.badRequest(`Invalid ${param}: expected a list of translations`);
  }
  if (entries.length > MAX_ENTRIES) throw ApiError.badRequest(`Invalid ${param}: at most ${MAX_ENTRIES} translations`);
  const byKey = new Map<string, string>();
  for (const [key, value] of entries) {
    if (typeof key !== 'string' || key === '' || key.length > MAX_KEY_LENGTH) {
      throw ApiError.badRequest(`Invalid translation key in ${param}: ${clip(describe(key))}`);
    }
    if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH) {
      throw ApiError.badRequest(`Invalid translation value for key: ${clip(key)}`);
    }
    byKey.set(key, value);
  }
  return [...byKey].map(([key, value]) => ({ key, value }));
}

/** POST /translation (missing keys): only keys with neither a stored nor a default text are added. */
export function missingToAdd(
  missing: readonly TranslationEntry[],
  stored: ReadonlyMap<string, string>,
  defaults: ReadonlyMap<string, string>,
): TranslationEntry[] {
  return missing.filter(({ key }) => !stored.has(key) && !defaults.has(key));
}

/**
 * PUT /translations: every key must exist (stored, or a default text a port may override); the original
 * crashed on an unknown key, here it is a 400 and nothing changes. Returns the entries whose
 * stored text actually changes.
 */
export function updatesToApply(
  updated: readonly TranslationEntry[],
  stored: ReadonlyMap<string, string>,
  defaults: ReadonlyMap<string, string>,
): TranslationEntry[] {
  for (const { key } of updated) {
    if (!stored.has(key) && !defaults.has(key)) throw ApiError.badRequest(`Unknown translation key: ${clip(key)}`);
  }
  return updated.filter(({ key, value }) => stored.get(key) !== value);
}

/** POST /translations replaces the stored texts; true when that changes anything. */
export function replacementChanges(
  translations: readonly TranslationEntry[],
  stored: ReadonlyMap<string, string>,
): boolean {
  if (translations.length !== stored.size) return true;
  return translations.some(({ key, value }) => stored.get(key) !== value);
}

const clip = (text: string) => (text.length > 100 ? `${text.slice(0, 100)}...` : text);

function describe(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
