// One test file's API on a fresh embedded Postgres, with signed-up merchants: the hooks that start
// it before the file's tests and stop it after them.
import { afterAll, beforeAll } from 'bun:test';
import type { App } from '../../src/app.ts';
import { type ApiClient, apiClient, newMerchant } from './client.ts';
import {
  createTestApp,
  STACK_TIMEOUT_MS,
  startTestDatabase,
  type TestDatabase,
} from './database.ts';

/** A signed-up merchant: its session cookie, its user and a client signed in as it. */
export type Merchant = Awaited<ReturnType<typeof newMerchant>>;

interface TestApiBase {
  testDb: TestDatabase;
  app: App;
  /** A client without a session: a shopper, or any visitor. */
  shopper: ApiClient;
}

/** The running API of one test file plus one field a merchant; set once `beforeAll` has run. */
export type TestApi<M extends string> = TestApiBase & Record<M, Merchant>;

/**
 * Registers the `beforeAll` that starts a test database, the API on it and signs up `merchants`
 * (each name is also its username's prefix), and the `afterAll` that stops the database.
 * Note: a file's own `beforeAll` registered after this call runs after it, with every field set.
 */
export function useTestApi<const M extends string = never>(
  options: { merchants?: readonly M[] } = {},
): TestApi<M> {
  const merchants = options.merchants ?? [];
  const taken = merchants.filter((name) => ['testDb', 'app', 'shopper'].includes(name));
  if (taken.length > 0) throw new Error(`merchant names taken by the fixture: ${taken}`);
  const t = {} as TestApi<M>;
  beforeAll(async () => {
    t.testDb = await startTestDatabase();
    t.app = createTestApp(t.testDb);
    t.shopper = apiClient(t.app);
    for (const name of merchants) {
      (t as Record<M, Merchant>)[name] = await newMerchant(t.app, name);
    }
  }, STACK_TIMEOUT_MS);
  afterAll(async () => {
    await t.testDb?.stop();
  }, STACK_TIMEOUT_MS);
  return t;
}
