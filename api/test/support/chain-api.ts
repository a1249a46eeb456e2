// One test file's API on a whole local stack (Postgres, anvil with USDC, the indexer), with the
// worker's loops when the file needs them: the hooks that start it all and stop it in order. The
// API connects as its role, the worker's loops as theirs, as the real processes do.
import { afterAll, beforeAll } from 'bun:test';
import { createPublicClient, http } from 'viem';
import { type App, createApp } from '../../src/app.ts';
import { type ApiConfig, loadApiConfig } from '../../src/config.ts';
import { createDatabase } from '../../src/db/client.ts';
import { type ApiClient, apiClient } from './client.ts';
import { startTestStack, type TestStack } from './stack.ts';

/** The running stack and API of one chain test file; set once `beforeAll` has run. */
export interface ChainApi {
  stack: TestStack;
  /** A pool connected as the API's role (the test's own reads use it too). */
  database: ReturnType<typeof createDatabase>;
  /** A pool connected as the worker's role. */
  workerDatabase: ReturnType<typeof createDatabase>;
  config: ApiConfig;
  app: App;
  /** A client without a session. */
  shopper: ApiClient;
  /** A client of an API whose orders get a payment window of `seconds`. */
  appWithWindow(seconds: number): ApiClient;
}

/** What the file runs beside the API (worker loops or processes); stopped before the stack. */
export interface Stoppable {
  stop(): Promise<unknown>;
}

/** Options of `useChainApi`. */
export interface ChainApiOptions {
  /** CONFIRMATIONS of the API (the stack's default when absent). */
  confirmations?: number;
  /** Connections of the test's own database pool. */
  poolSize: number;
  /** Started once the API is up; its `database` is the worker role's pool. */
  worker?: (api: ChainApi) => Stoppable;
}

/** Time the start and stop hooks may take: the stack deploys USDC and syncs the indexer. */
const CHAIN_STACK_TIMEOUT_MS = 120_000;

/**
 * Registers the `beforeAll` that starts a stack with 200 ms blocks, a database pool, the API and
 * the worker, and the `afterAll` that stops the worker, the pool and the stack, in that order.
 */
export function useChainApi(options: ChainApiOptions): ChainApi {
  let worker: Stoppable | undefined;
  const createClient = (config: ApiConfig) => {
    const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
    return apiClient(createApp({ db: t.database.db, config, chain }));
  };
  const t = {
    appWithWindow: (seconds: number) =>
      createClient({ ...t.config, paymentWindowHours: seconds / 3600 }),
  } as ChainApi;
  beforeAll(async () => {
    t.stack = await startTestStack({ blockTime: 0.2 });
    t.database = createDatabase(t.stack.databaseUrls.api, { max: options.poolSize });
    t.workerDatabase = createDatabase(t.stack.databaseUrls.worker, { max: options.poolSize });
    const { confirmations } = options;
    t.config = loadApiConfig({
      ...t.stack.env,
      ...(confirmations === undefined ? {} : { CONFIRMATIONS: String(confirmations) }),
    });
    const chain = createPublicClient({ transport: http(t.config.chain.rpcUrl) });
    t.app = createApp({ db: t.database.db, config: t.config, chain });
    t.shopper = apiClient(t.app);
    worker = options.worker?.({ ...t, database: t.workerDatabase });
  }, CHAIN_STACK_TIMEOUT_MS);
  afterAll(async () => {
    await worker?.stop();
    await t.database?.close();
    await t.workerDatabase?.close();
    await t.stack?.stop();
  }, CHAIN_STACK_TIMEOUT_MS);
  return t;
}
