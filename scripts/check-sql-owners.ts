// SQL names a schema's tables only in the schema's owner (docs/architecture.md#queries): every `X.<table>` written
// inside a string or template literal of a .ts file under libs/, services/ or launcher/ must sit under the owner of
// schema X (services/<owner>/, migrations and schema DDL included, or libs/<owner>/). Another service reads an area
// through the owner's queries module (`@pcas/<owner>/queries`), which lives under the owner and so passes.
//
// Tests are not checked: `*.test.ts` and the test support in `testing/` folders (libs/testing, a service's
// src/testing/, the gateway's entry-points/testing/) seed and inspect whatever tables their scenario needs. Neither
// are bench/ and e2e/, harnesses outside the services.
//
// A reference found elsewhere is a violation, printed as file:line; the script exits 1 if one is not in the
// allowlist (scripts/sql-owners-allowlist.txt: `<file> <schema>.<table>` lines, each with the reason in a comment
// above). An allowlist entry that no longer matches anything is reported too, so the list only shrinks.
//
// Usage: tsx scripts/check-sql-owners.ts [--stats] [--root <dir>]
//   --stats also prints the reader→owner edges; --root checks another tree (e.g. an older commit's `git archive`).

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { readAllowlist } from './allowlist.ts';

const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? process.argv[rootArg + 1]! : join(import.meta.dirname, '..');
const ALLOWLIST = join(ROOT, 'scripts', 'sql-owners-allowlist.txt');

/** Each schema and the folder that owns it. */
export const OWNERS: Readonly<Record<string, string>> = {
  gateway: 'services/gateway',
  ingest: 'services/ingest',
  logistics: 'services/logistics',
  notifier: 'services/notifier',
  portcall: 'services/portcall-projector',
  queue: 'services/queue-scheduler',
  vis: 'services/vis-bridge',
  dcsa: 'services/dcsa-bridge',
  eventstore: 'libs/eventstore',
  messaging: 'libs/messaging',
};

const SCANNED = ['libs', 'services', 'launcher'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'testing']);

// `schema.table`: not part of a longer name or path before it, a lowercase SQL identifier after it, and not a file
// name (`gateway.ts`) or property chain into code.
const REFERENCE = new RegExp(
  `(?<![\\w.$/-])(${Object.keys(OWNERS).join('|')})\\.([a-z_][a-z0-9_]*)(?![\\w$])(?!\\.(?:ts|js|json)\\b)`,
  'g',
);
const NOT_TABLES = new Set(['ts', 'js', 'json', 'md', 'cjs', 'mjs']);

export interface Reference {
  file: string;
  line: number;
  schema: string;
  table: string;
}

function* tsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

/** The `schema.table` references in the string and template literals of one file. */
export function referencesIn(file: string, text: string): Reference[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: Reference[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const start = node.getStart(source);
      const raw = text.slice(start, node.getEnd());
      for (const m of raw.matchAll(REFERENCE)) {
        if (NOT_TABLES.has(m[2]!)) continue;
        const { line } = source.getLineAndCharacterOfPosition(start + m.index!);
        found.push({ file, line: line + 1, schema: m[1]!, table: m[2]! });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function ownerOf(file: string): string | undefined {
  const m = /^(services|libs)\/[^/]+/.exec(file);
  return m?.[0];
}

function main(): void {
  const stats = process.argv.includes('--stats');
  const references: Reference[] = [];
  for (const top of SCANNED) {
    for (const path of tsFiles(join(ROOT, top))) {
      references.push(...referencesIn(relative(ROOT, path), readFileSync(path, 'utf8')));
    }
  }
  const foreign = references.filter((r) => ownerOf(r.file) !== OWNERS[r.schema]);
  const allowlist = readAllowlist(ALLOWLIST);
  const used = new Set<string>();
  const refused: Reference[] = [];
  for (const r of foreign) {
    const key = `${r.file} ${r.schema}.${r.table}`;
    if (allowlist.has(key)) used.add(key);
    else refused.push(r);
  }
  const edges = new Map<string, number>();
  for (const r of foreign) {
    const edge = `${ownerOf(r.file) ?? r.file.split('/').slice(0, 2).join('/')} → ${OWNERS[r.schema]}`;
    edges.set(edge, (edges.get(edge) ?? 0) + 1);
  }
  const stale = [...allowlist.keys()].filter((k) => !used.has(k));

  for (const r of refused) {
    console.error(`${r.file}:${r.line}: ${r.schema}.${r.table} belongs to ${OWNERS[r.schema]}`);
  }
  for (const k of stale) {
    console.error(`scripts/sql-owners-allowlist.txt:${allowlist.get(k)}: '${k}' matches nothing any more: remove it`);
  }
  console.log(
    `check-sql-owners: ${references.length} SQL references to owned schemas, ${foreign.length} outside the owner ` +
      `(${foreign.length - refused.length} allowlisted, ${refused.length} refused) over ${edges.size} reader→owner edges`,
  );
  if (stats) {
    for (const [edge, n] of [...edges].sort()) console.log(`  ${edge}: ${n}`);
  }
  if (refused.length > 0 || stale.length > 0) process.exit(1);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
