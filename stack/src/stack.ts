// The local stack: embedded Postgres, anvil with Circle's USDC, keys and the indexer, each only
// when the environment does not name a real one. Used by the dev command, tests and benchmarks.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DATABASE_ROLES, type DatabaseRole, migrateDatabase } from '@store/api/db/client';
import { startAnvil } from './anvil.ts';
import { indexerDataMatchesChain, resetIndexerData, superviseIndexer } from './indexer.ts';
import { loadOrCreateLocalKeys, loadOrCreateRolePasswords } from './keys.ts';
import { enableRoleLogins, startEmbeddedPostgres } from './postgres.ts';
import { deployLocalUsdc } from './usdc.ts';

export interface LocalStackOptions {
  /** Folder for the Postgres cluster, the chain state and the keys. */
  dataDir: string;
  ports: { postgres: number; anvil: number; indexer: number };
  /** Seconds between local blocks (1 by default; 0.2 is Base's pace). */
  blockTime?: number;
  /** Keep the chain between starts (dev) or start fresh every time (tests). */
  persistChain?: boolean;
  /** Faster, non-durable Postgres for tests and benchmarks. */
  ephemeral?: boolean;
  /**
   * The environment: a DATABASE_URL or RPC_URL in it replaces the local part (with DATABASE_URL,
   * every service uses it, and the migrations run as MIGRATION_DATABASE_URL when set).
   */
  env?: Record<string, string | undefined>;
  log?: (part: string, line: string) => void;
}

/** Everything the stack set up (local keys in local mode); DATABASE_URL is the API role's. */
export interface StackEnv extends ChainEnv, Partial<LocalKeysEnv> {
  DATABASE_URL: string;
  INDEXER_URL: string;
}

/** A running local stack and what the API and the worker need to use it. */
export interface LocalStack {
  /**
   * For code in the process that started the stack (tests, benchmarks): the chain, the indexer,
   * every local key, and the API role's DATABASE_URL. Note: never hand it whole to a process;
   * `serviceEnvironments` gives the API and the worker each its own part.
   */
  env: StackEnv;
  /** Each role's URL (API, worker, indexer, analyst); all DATABASE_URL when it was given. */
  databaseUrls: Record<DatabaseRole, string>;
  /**
   * The owner's URL (the superuser's in local mode): migrations, the indexer's reset, tests' and
   * tools' own SQL. Never given to the API, the worker or the indexer.
   */
  adminDatabaseUrl: string;
  /** Messages worth showing the person who started the stack. */
  notices: string[];
  /**
   * The embedded Postgres server (none with DATABASE_URL): its process group's pid, folder and
   * port, for tests that crash it and start it again on the same data.
   */
  embeddedPostgres?: { pid: number; dataDir: string; port: number };
  stop(): Promise<void>;
}

/** A child process's environment: `undefined` removes a variable it would inherit. */
export type ServiceEnv = Record<string, string | undefined>;

/**
 * The worker's runtime settings (Bun's JavaScriptCore and its allocator), measured at 50
 * payments a second for 20 s (docs/benchmarks.md, "The worker's runtime"). The engine's top
 * compiler tier kept recompiling for the whole run: 4.9-5.4 CPU seconds of compiler threads for
 * 1,000 payments beside 13 on the main thread, 1.8-2.5 without that tier, and the main thread no
 * slower. The allocator gave freed pages back to the system after 10 ms and took them again at
 * once: 1.4-1.6 CPU seconds of its own thread, 0.6-0.8 when it waits 5 s.
 * Note: docker-compose.yml sets the same for its worker.
 */
export const WORKER_RUNTIME: ServiceEnv = {
  BUN_JSC_useFTLJIT: '0',
  MIMALLOC_PURGE_DELAY: '5000',
};

/**
 * The environments of the API and the worker processes. The API gets only public key material
 * (xpub, addresses, the webhook public key) and its role's DATABASE_URL; the worker gets its role
 * and the secrets (deposit seed, relayer key, webhook signing key). Neither gets the owner's URL.
 */
