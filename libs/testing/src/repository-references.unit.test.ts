// The repository explains itself: no file may point at documents that live outside it (the team's design notes
// and research next to the clone), and every link into docs/ or README.md must name a heading that exists. A person
// who clones the repository has README.md and docs/, nothing else. The links of README.md and docs/*.md (relative
// ones such as `docs/x.md#heading` or `../services/...`) must reach a file or folder of the repository and, into a
// Markdown file, one of its headings; README.md stays short enough to read in five minutes.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

/**
 * Mentions of the root README's headings (`README.md#set-up-two-commands`, in a comment or a script) that name no
 * heading. A path before it (`libs/eventstore/README.md`, `../README.md`) names another file, and a Markdown link's
 * target is relative to its own file (checked below for README.md and docs/).
 */
function brokenReadmeLinks(file: string, text: string, readme: ReadonlySet<string>): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, index) => {
    for (const m of line.matchAll(/(?<![\w./-])(?<!\]\()README\.md#([\w-]+)/g)) {
      if (!readme.has(m[1])) found.push({ at: `${file}:${index + 1}`, problem: `README.md has no heading #${m[1]}` });
    }
  });
  return found;
}

/** Markdown links `[text](target)` and images of `text`, outside code blocks and code spans. */
function markdownLinks(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, index) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '``');
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line: index + 1, target: m[1] });
  });
  return links;
}

/**
 * Links of a Markdown file that reach nothing in the repository: a relative path (to the file's folder) naming no
 * file or folder, or a `#heading` that the Markdown file it names (or the file itself) does not have. Links to
 * other sites (`https:`, `mailto:`) are not followed.
 */
function brokenMarkdownLinks(
  file: string,
  text: string,
  files: ReadonlySet<string>,
  headingsOf: (file: string) => ReadonlySet<string> | undefined,
): Finding[] {
  const found: Finding[] = [];
  const folder = path.posix.dirname(file);
  for (const { line, target } of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const at = `${file}:${line}`;
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : target.slice(hash + 1);
    const resolved =
      pathPart === '' ? file : path.posix.normalize(path.posix.join(folder, pathPart)).replace(/\/$/, '');
    if (resolved === '..' || resolved.startsWith('../') || path.posix.isAbsolute(resolved)) {
      found.push({ at, problem: `${target} points outside the repository` });
      continue;
    }
    const isFile = files.has(resolved);
    const isFolder = !isFile && (resolved === '.' || [...files].some((f) => f.startsWith(`${resolved}/`)));
    if (!isFile && !isFolder) {
      found.push({ at, problem: `${target}: ${resolved} does not exist` });
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    const headings = isFile && resolved.endsWith('.md') ? headingsOf(resolved) : undefined;
    if (!headings) found.push({ at, problem: `${target}: ${resolved} has no headings to link to` });
    else if (!headings.has(anchor)) found.push({ at, problem: `${target}: ${resolved} has no heading #${anchor}` });
  }
  return found;
}

/** README.md's length limit: what a newcomer reads in five minutes. */
const README_MAX_CHARACTERS = 15_000;

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

  it('every mention of README.md#heading names an existing heading', () => {
    const readme = files.find((f) => f.file === 'README.md')?.text ?? '';
    const anchors = anchorsOf(readme);
    const findings = files.flatMap(({ file, text }) =>
      text === undefined ? [] : brokenReadmeLinks(file, text, anchors),
    );
    expect(report(findings)).toBe('');
  });

  it('the links of README.md and docs/*.md reach files and headings of the repository', () => {
    const present = new Set(
      files.filter((f) => f.text !== undefined || existsSync(path.join(root, f.file))).map((f) => f.file),
    );
    const texts = new Map(files.map((f) => [f.file, f.text]));
    const headingsOf = (file: string) => {
      const text = texts.get(file);
      return text === undefined ? undefined : anchorsOf(text);
    };
    const markdown = files.filter(
      ({ file, text }) => text !== undefined && (file === 'README.md' || /^docs\/[^/]+\.md$/.test(file)),
    );
    expect(markdown.length).toBeGreaterThan(1);
    const findings = markdown.flatMap(({ file, text }) => brokenMarkdownLinks(file, text ?? '', present, headingsOf));
    expect(report(findings)).toBe('');
  });

  it(`README.md stays at most ${README_MAX_CHARACTERS} characters`, () => {
    const readme = files.find((f) => f.file === 'README.md')?.text ?? '';
    expect(Array.from(readme).length).toBeLessThanOrEqual(README_MAX_CHARACTERS);
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
    expect(anchorOf("The queue's e-mails, the vessel's forms, live ETA")).toBe(
      'the-queues-e-mails-the-vessels-forms-live-eta',
    );

    const readme = new Set(['set-up-two-commands']);
    expect(brokenReadmeLinks('.ci/run', '# the test command of README.md#set-up-two-commands', readme)).toEqual([]);
    expect(brokenReadmeLinks('.ci/run', '# see README.md#tests', readme)).toHaveLength(1);
    expect(brokenReadmeLinks('x.ts', '// libs/eventstore/README.md#anything', readme)).toEqual([]);
    expect(brokenReadmeLinks('libs/x/guide.md', '[own](README.md#usage)', readme)).toEqual([]);

    const present = new Set(['README.md', 'docs/queue.md', 'docs/picture.png', 'services/gateway/src/main.ts']);
    const headings = new Map([
      ['README.md', new Set(['set-up-two-commands'])],
      ['docs/queue.md', new Set(['queue', 'the-queues-e-mails'])],
    ]);
    const headingsOf = (file: string) => headings.get(file);
    const broken = (file: string, text: string) => brokenMarkdownLinks(file, text, present, headingsOf);
    expect(
      broken('README.md', '[q](docs/queue.md#the-queues-e-mails) ![p](docs/picture.png) [s](#set-up-two-commands)'),
    ).toEqual([]);
    expect(
      broken('docs/queue.md', '[r](../README.md#set-up-two-commands), [g](../services/gateway/src/main.ts)'),
    ).toEqual([]);
    expect(
      broken('docs/queue.md', '[here](#queue), [folder](../services/gateway), [web](https://example.org/x.md#y)'),
    ).toEqual([]);
    expect(broken('README.md', '[q](docs/queue.md#tests)')).toHaveLength(1);
    expect(broken('README.md', '[n](docs/nowhere.md)')).toHaveLength(1);
    expect(broken('README.md', '[s](#the-web-ui)')).toHaveLength(1);
    expect(broken('docs/queue.md', '[g](services/gateway/src/main.ts)')).toHaveLength(1);
    expect(broken('docs/queue.md', '[o](../../outside.md)')).toHaveLength(1);
    expect(broken('docs/queue.md', '[p](picture.png#top)')).toHaveLength(1);
    expect(broken('README.md', '`[not](a-link.md)`\n```\n[not](a-link.md)\n```')).toEqual([]);
  });
});
