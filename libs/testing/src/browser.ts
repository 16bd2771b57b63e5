// Debian's Chromium, headless, driven by playwright-core: the browser of the web UI's tests and of `pnpm bench:web`.
// The flags keep it off the network this machine does not reach (its background services would try).

import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run: Chromium is installed, or CI=true (where .ci/run installs it), so a CI machine
 * without it fails them instead of skipping them.
 */
export const chromiumAvailable = existsSync(CHROMIUM) || process.env.CI === 'true';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
