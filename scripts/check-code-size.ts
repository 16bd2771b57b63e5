// Sizes a reader can hold in mind (docs/architecture.md#code-size): no function over 150 lines and no production
// file over 600 lines under libs/, services/, launcher/ and web/src/. Tests (`*.test.ts(x)`, `testing/` folders,
// shared test suites: files that import vitest) and generated catalogues (`*.generated.ts`) are not production
// code and are not checked.
//
// A function is any function declaration, function or arrow expression, method, constructor or accessor; its size
// is its lines from the first to the last, its body's nested functions included (a factory that returns a dozen
// closures is as long as all of them together, and that is what the rule is about).
//
// Over a limit is a violation printed as file:line; the script exits 1 unless the allowlist
// (scripts/code-size-allowlist.txt: `<file>` or `<file> <function>` lines, the reason in a comment above) names it.
// An entry that matches nothing fails too, so the list only shrinks.
//
// Usage: tsx scripts/check-code-size.ts [--top N] [--root <dir>]
//   --top N also prints the N longest functions and files (for before/after figures).

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { readAllowlist } from './allowlist.ts';

export const MAX_FUNCTION_LINES = 150;
export const MAX_FILE_LINES = 600;

const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? process.argv[rootArg + 1]! : join(import.meta.dirname, '..');
const ALLOWLIST = join(ROOT, 'scripts', 'code-size-allowlist.txt');
const SCANNED = ['libs', 'services', 'launcher', 'web/src'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'testing']);

export interface Measured {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function isProduction(name: string): boolean {
  if (!/\.tsx?$/.test(name) || name.endsWith('.d.ts')) return false;
  return !/\.test\.tsx?$/.test(name) && !name.endsWith('.generated.ts');
}

function* sourceFiles(dir: string): Generator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (isProduction(entry.name)) yield path;
  }
}

/** The name a reader would search for: the declared name, or the variable or property the function is bound to. */
function nameOf(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function of one file with its length in lines. */
export function functionsIn(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, line: first + 1, name: nameOf(node, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const topArg = process.argv.indexOf('--top');
  const top = topArg > 0 ? Number(process.argv[topArg + 1]) : 0;
  const functions: Measured[] = [];
  const files: Measured[] = [];
  for (const folder of SCANNED) {
    for (const path of sourceFiles(join(ROOT, folder))) {
      const file = relative(ROOT, path);
      const text = readFileSync(path, 'utf8');
      if (/from 'vitest'/.test(text)) continue;
      files.push({ file, line: 1, name: '', lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) });
      functions.push(...functionsIn(file, text));
    }
  }
  const allowlist = readAllowlist(ALLOWLIST);
  const used = new Set<string>();
  const refused: string[] = [];
  const judge = (key: string, message: string) => {
    if (allowlist.has(key)) used.add(key);
    else refused.push(message);
  };
  for (const f of files.filter((f) => f.lines > MAX_FILE_LINES)) {
    judge(f.file, `${f.file}: ${f.lines} lines (a production file has at most ${MAX_FILE_LINES})`);
  }
  for (const f of functions.filter((f) => f.lines > MAX_FUNCTION_LINES)) {
    judge(`${f.file} ${f.name}`, `${f.file}:${f.line}: ${f.name} is ${f.lines} lines (at most ${MAX_FUNCTION_LINES})`);
  }
  const stale = [...allowlist.keys()].filter((k) => !used.has(k));
  for (const message of refused) console.error(message);
  for (const k of stale) {
    console.error(`scripts/code-size-allowlist.txt:${allowlist.get(k)}: '${k}' matches nothing any more: remove it`);
  }
  console.log(
    `check-code-size: ${files.length} files, ${functions.length} functions; ${refused.length} refused, ` +
      `${used.size} allowlisted`,
  );
  if (top > 0) {
    const longest = (list: Measured[]) => [...list].sort((a, b) => b.lines - a.lines).slice(0, top);
    for (const f of longest(functions)) console.log(`  function ${f.lines} ${f.file}:${f.line} ${f.name}`);
    for (const f of longest(files)) console.log(`  file ${f.lines} ${f.file}`);
  }
  if (refused.length > 0 || stale.length > 0) process.exit(1);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
