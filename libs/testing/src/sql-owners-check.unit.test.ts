// The lint check that SQL names a schema only under its owner (scripts/check-sql-owners.ts), run on small trees:
// it must refuse a reader outside the owner, take what the allowlist names, and refuse a stale allowlist entry.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const trees: string[] = [];

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sql-owners-'));
  trees.push(root);
  for (const scanned of ['libs', 'services', 'launcher']) mkdirSync(join(root, scanned));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'scripts', 'check-sql-owners.ts'), '--root', root],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

const OWNER = "export const q = 'SELECT * FROM queue.slot_requests';\n";
const READER = 'export const q = `SELECT id FROM queue.slot_requests WHERE id = $1`;\n';

// Each run starts tsx, seconds on a busy machine: a deadline that only catches a hang.
describe('the SQL owner check', { timeout: 60_000 }, () => {
  it('passes SQL under its owner, tests of other services included', () => {
    const root = tree({
      'services/queue-scheduler/src/adapters/store.ts': OWNER,
      'services/gateway/src/routes/queue.int.test.ts': READER,
      'scripts/sql-owners-allowlist.txt': '',
    });
    expect(check(root).status).toBe(0);
  });

  it("refuses another service's SQL on the schema, naming the file and line", () => {
    const root = tree({
      'services/gateway/src/adapters/read.ts': `\n${READER}`,
      'scripts/sql-owners-allowlist.txt': '',
    });
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain('services/gateway/src/adapters/read.ts:2');
  });

  it('takes an allowlisted reference, and refuses an allowlist entry that matches nothing', () => {
    const allowed = tree({
      'services/notifier/src/adapters/read.ts': READER,
      'scripts/sql-owners-allowlist.txt': '# why\nservices/notifier/src/adapters/read.ts queue.slot_requests\n',
    });
    expect(check(allowed).status).toBe(0);
    const stale = tree({
      'services/notifier/src/adapters/read.ts': 'export const none = 1;\n',
      'scripts/sql-owners-allowlist.txt': '# why\nservices/notifier/src/adapters/read.ts queue.slot_requests\n',
    });
    const { status, output } = check(stale);
    expect(status).toBe(1);
    expect(output).toContain('matches nothing');
  });
});