export function serviceEnvironments(stack: Pick<LocalStack, 'env' | 'databaseUrls'>): {
  api: ServiceEnv;
  worker: ServiceEnv;
} {
  const e = stack.env;
  // Note: what the stack did not set (a real chain's keys) is left to the shell's environment.
  const defined = (values: ServiceEnv) =>
    Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  const chain: ServiceEnv = {
    RPC_URL: e.RPC_URL,
    WS_URL: e.WS_URL,
    CHAIN_ID: e.CHAIN_ID,
    USDC_START_BLOCK: e.USDC_START_BLOCK,
    LOCAL_MODE: e.LOCAL_MODE,
    ...defined({ USDC_ADDRESS: e.USDC_ADDRESS, TREASURY_ADDRESS: e.TREASURY_ADDRESS }),
    // Note: never inherited from the shell that started the stack either.
    MIGRATION_DATABASE_URL: undefined,
  };
  return {
    api: {
      ...chain,
      ...defined({
        PAYMENT_XPUB: e.PAYMENT_XPUB,
        RELAYER_ADDRESS: e.RELAYER_ADDRESS,
        WEBHOOK_PUBLIC_KEY: e.WEBHOOK_PUBLIC_KEY,
      }),
      DATABASE_URL: stack.databaseUrls.api,
      INDEXER_URL: e.INDEXER_URL,
      PAYMENT_MNEMONIC: undefined,
      RELAYER_PRIVATE_KEY: undefined,
      WEBHOOK_SIGNING_KEY: undefined,
      // Note: the mail server's URL (with its password) is the worker's alone.
      SMTP_URL: undefined,
    },
    worker: {
      ...chain,
      ...WORKER_RUNTIME,
      ...defined({
        PAYMENT_MNEMONIC: e.PAYMENT_MNEMONIC,
        RELAYER_PRIVATE_KEY: e.RELAYER_PRIVATE_KEY,
        WEBHOOK_SIGNING_KEY: e.WEBHOOK_SIGNING_KEY,
      }),
      DATABASE_URL: stack.databaseUrls.worker,
    },
  };
}

const INDEXER_SCHEMA = 'indexer';

/** The chain part of the services' environment. */
export interface ChainEnv {
  RPC_URL: string;
  WS_URL: string;
  CHAIN_ID: string;
  USDC_ADDRESS?: string;
  USDC_START_BLOCK: string;
  LOCAL_MODE: 'true' | 'false';
}

/** Starts every missing part; on failure stops what it had started and rethrows. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const stops: Array<() => Promise<void>> = [];
  const notices: string[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    await mkdir(options.dataDir, { recursive: true });
    const database = await startDatabase(options, env, stops, notices);
    const adminUrl = database.adminDatabaseUrl;

    const local = env.RPC_URL ? undefined : await startLocalChain(options, stops, notices);
    const chainEnv = local?.env ?? realChainEnv(env);
    const chainId = Number(chainEnv.CHAIN_ID);
    if (local) {
      // Note: what the indexer built from an earlier chain would confuse it on a new one.
      const matches =
        !local.fresh &&
        (await indexerDataMatchesChain({
          databaseUrl: adminUrl,
          schema: INDEXER_SCHEMA,
          chainId,
          rpcUrl: chainEnv.RPC_URL,
        }));
      if (!matches) {
        await resetIndexerData({ databaseUrl: adminUrl, schema: INDEXER_SCHEMA, chainId });
        notices.push('The local chain is new: the indexer starts again from its first block.');
      }
    }
    // Note: the keys first: the indexer derives the deposit addresses from the public one.
    const keysEnv: Partial<LocalKeysEnv> =
      chainEnv.LOCAL_MODE === 'true' ? await localKeysEnv(options.dataDir, notices) : {};
    const indexer = await superviseIndexer({
      databaseUrl: database.databaseUrls.indexer,
      rpcUrl: chainEnv.RPC_URL,
      wsUrl: chainEnv.WS_URL || undefined,
      chainId,
      usdcAddress: chainEnv.USDC_ADDRESS,
      startBlock: BigInt(chainEnv.USDC_START_BLOCK),
      port: options.ports.indexer,
      schema: INDEXER_SCHEMA,
      // Note: the indexer's /sql and /graphql stay off unless the operator gives a token.
      sqlToken: env.INDEXER_SQL_TOKEN || undefined,
      paymentXpub: keysEnv.PAYMENT_XPUB || env.PAYMENT_XPUB || undefined,
      allTransfers: env.INDEXER_ALL_TRANSFERS ? env.INDEXER_ALL_TRANSFERS === 'true' : undefined,
      log: (line) => log('indexer', line),
    });
    stops.push(indexer.stop);

    return {
      env: {
        ...chainEnv,
        ...keysEnv,
        DATABASE_URL: database.databaseUrls.api,
        INDEXER_URL: indexer.url,
      },
      ...database,
      notices,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The given DATABASE_URL (migrated as MIGRATION_DATABASE_URL, or as itself), else the embedded
 * Postgres, migrated as its superuser, with the roles given LOGIN and their passwords.
 */
