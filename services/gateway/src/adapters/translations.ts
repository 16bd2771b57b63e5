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

type Decide = (stored: ReadonlyMap<string, string>, defaults: ReadonlyMap<string, string>) => TranslationEntry[] | null;

/** Loads the pair's stored texts under its lock, lets `decide` pick the change, and records it. */
async function change(
  db: Db,
  store: EventStore,
  namespace: string,
  language: string,
  type: 'TranslationsAdded' | 'TranslationsUpdated' | 'TranslationsReplaced',
  decide: Decide,
  actor: Actor,
): Promise<number> {
  const stream = translationsStream(namespace, language);
  return db.transaction(async (tx) => {
    await lockStreamForDecision(tx, stream);
    const rows = await storedTranslations(tx, namespace, language);
    const stored = new Map(rows.map((row) => [row.key, row.value]));
    const entries = decide(stored, defaultTranslations(namespace, language));
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

/** POST /translation/:ns/:lng: adds keys that have no text yet. Returns how many were added. */
export function addMissingTranslations(
  db: Db,
  store: EventStore,
  namespace: string,
  language: string,
  missing: TranslationEntry[],
  actor: Actor,
) {
  return change(
    db,
    store,
    namespace,
    language,
    'TranslationsAdded',
    (stored, defaults) => {
      const added = missingToAdd(missing, stored, defaults);
      return added.length > 0 ? added : null;
    },
    actor,
  );
}

/** PUT /translations/:ns/:lng: 400 (nothing stored) when a key is unknown. Returns how many texts changed. */
export function updateTranslations(
  db: Db,
  store: EventStore,
  namespace: string,
  language: string,
  updated: TranslationEntry[],
  actor: Actor,
) {
  return change(
    db,
    store,
    namespace,
    language,
    'TranslationsUpdated',
    (stored, defaults) => {
      const changed = updatesToApply(updated, stored, defaults);
      return changed.length > 0 ? changed : null;
    },
    actor,
  );
}

/** POST /translations/:ns/:lng: the stored texts become exactly these. */
export function replaceTranslations(
  db: Db,
  store: EventStore,
  namespace: string,
  language: string,
  translations: TranslationEntry[],
  actor: Actor,
) {
  return change(
    db,
    store,
    namespace,
    language,
    'TranslationsReplaced',
    (stored) => (replacementChanges(translations, stored) ? translations : null),
    actor,
  );
}
