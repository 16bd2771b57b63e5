// `pnpm start` stopped with Ctrl-C (SIGINT to the terminal's process group: pnpm and the service alike) or with
// SIGTERM: the service stops its parts and the command ends with exit code 0, no ELIFECYCLE error from pnpm;
// before that, the administrator's login stands in a frame after the start-up lines.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, repoRoot, waitForHealth } from '@pcas/testing';
import { afterEach, describe, expect, it } from 'vitest';

let running: { child: ChildProcess; dataDir: string } | undefined;

afterEach(async () => {
  if (!running) return;
  const { child, dataDir } = running;
  running = undefined;
  if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  await rm(dataDir, { recursive: true, force: true });
});

async function startWithPnpm(): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pcas-stop-'));
  const port = await freePort();
  // Its own process group, as a terminal's foreground job: the signal goes to the whole group.
  const child = spawn('pnpm', ['start'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      BASE_URL: 'http://localhost:3000',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  running = { child, dataDir };
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, 120_000, child);
  return { child, baseUrl, output: () => buffer };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('pnpm start stops cleanly', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`ends with exit code 0 on ${signal} to the process group`, async () => {
      const { child, baseUrl, output } = await startWithPnpm();
      expect((await fetch(`${baseUrl}/health-check`)).status).toBe(200);
      // The login block is printed once the start-up is logged; wait for its closing line.
      await expect.poll(() => output(), { timeout: 10_000 }).toMatch(/└─+┘/);
      const text = output();
      expect(text.indexOf('Administrator:')).toBeGreaterThan(text.indexOf('gateway listening'));
      const done = exited(child);
      process.kill(-child.pid!, signal);
      const result = await done;
      expect({ ...result, output: result.code === 0 ? '' : output().slice(-3000) }).toEqual({
        code: 0,
        signal: null,
        output: '',
      });
      expect(output()).not.toContain('ELIFECYCLE');
      expect(output()).toMatch(/"msg":"stopped"/);
    });
  }
});
