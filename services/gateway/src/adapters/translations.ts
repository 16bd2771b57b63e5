// Stored translation texts: events on `translations-<ns>-<lng>`, gateway.translations written in the same
// transaction. Defaults (S-211 timestamp names) are not stored; the domain merges them in on reads.

import {
  type Actor,
  type TranslationEntry,
  type TranslationsAdded,
  type TranslationsReplaced,
  type TranslationsUpdated,
  translationsStream,
} from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { defaultTranslations, missingToAdd, replacementChanges, updatesToApply } from '../domain/translations.ts';
import { lockStreamForDecision } from './decision-lock.ts';
import { metadataOf } from './users.ts';

export async function storedTranslations(db: Queryable, namespace: string, language: string) {
  const { rows } = await db.query<TranslationEntry>(
    'SELECT key, value FROM gateway.translations WHERE namespace = $1 AND language = $2 ORDER BY key',
    [namespace, language],
  );
  return rows;
}

async function upsert(
  tx: Queryable,
  namespace: string,
  language: string,
  entries: TranslationEntry[],
  by: number | null,
) {
  if (entries.length === 0) return;
  await tx.query(
    `INSERT INTO gateway.translations (namespace, language, key, value, modified_by)
     SELECT $1, $2, e.key, e.value, $5 FROM unnest($3::text[], $4::text[]) AS e(key, value)
     ON CONFLICT (namespace, language, key) DO UPDATE SET value = EXCLUDED.value, modified_at = now(),
       modified_by = EXCLUDED.modified_by`,
    [namespace, language, entries.map((e) => e.key), entries.map((e) => e.value), by],
  );
}

type Decide = (
  entries: TranslationEntry[],
  stored: ReadonlyMap<string, string>,
  defaults: ReadonlyMap<string, string>,
) => TranslationEntry[] | null;

export type TranslationsChange = 'TranslationsAdded' | 'TranslationsUpdated' | 'TranslationsReplaced';

const nonEmpty = (entries: TranslationEntry[]) => (entries.length > 0 ? entries : null);

/**
 * What each change of a pair's texts records, from the entries a route was given:
 * - TranslationsAdded (POST /translation/:ns/:lng): the keys that have no text yet;
 * - TranslationsUpdated (PUT /translations/:ns/:lng): the texts that change, 400 (nothing stored) when a key is
 *   unknown;
 * - TranslationsReplaced (POST /translations/:ns/:lng): the stored texts become exactly these.
 * Nothing is recorded when nothing changes.
 */
const DECIDE: Record<TranslationsChange, Decide> = {
  TranslationsAdded: (missing, stored, defaults) => nonEmpty(missingToAdd(missing, stored, defaults)),
  TranslationsUpdated: (updated, stored, defaults) => nonEmpty(updatesToApply(updated, stored, defaults)),
  TranslationsReplaced: (translations, stored) => (replacementChanges(translations, stored) ? translations : null),
};

/** Loads the pair's stored texts under its lock, decides the change and records it. Returns how many texts it recorded. */
export async function changeTranslations(
  db: Db,
  store: EventStore,
  namespace: string,
  language: string,
  type: TranslationsChange,
  given: TranslationEntry[],
  actor: Actor,
): Promise<number> {
  const stream = translationsStream(namespace, language);
  return db.transaction(async (tx) => {
    await lockStreamForDecision(tx, stream);
    const rows = await storedTranslations(tx, namespace, language);
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const entries = DECIDE[type](given, stored, defaultTranslations(namespace, language));
    if (entries === null) return 0;
    const data: TranslationsAdded | TranslationsUpdated | TranslationsReplaced = {
      namespace,
      language,
      translations: entries,
    };
    await store.append(stream, [{ type, data, metadata: metadataOf(actor) }], { tx, expectedVersion: 'any' });
    if (type === 'TranslationsReplaced') {
      await tx.query('DELETE FROM gateway.translations WHERE namespace = $1 AND language = $2', [namespace, language]);
    }
    await upsert(tx, namespace, language, entries, actor.user_id);
    return entries.length;
  });
}
