// The e2e project's set-up: one production build of the services and launchers for the whole run, into a folder
// of its own, which every system the tests start runs (PCAS_TEST_BUILD_DIR, read by @pcas/testing's startFleet and
// startEmbedded): the JavaScript the fleet and the image run, and a start of a few seconds instead of each
// process compiling the sources through tsx (about forty fleets and as many embedded systems a run).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error: the build script is plain JavaScript (build.config.mjs), without declarations.
import { buildAll } from '../build.config.mjs';

export async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pcas-e2e-build-'));
  await buildAll({ outdir: dir });
  process.env.PCAS_TEST_BUILD_DIR = dir;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
