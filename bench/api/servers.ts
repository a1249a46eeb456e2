// The benchmark's own servers: an ephemeral embedded Postgres and the API process on free ports.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from '@store/api/db/client';
import { startApiProcess } from '@store/stack/api-process';
import { freePort } from '@store/stack/ports';
import { startEmbeddedPostgres } from '@store/stack/postgres';
import postgres from 'postgres';

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

/**
 * Starts the real API entry point (local mode seeds the demo store) and waits until it answers;
 * with `cpuProfileDir`, Bun writes a CPU profile (markdown) of the process there when it stops.
 */
export async function startApi(
  databaseUrl: string,
  options: { cpuProfileDir?: string } = {},
): Promise<RunningApi> {
  const bunArgs = options.cpuProfileDir
    ? ['--cpu-prof-md', `--cpu-prof-dir=${options.cpuProfileDir}`]
    : [];
  const api = await startApiProcess(databaseUrl, { localMode: true, bunArgs });
  return { url: api.url, stop: api.stop, pid: api.proc.pid };
}
