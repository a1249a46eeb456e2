// The benchmark's own servers: an ephemeral embedded Postgres and the API process on free ports.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { migrateDatabase } from '../../api/src/db/client.ts';
import { depositXpubFromMnemonic } from '../../api/src/keys/hd.ts';
import { freePort } from '../../api/test/support/ports.ts';
import { startEmbeddedPostgres } from '../../stack/src/postgres.ts';
import { ANVIL_MNEMONIC } from '../../stack/src/usdc.ts';

const root = resolve(import.meta.dir, '../..');

/** A running server the benchmark started; `stop()` ends it and removes what it wrote. */
export interface Running {
  url: string;
  stop(): Promise<void>;
}

/** Starts a fresh, migrated Postgres (fsync off, as in the tests) in a temporary folder. */
export async function startBenchDatabase(): Promise<Running & { version: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-api-'));
  const pg = await startEmbeddedPostgres({
    dataDir: join(dataDir, 'postgres'),
    port: await freePort(),
    ephemeral: true,
  });
  await migrateDatabase(pg.url);
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  const [row] = await sql<
    { version: string }[]
  >`select current_setting('server_version') as version`;
  await sql.end();
  return {
    url: pg.url,
    version: row?.version ?? 'unknown',
    stop: async () => {
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// The deposit account of anvil's mnemonic: the API needs an xpub at that depth to start (order
// creation derives a deposit address only for universal orders, which these runs do not create).
const XPUB = depositXpubFromMnemonic(ANVIL_MNEMONIC);

/** Starts the real API entry point (local mode seeds the demo store) and waits until it answers. */
export async function startApi(databaseUrl: string): Promise<Running> {
  const port = await freePort();
  const child = Bun.spawn([process.execPath, join(root, 'api/src/index.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOCAL_MODE: 'true',
      CHAIN_ID: '31337',
      // No chain runs in this benchmark: the routes measured never call it.
      RPC_URL: 'http://127.0.0.1:9',
      USDC_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      TREASURY_ADDRESS: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      RELAYER_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      PAYMENT_XPUB: XPUB,
    },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await child.exited;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(`${url}/api/stores`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not start on port ${port}`);
    }
    await Bun.sleep(100);
  }
}
