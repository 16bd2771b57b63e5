import { defineConfig } from 'vitest/config';

// Three tiers, one command (`pnpm test`): unit (pure, no I/O), int (adapters against real servers),
// e2e (the fleet as separate processes, over HTTP). Solo tests disrupt a shared server (they stop the broker),
// so they get a group of their own: vitest runs groups one after another, never side by side.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'libs/*/src/**/*.unit.test.ts',
            'services/*/src/**/*.unit.test.ts',
            'launcher/src/**/*.unit.test.ts',
          ],
          testTimeout: 10_000,
        },
      },
      {
        test: {
          name: 'int',
          include: ['libs/*/src/**/*.int.test.ts', 'services/*/src/**/*.int.test.ts', 'launcher/src/**/*.int.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'solo',
          include: ['libs/*/src/**/*.solo.test.ts', 'services/*/src/**/*.solo.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
