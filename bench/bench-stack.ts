// The stack a payment benchmark runs on: the local stack at Base's pace (0.2 s blocks) in a
// temporary folder, plus API and worker processes started from the API package, all stopped by
// `stop()`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from '@store/api/db/client';
import { freePort } from '@store/stack/ports';
import { type Service, startService } from '@store/stack/process';
import { serviceEnvironments, startLocalStack } from '@store/stack/stack';

const root = resolve(import.meta.dir, '..');

/** Starts the local stack for benchmark `name`, with `env` added to every process it starts. */
export async function startBenchStack(name: string, env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), `bench-${name}-`));
  /** Every line the started processes printed, prefixed with their name. */
  const logs: string[] = [];
  const stack = await startLocalStack({
    log: (part, line) => {
      if (part === 'indexer' && !/event_count=0/.test(line)) logs.push(`indexer: ${line}`);
    },
    dataDir,
    ports: { postgres: await freePort(), anvil: await freePort(), indexer: await freePort() },
    blockTime: 0.2,
    ephemeral: true,
    env: {},
  });
  // Note: the benchmark's own SQL (placeholder rows, reads of the results) runs as the owner.
  const database = createDatabase(stack.adminDatabaseUrl, { max: 2 });
  const serviceEnv = serviceEnvironments(stack);
  const services: Service[] = [];

  /**
   * Starts an entry point of the API package (`index.ts`, `worker.ts`) with its environment (its
   * role and keys, as in `bun run dev`).
   */
  const start = (
    service: string,
    file: 'index.ts' | 'worker.ts',
    extra: Record<string, string> = {},
  ) => {
    const own = file === 'worker.ts' ? serviceEnv.worker : serviceEnv.api;
    const started = startService(service, process.execPath, [join(root, 'api/src', file)], {
      env: { ...own, ...env, ...extra },
      log: (line) => logs.push(`${service}: ${line}`),
    });
    services.push(started);
    return started;
  };

  /** Starts an API on a free port and resolves with its URL once it is healthy. */
  const startApi = async (service: string, extra: Record<string, string> = {}) => {
    const port = await freePort();
    start(service, 'index.ts', { ...extra, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 300; i++) {
      if ((await fetch(`${url}/api/health`).catch(() => null))?.ok) return url;
      await Bun.sleep(100);
    }
    throw new Error(`${service} did not become healthy:\n${logs.join('\n')}`);
  };

  const stop = async () => {
    await Promise.all(services.map((s) => s.stop()));
    await database.close();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };

  return { stack, database, logs, start, startApi, stop };
}
