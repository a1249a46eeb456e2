// A whole local stack (embedded Postgres, anvil with Circle's USDC, the indexer) for one test file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@store/stack/ports';
import { type LocalStack, startLocalStack } from '@store/stack/stack';

/** A started stack plus the temporary folder it lives in; `stop()` removes both. */
export interface TestStack extends LocalStack {
  dataDir: string;
}

/** Starts a fresh stack in a temporary folder, on free ports, ignoring the caller's env. */
export async function startTestStack(options: { blockTime?: number } = {}): Promise<TestStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'store-test-'));
  const stack = await startLocalStack({
    dataDir,
    ports: { postgres: await freePort(), anvil: await freePort(), indexer: await freePort() },
    blockTime: options.blockTime ?? 0.2,
    ephemeral: true,
    env: {},
  });
  return {
    ...stack,
    dataDir,
    stop: async () => {
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