async function startDatabase(
  options: LocalStackOptions,
  env: Record<string, string | undefined>,
  stops: Array<() => Promise<void>>,
  notices: string[],
): Promise<Pick<LocalStack, 'databaseUrls' | 'adminDatabaseUrl' | 'embeddedPostgres'>> {
  if (env.DATABASE_URL) {
    const url = env.DATABASE_URL;
    const adminDatabaseUrl = env.MIGRATION_DATABASE_URL || url;
    await migrateDatabase(adminDatabaseUrl);
    const roles = Object.keys(DATABASE_ROLES) as DatabaseRole[];
    const databaseUrls = Object.fromEntries(roles.map((role) => [role, url]));
    return { databaseUrls: databaseUrls as Record<DatabaseRole, string>, adminDatabaseUrl };
  }
  const pg = await startEmbeddedPostgres({
    dataDir: join(options.dataDir, 'postgres'),
    port: options.ports.postgres,
    ephemeral: options.ephemeral,
    log: (line) => options.log?.('postgres', line),
  });
  stops.push(pg.stop);
  notices.push(`Embedded Postgres ${pg.created ? 'created' : 'started'}: ${pg.url}`);
  await migrateDatabase(pg.url);
  const { passwords } = await loadOrCreateRolePasswords(options.dataDir);
  return {
    databaseUrls: await enableRoleLogins(pg.url, passwords),
    adminDatabaseUrl: pg.url,
    embeddedPostgres: { pid: pg.pid, dataDir: join(options.dataDir, 'postgres'), port: pg.port },
  };
}

async function startLocalChain(
  options: LocalStackOptions,
  stops: Array<() => Promise<void>>,
  notices: string[],
): Promise<{ env: ChainEnv; fresh: boolean }> {
  const anvil = await startAnvil({
    port: options.ports.anvil,
    blockTime: options.blockTime ?? 1,
    stateFile: options.persistChain ? join(options.dataDir, 'anvil-state.json') : undefined,
  });
  stops.push(anvil.stop);
  const usdc = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });
  notices.push(
    `Local chain ${anvil.chainId} at ${anvil.rpcUrl} (${anvil.fresh ? 'new' : 'kept from the last start'}); ` +
      `USDC (Circle FiatTokenV2_2) at ${usdc.usdc}; test accounts 1-9 hold 10,000 USDC each.`,
  );
  const env: ChainEnv = {
    RPC_URL: anvil.rpcUrl,
    WS_URL: anvil.wsUrl,
    CHAIN_ID: String(anvil.chainId),
    USDC_ADDRESS: usdc.usdc,
    USDC_START_BLOCK: String(usdc.deployBlock),
    LOCAL_MODE: 'true',
  };
  return { env, fresh: anvil.fresh };
}

function realChainEnv(env: Record<string, string | undefined>): ChainEnv {
  const need = (name: string) => {
    const value = env[name];
    if (!value) throw new Error(`\`${name}\` is not configured`);
    return value;
  };
  const result: ChainEnv = {
    RPC_URL: need('RPC_URL'),
    WS_URL: env.WS_URL ?? '',
    CHAIN_ID: need('CHAIN_ID'),
    USDC_START_BLOCK: need('USDC_START_BLOCK'),
    LOCAL_MODE: 'false',
  };
  if (env.USDC_ADDRESS) result.USDC_ADDRESS = env.USDC_ADDRESS;
  return result;
}

interface LocalKeysEnv {
  PAYMENT_XPUB: string;
  PAYMENT_MNEMONIC: string;
  RELAYER_ADDRESS: string;
  RELAYER_PRIVATE_KEY: string;
  TREASURY_ADDRESS: string;
  WEBHOOK_SIGNING_KEY: string;
  WEBHOOK_PUBLIC_KEY: string;
}

async function localKeysEnv(dataDir: string, notices: string[]): Promise<LocalKeysEnv> {
  const { keys, created, file } = await loadOrCreateLocalKeys(dataDir);
  notices.push(
    `${created ? 'GENERATED NEW' : 'Using'} LOCAL KEYS in ${file} (deposit seed, treasury key, webhook signing key). ` +
      'They are for the local chain only: never send real funds to them.',
  );
  return {
    PAYMENT_XPUB: keys.paymentXpub,
    PAYMENT_MNEMONIC: keys.paymentMnemonic,
    RELAYER_ADDRESS: keys.relayerAddress,
    RELAYER_PRIVATE_KEY: keys.relayerPrivateKey,
    TREASURY_ADDRESS: keys.treasuryAddress,
    WEBHOOK_SIGNING_KEY: keys.webhookSigningKey,
    WEBHOOK_PUBLIC_KEY: keys.webhookPublicKey,
  };
}
