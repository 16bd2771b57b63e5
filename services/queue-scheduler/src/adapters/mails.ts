// What the queue's e-mails read besides the queue's own rows: the port's texts for the mail phrases and the port
// operators' addresses, both kept by the gateway (gateway.translations, gateway.settings) and read here read-only,
// as other services read the gateway's read models. Before the gateway created them: the English texts, nobody.

import type { Queryable } from '@pcas/sql';
import type { Translations } from '../domain/mails.ts';

// The gateway's tables seen once stay: they are never dropped while the services run.
const seen = new Set<string>();

async function exists(q: Queryable, table: string): Promise<boolean> {
  if (seen.has(table)) return true;
  // Checked first rather than caught: a failing statement would abort the caller's transaction.
  const { rows } = await q.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [table]);
  if (rows[0]?.ok === true) seen.add(table);
  return rows[0]?.ok === true;
}

/** The port's stored texts of the mail phrases (namespace NAMESPACE, language en). */
export async function mailTranslations(q: Queryable, namespace: string): Promise<Translations> {
  if (!(await exists(q, 'gateway.translations'))) return () => undefined;
  const { rows } = await q.query<{ key: string; value: string }>(
    `SELECT key, value FROM gateway.translations WHERE namespace = $1 AND language = 'en' AND key LIKE '[EMAIL %'`,
    [namespace],
  );
  const texts = new Map(rows.map((r) => [r.key, r.value]));
  return (key) => texts.get(key);
}

/**
 * The same texts as a subquery (a JSON object, key to text) for a statement that reads them along, the namespace
 * its parameter `namespaceParam`: one round trip fewer than mailTranslations.
 */
export async function mailTextsSql(q: Queryable, namespaceParam: string): Promise<string> {
  if (!(await exists(q, 'gateway.translations'))) return "'{}'::json";
  return `(SELECT coalesce(json_object_agg(key, value), '{}') FROM gateway.translations
            WHERE namespace = ${namespaceParam}::text AND language = 'en' AND key LIKE '[EMAIL %')`;
}

export const translationsOf =
  (texts: Record<string, string>): Translations =>
  (key) =>
    Object.hasOwn(texts, key) ? texts[key] : undefined;

/** The setting `port_operator_emails` as stored, or null. */
export async function portOperatorEmails(q: Queryable): Promise<string | null> {
  if (!(await exists(q, 'gateway.settings'))) return null;
  const { rows } = await q.query<{ value: string }>(
    "SELECT value FROM gateway.settings WHERE name = 'port_operator_emails'",
  );
  return rows[0]?.value ?? null;
}
