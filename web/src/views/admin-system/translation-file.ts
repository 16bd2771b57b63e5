// Translation files as administrators exchange them: a flat JSON object `{"English text": "port's text"}` (what
// the download gives), or the API's list `[{key, value}]`. Checked here so a wrong file is refused in words
// before anything is replaced.

import i18next from 'i18next';
import { reloadTranslations } from '../../i18n/i18n.ts';

export interface TranslationEntry {
  key: string;
  value: string;
}

export type ReadResult = { entries: TranslationEntry[] } | { problem: string; detail?: Record<string, string> };

/** The language administrators edit: the keys are English, and the UI reads `en`. */
export const LANGUAGE = 'en';

export function readTranslationFile(content: string): ReadResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { problem: 'The file is not JSON.' };
  }
  if (parsed === null || typeof parsed !== 'object') {
    return { problem: 'The file must hold a JSON object of texts by their English key.' };
  }
  const pairs: [unknown, unknown][] = Array.isArray(parsed)
    ? parsed.map((item): [unknown, unknown] =>
        item && typeof item === 'object' ? [item.key, item.value] : [undefined, undefined],
      )
    : Object.entries(parsed);
  const byKey = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (typeof key !== 'string' || key === '') return { problem: 'Every text needs a key.' };
    if (typeof value !== 'string') return { problem: 'The text of “{{key}}” is not a string.', detail: { key } };
    byKey.set(key, value);
  }
  if (byKey.size === 0) return { problem: 'The file holds no texts.' };
  return { entries: [...byKey].map(([key, value]) => ({ key, value })) };
}

/** A picked file's text (FileReader: older browsers' files have no `text()`). */
export function fileText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

/** The texts as the download gives them: a flat object, keys in order, readable. */
export function translationFileContent(texts: Record<string, string>): string {
  const sorted = Object.fromEntries(Object.entries(texts).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(sorted, null, 2)}\n`;
}

/**
 * After a change: the page's texts are read again and every view redrawn with them. A reload merges into the texts
 * the page has, so a text an upload removed would stay; when the caller has the API's answer from after the change,
 * the namespace is set to exactly that. Views redraw on a language change, so the same language is set again.
 */
export async function applyTranslations(namespace: string, fresh?: unknown): Promise<void> {
  await reloadTranslations();
  if (fresh && typeof fresh === 'object' && !Array.isArray(fresh)) {
    // Not before the reload: removing a namespace's texts also drops it from the namespaces i18next reloads.
    i18next.removeResourceBundle(LANGUAGE, namespace);
    i18next.addResourceBundle(LANGUAGE, namespace, fresh);
  }
  await i18next.changeLanguage(i18next.language || LANGUAGE);
}
