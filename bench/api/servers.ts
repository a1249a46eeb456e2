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

/** An API process the benchmark started: its pid, for the CPU time it used. */
export interface RunningApi extends Running {
  pid: number;
}

/** A process's parent and CPU seconds (user + system) so far, from /proc/<pid>/stat. */
async function procStat(pid: number | string): Promise<{ ppid: number; cpu: number } | null> {
  try {
    const stat = await Bun.file(`/proc/${pid}/stat`).text();
    // Note: fields after the command's closing parenthesis: ppid is the 2nd, utime and stime the
    // 12th and 13th (in clock ticks, 100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return null;
  }
}

/** CPU seconds a process has used so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  return (await procStat(pid))?.cpu ?? 0;
}

/**
 * CPU seconds used so far by a Postgres server: its postmaster and every process it started
 * (backends, background workers) that is still running.
 */
export async function postgresCpuSeconds(postmasterPid: number): Promise<number> {
  const { readdir } = await import('node:fs/promises');
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(pids.map((pid) => procStat(pid)));
  const own = await procStat(postmasterPid);
  return (
    (own?.cpu ?? 0) +
    stats.reduce((sum, stat) => sum + (stat?.ppid === postmasterPid ? stat.cpu : 0), 0)
  );
}

/** Starts a fresh, migrated Postgres (fsync off, as in the tests) in a temporary folder. */
export async function startBenchDatabase(): Promise<
  Running & { version: string; postmasterPid: number }
> {
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
  const postmasterPid = Number(
    (await Bun.file(join(dataDir, 'postgres', 'postmaster.pid')).text()).split('\n')[0],
  );
  return {
    url: pg.url,
    version: row?.version ?? 'unknown',
    postmasterPid,
    stop: async () => {
      await pg.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// The deposit account of anvil's mnemonic: the API needs an xpub at that depth to start (order
// creation derives a deposit address only for universal orders, which these runs do not create).
const XPUB = depositXpubFromMnemonic(ANVIL_MNEMONIC);

/**
 * Starts the real API entry point (local mode seeds the demo store) and waits until it answers;
 * with `cpuProfileDir`, Bun writes a CPU profile (markdown) of the process there when it stops.
 */
export async function startApi(
  databaseUrl: string,
  options: { cpuProfileDir?: string } = {},
): Promise<RunningApi> {
  const port = await freePort();
  const profile = options.cpuProfileDir
    ? ['--cpu-prof-md', `--cpu-prof-dir=${options.cpuProfileDir}`]
    : [];
  const child = Bun.spawn([process.execPath, ...profile, join(root, 'api/src/index.ts')], {
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
    if (ok) return { url, stop, pid: child.pid };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not start on port ${port}`);
    }
    await Bun.sleep(100);
  }
}
