// `pnpm test`: every project of vitest.config.ts in one run; then each test file that failed runs once more, on
// its own, so the log tells a flaky test (failed, then passed) from a fault (failed twice). Either way the run
// fails: a flaky test is to be fixed, not hidden. Arguments are passed on to vitest (e.g. a file to run).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PROJECTS = ['unit', 'web', 'int', 'e2e'].flatMap((name) => ['--project', name]);

interface FileResult {
  name: string;
  status: string;
}
interface Results {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: FileResult[];
}

const dir = mkdtempSync(path.join(tmpdir(), 'pcas-test-'));

/** Runs vitest with the JSON results written beside the usual output; undefined when it wrote none (a crash). */
function vitest(args: string[], name: string): { code: number; results: Results | undefined } {
  const outputFile = path.join(dir, `${name}.json`);
  const run = spawnSync(
    'vitest',
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`],
    { stdio: 'inherit' },
  );
  let results: Results | undefined;
  try {
    results = JSON.parse(readFileSync(outputFile, 'utf8')) as Results;
  } catch {}
  return { code: run.status ?? 1, results };
}

const log = (line: string) => console.log(`[test] ${line}`);
const relative = (file: string) => path.relative(process.cwd(), file);

const extra = process.argv.slice(2);
const first = vitest([...PROJECTS, ...extra], 'first');
let code = first.code;
if (first.results) {
  const failed = first.results.testResults.filter((file) => file.status !== 'passed').map((file) => file.name);
  if (failed.length > 0) {
    log(`${failed.length} test file(s) failed; running each once more to tell flaky from failing:`);
    for (const file of failed) log(`  ${relative(file)}`);
    const flaky: string[] = [];
    const failing: string[] = [];
    for (const [i, file] of failed.entries()) {
      const again = vitest([...PROJECTS, file], `again-${i}`);
      (again.code === 0 ? flaky : failing).push(relative(file));
    }
    for (const file of flaky) log(`FLAKY (failed, then passed alone): ${file}`);
    for (const file of failing) log(`FAILED (failed twice): ${file}`);
    code = 1;
  } else if (code !== 0) {
    log(`vitest exited with ${code} though no test file failed (an error outside the tests: see above)`);
  }
  const { numPassedTests, numFailedTests, numPendingTests } = first.results;
  // The plain closing line, counted on the first run.
  console.log(`tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
}
rmSync(dir, { recursive: true, force: true });
process.exit(code);
