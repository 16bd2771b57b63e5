// The port's settings and mail texts as the queue uses them: the gateway owns them (PUT /settings, the translation
// routes) and records every change as an event (`setting-<name>`, `translations-<ns>-<lng>`); the queue keeps its
// own copy of what it reads (queue.port_settings, queue.port_translations), folded from those streams. The copy
// records each stream's version (queue.copied_streams) and is brought up to it by reading the stream itself, so a
// redelivered event changes nothing, one missed (a queue bound after it was published) is read at the next event
// or start, and the copy is exactly the streams' fold. The seeded defaults are not events: a setting never changed
// has no row here, and its default (libs/contracts QUEUE_SETTING_DEFAULTS, which the gateway seeds) applies.

import {
  evolveTranslations,
  isQueueCopiedSetting,
  type SettingChanged,
  type TranslationsReplaced,
} from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import type { Translations } from '../domain/mails.ts';

export const PORT_SETTINGS_DDL = [
  'CREATE TABLE IF NOT EXISTS queue.port_settings (name text PRIMARY KEY, value text NOT NULL)',
  `CREATE TABLE IF NOT EXISTS queue.port_translations (
     namespace text NOT NULL,
     language text NOT NULL,
     key text NOT NULL,
     value text NOT NULL,
     PRIMARY KEY (namespace, language, key)
   )`,
  'CREATE TABLE IF NOT EXISTS queue.copied_streams (stream_id text PRIMARY KEY, version integer NOT NULL)',
];

/** The settings as a subquery (a JSON object, name to value) for a statement that reads them along. */
export const SETTINGS_SQL = "(SELECT coalesce(json_object_agg(name, value), '{}') FROM queue.port_settings)";

export async function loadSettingValues(q: Queryable): Promise<Record<string, string>> {
  const { rows } = await q.query<{ settings: Record<string, string> }>(`SELECT ${SETTINGS_SQL} AS settings`);
  return rows[0]?.settings ?? {};
}

/** The setting `port_operator_emails` as last changed, or null (its default: nobody). */
export async function portOperatorEmails(q: Queryable): Promise<string | null> {
  const { rows } = await q.query<{ value: string }>(
    "SELECT value FROM queue.port_settings WHERE name = 'port_operator_emails'",
  );
  return rows[0]?.value ?? null;
}

/** Only the mail phrases are kept (the queue sends no other text); in English, as the mails are. */
const isMailText = (language: string, key: string) => language === 'en' && key.startsWith('[EMAIL ');

/**
 * The mail phrases as a subquery (a JSON object, key to text) for a statement that reads them along, the namespace
 * its parameter `namespaceParam`.
 */
export const mailTextsSql = (namespaceParam: string) =>
  `(SELECT coalesce(json_object_agg(key, value), '{}') FROM queue.port_translations
     WHERE namespace = ${namespaceParam}::text AND language = 'en')`;

export const translationsOf =
  (texts: Record<string, string>): Translations =>
  (key) =>
    Object.hasOwn(texts, key) ? texts[key] : undefined;

/** The port's stored texts of the mail phrases (namespace `namespace`, language en). */
export async function mailTranslations(q: Queryable, namespace: string): Promise<Translations> {
  const { rows } = await q.query<{ texts: Record<string, string> }>(`SELECT ${mailTextsSql('$1')} AS texts`, [
    namespace,
  ]);
  return translationsOf(rows[0]?.texts ?? {});
}

/** The pair's stored mail phrases after one of its events, folded by the translations stream's own rule. */
async function applyTranslationsEvent(tx: Queryable, event: RecordedEvent): Promise<void> {
  const { namespace, language } = event.data as TranslationsReplaced;
  const { rows } = await tx.query<{ key: string; value: string }>(
    'SELECT key, value FROM queue.port_translations WHERE namespace = $1 AND language = $2',
    [namespace, language],
  );
  const texts = [...evolveTranslations(new Map(rows.map((r) => [r.key, r.value])), event)].filter(([key]) =>
    isMailText(language, key),
  );
  await tx.query('DELETE FROM queue.port_translations WHERE namespace = $1 AND language = $2', [namespace, language]);
  if (texts.length === 0) return;
  await tx.query(
    `INSERT INTO queue.port_translations (namespace, language, key, value)
     SELECT $1, $2, e.key, e.value FROM unnest($3::text[], $4::text[]) AS e(key, value)`,
    [namespace, language, texts.map(([key]) => key), texts.map(([, value]) => value)],
  );
}

/** One gateway event into the copy (events of one stream in order). */
async function applyPortEvent(tx: Queryable, event: RecordedEvent): Promise<void> {
  if (event.type === 'SettingChanged') {
    const { name, value } = event.data as SettingChanged;
    if (!isQueueCopiedSetting(name)) return;
    await tx.query(
      `INSERT INTO queue.port_settings (name, value) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
      [name, value],
    );
  } else if (event.type.startsWith('Translations')) {
    await applyTranslationsEvent(tx, event);
  }
}

/**
 * Brings the copy of one gateway stream up to the stream's end, in `tx`: the events after the version copied, read
 * from the store, applied in order. The stream's row is locked meanwhile, so two processes copy it in turns.
 */
export async function copyPortStream(tx: Queryable, store: EventStore, streamId: string): Promise<void> {
  await tx.query('INSERT INTO queue.copied_streams (stream_id, version) VALUES ($1, 0) ON CONFLICT DO NOTHING', [
    streamId,
  ]);
  const { rows } = await tx.query<{ version: number }>(
    'SELECT version FROM queue.copied_streams WHERE stream_id = $1 FOR UPDATE',
    [streamId],
  );
  const events = await store.readStream(streamId, { fromPosition: (rows[0]?.version ?? 0) + 1, tx });
  if (events.length === 0) return;
  for (const event of events) await applyPortEvent(tx, event);
  await tx.query('UPDATE queue.copied_streams SET version = $2 WHERE stream_id = $1', [
    streamId,
    (events.at(-1) as RecordedEvent).streamPosition,
  ]);
}
