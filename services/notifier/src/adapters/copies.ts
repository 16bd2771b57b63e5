// The notifier's copies of other services' data (docs/notifications.md#what-the-notifier-learns-from-other-services), projected from their events:
//   notifier.users                 a user's e-mail, names, status and time zone (`version`: of `user-<id>`)
//   notifier.translations          the stored texts of each (namespace, language), and
//   notifier.translation_versions  the version of `translations-<namespace>-<language>` they reflect
//   notifier.vessels               a vessel's name (`position`: the global position of the event that set it)
// Each stream is applied in its order under an advisory lock of its own: an event at or below the stored version
// changes nothing (a redelivery, or the fill from the log meeting the queue), and a gap is filled by reading the
// stream from the store. Vessel names need no order but the newest: the vessel streams hold every timestamp.

import { evolveTranslations, type VesselRegistered, type VesselRenamed } from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import { lockForTransaction, type Queryable } from '@pcas/sql';
import { evolveUser, type UserCopy } from '../domain/copies.ts';

export const COPIES_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS notifier.users (
     id integer PRIMARY KEY,
     email text NOT NULL,
     first_name text NOT NULL,
     last_name text NOT NULL,
     status text NOT NULL,
     time_zone text,
     version integer NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS notifier.translations (
     namespace text NOT NULL,
     language text NOT NULL,
     key text NOT NULL,
     value text NOT NULL,
     PRIMARY KEY (namespace, language, key)
   )`,
  `CREATE TABLE IF NOT EXISTS notifier.translation_versions (
     namespace text NOT NULL,
     language text NOT NULL,
     version integer NOT NULL,
     PRIMARY KEY (namespace, language)
   )`,
  `CREATE TABLE IF NOT EXISTS notifier.vessels (
     imo bigint PRIMARY KEY,
     vessel_name text NOT NULL,
     position bigint NOT NULL
   )`,
];

/** The routing keys the copies follow (every event of a user's or a translation pair's stream, for their order). */
export const COPY_BINDINGS = ['user.#', 'translations.#', 'vessel.VesselRegistered', 'vessel.VesselRenamed'];

const isCopied = (e: RecordedEvent): boolean =>
  e.streamId.startsWith('user-') ||
  e.streamId.startsWith('translations-') ||
  (e.streamId.startsWith('vessel-') && (e.type === 'VesselRegistered' || e.type === 'VesselRenamed'));

/** Applies the copied events among `events` (any order), in `tx`. */
export async function applyCopies(tx: Queryable, store: EventStore, events: readonly RecordedEvent[]): Promise<void> {
  const byStream = new Map<string, RecordedEvent[]>();
  for (const e of events) {
    if (!isCopied(e)) continue;
    const list = byStream.get(e.streamId);
    if (list) list.push(e);
    else byStream.set(e.streamId, [e]);
  }
  // Streams in one order everywhere, so two transactions taking several locks never wait on each other in a ring.
  for (const stream of [...byStream.keys()].sort()) {
    await lockForTransaction(tx, 'notifier-copy', stream);
    const list = byStream.get(stream)!;
    if (stream.startsWith('user-')) await applyUser(tx, store, stream, list);
    else if (stream.startsWith('translations-')) await applyTranslations(tx, store, stream, list);
    else await applyVesselName(tx, list);
  }
}

/** The events after `version`, in stream order: those given when they follow on, else the stream read from there. */
async function following(
  tx: Queryable,
  store: EventStore,
  stream: string,
  version: number,
  given: readonly RecordedEvent[],
): Promise<RecordedEvent[]> {
  const fresh = [...new Map(given.filter((e) => e.streamPosition > version).map((e) => [e.streamPosition, e]))]
    .sort(([a], [b]) => a - b)
    .map(([, e]) => e);
  if (fresh.length === 0) return [];
  if (fresh.every((e, i) => e.streamPosition === version + 1 + i)) return fresh;
  return store.readStream(stream, { fromPosition: version + 1, tx });
}

async function applyUser(tx: Queryable, store: EventStore, stream: string, given: RecordedEvent[]): Promise<void> {
  const id = Number(stream.slice('user-'.length));
  if (!Number.isSafeInteger(id)) return;
  const { rows } = await tx.query<UserCopy & { version: number }>(
    'SELECT id, email, first_name, last_name, status, time_zone, version FROM notifier.users WHERE id = $1',
    [id],
  );
  const version = rows[0]?.version ?? 0;
  const events = await following(tx, store, stream, version, given);
  if (events.length === 0) return;
  let user: UserCopy | null = rows[0] ? { ...rows[0], id } : null;
  for (const e of events) user = evolveUser(user, id, e);
  const last = events[events.length - 1].streamPosition;
  if (user === null) return;
  await tx.query(
    `INSERT INTO notifier.users (id, email, first_name, last_name, status, time_zone, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, first_name = EXCLUDED.first_name,
       last_name = EXCLUDED.last_name, status = EXCLUDED.status, time_zone = EXCLUDED.time_zone,
       version = EXCLUDED.version`,
    [id, user.email, user.first_name, user.last_name, user.status, user.time_zone, last],
  );
}

async function applyTranslations(
  tx: Queryable,
  store: EventStore,
  stream: string,
  given: RecordedEvent[],
): Promise<void> {
  const pair = given[0].data as { namespace?: unknown; language?: unknown } | null;
  const namespace = String(pair?.namespace ?? '');
  const language = String(pair?.language ?? '');
  const { rows } = await tx.query<{ version: number }>(
    'SELECT version FROM notifier.translation_versions WHERE namespace = $1 AND language = $2',
    [namespace, language],
  );
  const version = rows[0]?.version ?? 0;
  const events = await following(tx, store, stream, version, given);
  if (events.length === 0) return;
  const stored = await tx.query<{ key: string; value: string }>(
    'SELECT key, value FROM notifier.translations WHERE namespace = $1 AND language = $2',
    [namespace, language],
  );
  let texts = new Map(stored.rows.map((r) => [r.key, r.value]));
  for (const e of events) texts = evolveTranslations(texts, e);
  await tx.query('DELETE FROM notifier.translations WHERE namespace = $1 AND language = $2', [namespace, language]);
  if (texts.size > 0) {
    await tx.query(
      `INSERT INTO notifier.translations (namespace, language, key, value)
       SELECT $1, $2, k, v FROM unnest($3::text[], $4::text[]) AS t(k, v)`,
      [namespace, language, [...texts.keys()], [...texts.values()]],
    );
  }
  await tx.query(
    `INSERT INTO notifier.translation_versions (namespace, language, version) VALUES ($1, $2, $3)
     ON CONFLICT (namespace, language) DO UPDATE SET version = EXCLUDED.version`,
    [namespace, language, events[events.length - 1].streamPosition],
  );
}

async function applyVesselName(tx: Queryable, given: RecordedEvent[]): Promise<void> {
  const newest = given.reduce((a, b) => (b.globalPosition > a.globalPosition ? b : a));
  const e = newest.data as VesselRegistered | VesselRenamed;
  await tx.query(
    `INSERT INTO notifier.vessels (imo, vessel_name, position) VALUES ($1, $2, $3)
     ON CONFLICT (imo) DO UPDATE SET vessel_name = EXCLUDED.vessel_name, position = EXCLUDED.position
      WHERE notifier.vessels.position < EXCLUDED.position`,
    [e.imo, e.vessel_name ?? '', newest.globalPosition],
  );
}
