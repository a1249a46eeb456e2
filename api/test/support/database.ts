// A fresh embedded Postgres (migrated, ephemeral) for one API test file, and an app on it that
// connects as the API's role, like the real API process.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_XPUB } from '@store/stack/keys';
import { freePort } from '@store/stack/ports';
import { enableRoleLogins, startEmbeddedPostgres } from '@store/stack/postgres';
import { createPublicClient, http } from 'viem';
import { type App, createApp } from '../../src/app.ts';
import { loadApiConfig } from '../../src/config.ts';
import {
  createDatabase,
  DATABASE_ROLES,
  type DatabaseRole,
  migrateDatabase,
} from '../../src/db/client.ts';

/** Time the start and stop hooks may take on a busy two-core machine (argon2 sign-ups included). */
export const STACK_TIMEOUT_MS = 60_000;

/** A running test database; `stop()` closes the pool, stops Postgres and removes its folder. */
export interface TestDatabase {
  /** The API role's URL. */
  url: string;
  /** The superuser's URL (migrations, and SQL no role may run). */
  adminUrl: string;
  /** Each role's URL (they may log in, with passwords of this run). */
  roleUrls: Record<DatabaseRole, string>;
  /** A pool connected as the API's role. */
  database: ReturnType<typeof createDatabase>;
  stop(): Promise<void>;
}

/** Starts Postgres on a free port in a temporary folder, applies the migrations, opens the roles. */
export async function startTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'store-api-test-'));
  const pg = await startEmbeddedPostgres({
    dataDir: join(dataDir, 'postgres'),
    port: await freePort(),
    ephemeral: true,
  });
  let roleUrls: Record<DatabaseRole, string>;
  try {
    await migrateDatabase(pg.url);
    const roles = Object.keys(DATABASE_ROLES) as DatabaseRole[];
    const passwords = Object.fromEntries(roles.map((r) => [r, randomBytes(16).toString('hex')]));
    roleUrls = await enableRoleLogins(pg.url, passwords as Record<DatabaseRole, string>);
  } catch (error) {
    await pg.stop();
    throw error;
  }
  const database = createDatabase(roleUrls.api, { max: 5 });
  return {
    url: roleUrls.api,
    adminUrl: pg.url,
    roleUrls,
    database,
    stop: async () => {
      await database.close();
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The API on a test database with dummy chain settings (no chain is running). */
export function createTestApp(testDb: TestDatabase, env: Record<string, string> = {}): App {
  const config = loadApiConfig({
    DATABASE_URL: testDb.url,
    RPC_URL: 'http://127.0.0.1:9',
    CHAIN_ID: '31337',
    USDC_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    TREASURY_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    RELAYER_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    PAYMENT_XPUB: TEST_XPUB,
    LOCAL_MODE: 'true',
    ...env,
  });
  const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
  return createApp({ db: testDb.database.db, config, chain });
}
