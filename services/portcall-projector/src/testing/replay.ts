// Test support for replay equality: posts appended as ingest appends them (the vessel's registration or rename
// before its timestamp), the log read on from a checkpoint as the relay delivers it, and two copies of the read-model
// schema compared table by table, column by column, with the tables and columns taken from the database itself.

import { type TimestampReceived, vesselStream } from '@pcas/contracts';
import type { Checkpoint, EventStore, NewEvent, RecordedEvent } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import type { Post } from './traffic.ts';

/**
 * Appends posts as ingest's post command does: a vessel's first post registers it (VesselRegistered), a post under
 * another name renames it (VesselRenamed), then the TimestampReceived. `names` is the vessels' current names,
 * kept up to date.
 */
export async function appendAsIngest(
  store: EventStore,
  posts: readonly Post[],
  names: Map<number, string>,
  batch = 1_000,
): Promise<void> {
  for (let i = 0; i < posts.length; i += batch) {
    await store.appendMany(
      posts.slice(i, i + batch).map((p) => {
        const { imo, vessel_name } = p.data;
        const events: NewEvent[] = [];
        const known = names.get(imo);
        if (known === undefined) events.push({ type: 'VesselRegistered', data: { imo, vessel_name } });
        else if (known !== vessel_name) {
          events.push({ type: 'VesselRenamed', data: { imo, vessel_name, previous_vessel_name: known } });
        }
        names.set(imo, vessel_name);
        const weight = p.data.source === 'manual' ? 999 : undefined;
        const data: TimestampReceived = weight === undefined ? p.data : { ...p.data, weight };
        events.push({ type: 'TimestampReceived', data });
        const metadata = { user_id: p.data.user_id, api_key_id: p.data.api_key_id };
        return { streamId: vesselStream(imo), events: events.map((e) => ({ ...e, metadata })) };
      }),
    );
  }
}

/** The log from a checkpoint on, in commit order: what the relay would deliver next. */
export class LogTail {
  private checkpoint: Checkpoint | null = null;
  /** Events read so far, over all calls (the log only grows: none is ever removed here). */
  private read = 0;
  constructor(
    private readonly q: Queryable,
    private readonly store: EventStore,
  ) {}

