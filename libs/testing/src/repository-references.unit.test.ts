// The repository explains itself: no file may point at documents that live outside it (the team's design notes
// and research next to the clone), and every link into docs/ must name a heading that exists. A person who
// clones the repository has docs/architecture.md and docs/domain.md, nothing else.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const self = path
  .relative(root, fileURLToPath(import.meta.url))
  .split(path.sep)
  .join('/');

/** Tracked files and new ones not yet added (ignored ones excepted), so a reference is caught before a commit. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter((f) => f !== '' && f !== self && f !== 'pnpm-lock.yaml'))].sort();
}

/** The file's text, or undefined for a file deleted in the work tree or a binary one. */
function textOf(file: string): string | undefined {
  let buffer: Buffer;
  try {
    buffer = readFileSync(path.join(root, file));
  } catch {
    return undefined;
  }
  return buffer.includes(0) ? undefined : buffer.toString('utf8');
}

// What points outside: the shared folder beside the clone, its documents by name, and the section sign their
// citations use (`§5.8`), which means nothing without them.
const OUTSIDE: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(?<![\w./-])(?:\.\.\/)*shared\//, what: 'the shared folder outside the repository' },
  { pattern: /(?<![\w./-])reference\//, what: 'the reference folder outside the repository' },
  { pattern: /\bDESIGN\.md\b/, what: 'the design notes outside the repository' },
  {
    pattern: /\b(?:original-app|original-clients|event-sourcing|interface-spec|environment)(?:\.md\b|\s+§)/,
    what: 'a reference document outside the repository',
  },
  { pattern: /§/, what: 'a section citation of a document outside the repository' },
];

interface Finding {
  at: string;
  problem: string;
}

/** Lines of `text` that point outside the repository. */
function outsideReferences(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { pattern, what } of OUTSIDE) {
      if (pattern.test(line)) {
        found.push({ at: `${file}:${index + 1}`, problem: `${what}: ${line.trim().slice(0, 160)}` });
        break;
      }
    }
  });
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.+)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]));
  }
  return anchors;
}

/** Links into docs/ (`docs/domain.md#grouping`, or `domain.md#grouping` inside docs/) that name no heading. */
function brokenDocLinks(file: string, text: string, docs: ReadonlyMap<string, ReadonlySet<string>>): Finding[] {
  const found: Finding[] = [];
  const inDocs = file.startsWith('docs/');
  text.split('\n').forEach((line, index) => {
    const links: { doc: string; anchor?: string }[] = [];
    for (const m of line.matchAll(/\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g)) links.push({ doc: m[1], anchor: m[2] });
    if (inDocs) {
      for (const m of line.matchAll(/\]\(([\w.-]+\.md)?(?:#([\w-]+))?\)/g)) {
        links.push({ doc: m[1] ?? path.basename(file), anchor: m[2] });
      }
    }
    for (const { doc, anchor } of links) {
      const anchors = docs.get(doc);
      if (!anchors) found.push({ at: `${file}:${index + 1}`, problem: `docs/${doc} does not exist` });
      else if (anchor !== undefined && !anchors.has(anchor)) {
        found.push({ at: `${file}:${index + 1}`, problem: `docs/${doc} has no heading #${anchor}` });
      }
    }
  });
  return found;
}

const report = (findings: Finding[]) => findings.map((f) => `${f.at}: ${f.problem}`).join('\n');

describe('the repository explains itself', () => {
  const files = repositoryFiles().map((file) => ({ file, text: textOf(file) }));

  it('finds the files to check', () => {
    expect(files.some((f) => f.file === 'README.md')).toBe(true);
    expect(files.some((f) => f.file === 'docs/domain.md')).toBe(true);
  });

  it('no file points at documents outside the repository', () => {
    const findings = files.flatMap(({ file, text }) => (text === undefined ? [] : outsideReferences(file, text)));
    expect(report(findings)).toBe('');
  });

  it('every link into docs/ names an existing heading', () => {
    const docs = new Map<string, Set<string>>();
    for (const { file, text } of files) {
      if (text !== undefined && /^docs\/[\w.-]+\.md$/.test(file)) docs.set(path.basename(file), anchorsOf(text));
    }
    const findings = files.flatMap(({ file, text }) => (text === undefined ? [] : brokenDocLinks(file, text, docs)));
    expect(report(findings)).toBe('');
  });

  it('recognises what it guards against', () => {
    const outside = [
      '// see shared/reference/original-app.md §5.8',
      '// Layer rules of DESIGN.md',
      '// (original-app §9.6)',
      '// ../shared/spec/interface-spec.md',
      '// reference/event-sourcing.md B2',
    ];
    for (const line of outside) expect(outsideReferences('x.ts', line), line).toHaveLength(1);
    const inside = [
      '// see docs/domain.md#grouping',
      "import { x } from './shared/util.ts';",
      '// the original app passed a missing limit as LIMIT 0',
    ];
    for (const line of inside) expect(outsideReferences('x.ts', line), line).toEqual([]);
    const docs = new Map([['domain.md', new Set(['grouping'])]]);
    expect(brokenDocLinks('x.ts', '// docs/domain.md#grouping', docs)).toEqual([]);
    expect(brokenDocLinks('x.ts', '// docs/domain.md#groupings', docs)).toHaveLength(1);
    expect(brokenDocLinks('x.ts', '// docs/nowhere.md', docs)).toHaveLength(1);
    expect(anchorOf('Login, suspension and lock')).toBe('login-suspension-and-lock');
    expect(anchorOf('Master-ID mode')).toBe('master-id-mode');
  });
});
