// The indexer's watchdog: an indexer that stops making progress while the chain moves on (Ponder
// can stay stuck after a reorg replaced a head block it was fetching) is restarted, and catches up.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Anvil, startAnvil } from '@store/stack/anvil';
import { superviseIndexer, waitForIndexerBlock } from '@store/stack/indexer';
import { freePort } from '@store/stack/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@store/stack/postgres';
import { deployLocalUsdc } from '@store/stack/usdc';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';

let dir: string;
let pg: EmbeddedPostgresServer;
let anvil: Anvil;
let indexer: Awaited<ReturnType<typeof superviseIndexer>> | undefined;
const lines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'indexer-watchdog-'));
  pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: await freePort(),
    ephemeral: true,
  });
  anvil = await startAnvil({ port: await freePort(), blockTime: 0.2 });
  const token = await deployLocalUsdc({ rpcUrl: anvil.rpcUrl });
  indexer = await superviseIndexer({
    databaseUrl: pg.url,
    rpcUrl: anvil.rpcUrl,
    wsUrl: anvil.wsUrl,
    chainId: anvil.chainId,
    usdcAddress: token.usdc,
    startBlock: token.deployBlock,
    port: await freePort(),
    schema: 'indexer',
    maxLagBlocks: 10,
    stallMs: 3000,
    checkMs: 500,
    log: (line) => lines.push(line),
  });
}, 90_000);

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await pg?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, 60_000);

test('a stalled indexer is restarted and catches up with the chain', async () => {
  if (!indexer) throw new Error('no indexer');
  const stalled = indexer.pid;
  // Freeze Ponder: it answers nothing and indexes nothing while blocks keep coming.
  process.kill(stalled, 'SIGSTOP');
  const client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  const deadline = Date.now() + 100_000;
  while (indexer.restarts() === 0 && Date.now() < deadline) await Bun.sleep(200);
  expect(indexer.restarts()).toBe(1);
  expect(indexer.pid).not.toBe(stalled);
  expect(lines.some((line) => line.startsWith('watchdog: no progress'))).toBe(true);
  const head = await client.getBlockNumber();
  expect(await waitForIndexerBlock(indexer.url, head, 30_000)).toBe(true);
}, 200_000);