  /**
   * Every event committed since the last call. The store reads only transactions older than every running one that
   * could still append to this database's log (libs/eventstore's horizon), so this waits, boundedly, until as many
   * events have been read as the log held when it was called, and names the oldest running transaction when it
   * gives up. Counted, not compared by position: global positions are taken at insert, not at commit, so the last
   * event in commit order need not hold the highest one.
   */
  async next(): Promise<RecordedEvent[]> {
    const { rows } = await this.q.query<{ n: string }>('SELECT count(*)::text AS n FROM eventstore.events');
    const committed = Number(rows[0].n);
    const out: RecordedEvent[] = [];
    const until = Date.now() + 480_000;
    for (;;) {
      const page = await this.store.readAll(this.checkpoint, 5_000);
      out.push(...page.events);
      this.read += page.events.length;
      this.checkpoint = page.checkpoint ?? this.checkpoint;
      if (page.events.length > 0) continue;
      if (this.read >= committed) return out;
      if (Date.now() > until) {
        const { rows: oldest } = await this.q.query(
          `SELECT datname, application_name, state, xact_start, left(query, 200) AS query FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL OR backend_xmin IS NOT NULL ORDER BY xact_start LIMIT 3`,
        );
        throw new Error(
          `log read ${this.read} of ${committed} events after eight minutes; oldest: ${JSON.stringify(oldest)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const ident = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
};

/** The tables of a schema, by name, with their columns (in order) and primary key columns. */
export async function schemaTables(
  q: Queryable,
  schema: string,
): Promise<Map<string, { columns: string[]; key: string[] }>> {
  const { rows } = await q.query<{ table_name: string; columns: string[]; key: string[] | null }>(
    `SELECT t.table_name,
            (SELECT array_agg(c.column_name::text ORDER BY c.ordinal_position) FROM information_schema.columns c
              WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name) AS columns,
            (SELECT array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum))
               FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
              WHERE i.indrelid = format('%I.%I', t.table_schema, t.table_name)::regclass AND i.indisprimary) AS key
       FROM information_schema.tables t
      WHERE t.table_schema = $1 AND t.table_type = 'BASE TABLE'
      ORDER BY t.table_name`,
    [schema],
  );
  return new Map(rows.map((r) => [r.table_name, { columns: r.columns, key: r.key ?? [] }]));
}

export interface TableDifference {
  table: string;
  liveRows: number;
  rebuiltRows: number;
  /** The first rows that differ: by key, and the columns whose values differ (all of them for a missing row). */
  rows: { key: unknown; columns: string[]; live: unknown; rebuilt: unknown }[];
}

/**
 * One table of two schemas compared row by row (matched by primary key, or by the whole row without one), every
 * column but `ignored`. Undefined when they hold the same rows.
 */
export async function compareTable(
  q: Queryable,
  table: string,
  key: readonly string[],
  schemas: { live: string; rebuilt: string },
  ignored: readonly string[] = [],
): Promise<TableDifference | undefined> {
  const doc = `to_jsonb(t) - $1::text[]`;
  const keyOf = key.length > 0 ? `jsonb_build_array(${key.map((c) => `t.${ident(c)}`).join(', ')})` : doc;
  const side = (schema: string) => `SELECT ${keyOf} AS k, ${doc} AS doc FROM ${ident(schema)}.${ident(table)} t`;
  const { rows } = await q.query<{ live_rows: string; rebuilt_rows: string; diff: TableDifference['rows'] | null }>(
    `WITH a AS (${side(schemas.live)}), b AS (${side(schemas.rebuilt)}),
          d AS (SELECT coalesce(a.k, b.k) AS k, a.doc AS live, b.doc AS rebuilt
                  FROM a FULL JOIN b ON a.k = b.k WHERE a.doc IS DISTINCT FROM b.doc ORDER BY 1 LIMIT 10)
     SELECT (SELECT count(*) FROM a)::text AS live_rows, (SELECT count(*) FROM b)::text AS rebuilt_rows,
            (SELECT json_agg(json_build_object('key', k, 'live', live, 'rebuilt', rebuilt)) FROM d) AS diff`,
    [ignored],
  );
  const diff = rows[0].diff ?? [];
  const liveRows = Number(rows[0].live_rows);
  const rebuiltRows = Number(rows[0].rebuilt_rows);
  if (diff.length === 0 && liveRows === rebuiltRows) return undefined;
  return {
    table,
    liveRows,
    rebuiltRows,
    rows: diff.map((d) => {
      const live = (d.live ?? {}) as Record<string, unknown>;
      const rebuilt = (d.rebuilt ?? {}) as Record<string, unknown>;
      const names = [...new Set([...Object.keys(live), ...Object.keys(rebuilt)])];
      const columns = names.filter((n) => JSON.stringify(live[n]) !== JSON.stringify(rebuilt[n]));
      const pick = (row: Record<string, unknown>) => Object.fromEntries(columns.map((c) => [c, row[c]]));
      return { key: d.key, columns, live: d.live && pick(live), rebuilt: d.rebuilt && pick(rebuilt) };
    }),
  };
}

/**
 * Every table of the live read models (`portcall_live`) against the rebuilt ones (`portcall`): the same tables, and
 * each table's differences (none when equal), with the columns that only say when a row was written left out
 * (`ignored`, by table). Also the row count of each live table, so a caller can tell an empty comparison.
 */
export async function compareSchemas(
  q: Queryable,
  ignored: Readonly<Record<string, readonly string[]>>,
): Promise<{ sameTables: boolean; differences: TableDifference[]; liveRows: Map<string, number> }> {
  const live = await schemaTables(q, 'portcall_live');
  const rebuilt = await schemaTables(q, 'portcall');
  const sameTables = JSON.stringify([...rebuilt]) === JSON.stringify([...live]);
  const differences: TableDifference[] = [];
  const liveRows = new Map<string, number>();
  for (const [table, { key }] of live) {
    const { rows } = await q.query<{ n: string }>(`SELECT count(*)::text AS n FROM portcall_live.${ident(table)}`);
    liveRows.set(table, Number(rows[0].n));
    const diff = await compareTable(q, table, key, { live: 'portcall_live', rebuilt: 'portcall' }, ignored[table]);
    if (diff) differences.push(diff);
  }
  return { sameTables, differences, liveRows };
}
