// What a translations stream (`translations-<namespace>-<language>`) means: the stored texts of one pair after each
// of its events. The gateway records these events; every service that keeps a copy of the texts folds them here.

import type { TranslationsAdded, TranslationsReplaced, TranslationsUpdated } from './events-gateway.ts';

const TRANSLATION_EVENTS: ReadonlySet<string> = new Set([
  'TranslationsAdded',
  'TranslationsUpdated',
  'TranslationsReplaced',
]);

/** A (namespace, language) pair's stored texts after one event of its stream (Replaced: exactly its entries). */
export function evolveTranslations(
  texts: ReadonlyMap<string, string>,
  event: { type: string; data: unknown },
): Map<string, string> {
  const entries = (event.data as TranslationsAdded | TranslationsUpdated | TranslationsReplaced | null)?.translations;
  if (!TRANSLATION_EVENTS.has(event.type) || !Array.isArray(entries)) return new Map(texts);
  const out = event.type === 'TranslationsReplaced' ? new Map<string, string>() : new Map(texts);
  for (const { key, value } of entries) out.set(key, value);
  return out;
}
