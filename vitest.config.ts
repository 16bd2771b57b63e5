import { defineConfig } from 'vitest/config';

// Three tiers plus the web UI's component tests, one command (`pnpm test`): unit (pure, no I/O), int (adapters against real servers),
// e2e (the fleet as separate processes, over HTTP). No test stops a shared server: one that must kill a broker
// starts a private node of its own (@pcas/testing's startPrivateRabbitNode).
export default defineConfig({
  test: {
    // Unit, component and int test files run two at a time, also on a two-core machine, where Vitest's default (one
    // less worker than cores) would run them one by one. E2e files (whole fleets) still run one at a time, after them.
    maxWorkers: 2,
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
        // Components of the web UI in jsdom, with the web UI's own Vite config (React).
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: './web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'int',
          include: ['libs/*/src/**/*.int.test.ts', 'services/*/src/**/*.int.test.ts', 'launcher/src/**/*.int.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files at a time (the root's maxWorkers): each has its own database, queues and ports (@pcas/testing).
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          // One production build for the run, which every system the tests start runs (e2e/global-setup.ts).
          globalSetup: ['./e2e/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
