// End-to-end tests in e2e/ against the REAL stack (no mocks): webServer runs
// e2e/support/start-stack.ts (Postgres, anvil with USDC, indexer, worker, and the API serving the
// built app on one origin, as `bun run start` does), driven by Debian's Chromium (Playwright's own
// browser download is not used).
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { E2E_PORTS } from '@store/stack/stack-info';

const baseURL = `http://localhost:${E2E_PORTS.web}`;
const bun =
  process.env.BUN_PATH ?? fileURLToPath(new URL('../node_modules/.bin/bun', import.meta.url));

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Note: the journeys share one chain and one store; they run one at a time.
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    serviceWorkers: 'allow',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `${bun} e2e/support/start-stack.ts`,
    // Note: the API serves the app before the store is seeded; the tests start once start-stack.ts
    // says the stack is ready. Never a stale server: it fails the run on a busy port.
    wait: { stdout: /e2e: stack ready at / },
    reuseExistingServer: false,
    timeout: 240_000,
    // Lets start-stack.ts stop Postgres, anvil, the indexer, the API and the worker by pid.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
