// The local chain's disk: a chain that has run for a while writes no per-block states under the
// user's home folder (gigabytes over an hour at Base's pace, left behind by a chain killed
// without its clean stop), and still answers reads and reorgs at its latest blocks.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Anvil, startAnvil } from '@store/stack/anvil';
import { freePort } from '@store/stack/ports';
import { localAccount } from '@store/stack/usdc';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';

/** Where anvil writes the states it moves out of memory: a folder a run, removed when it stops. */
const STATES_ON_DISK = join(homedir(), '.foundry', 'anvil', 'tmp');
let started: number;
let anvil: Anvil;

/** The files in the state folders made since this test started. */
async function statesWrittenSinceStart(): Promise<string[]> {
  const folders = await readdir(STATES_ON_DISK, { withFileTypes: true }).catch(() => []);
  const written: string[] = [];
  for (const folder of folders) {
    const path = join(STATES_ON_DISK, folder.name);
    if (!folder.isDirectory() || (await stat(path)).mtimeMs < started) continue;
    written.push(...(await readdir(path)));
  }
  return written;
}

beforeAll(async () => {
  started = Date.now() - 1_000;
  anvil = await startAnvil({ port: await freePort(), blockTime: 1 });
}, 30_000);

afterAll(async () => {
  await anvil?.stop();
});

describe('a local chain that has run for a while', () => {
  it('writes no block states to disk, and still reads and reorgs its latest blocks', async () => {
    const client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    // Note: at block times of 2 s and less anvil keeps 1,500 states in memory, then moves the
    // oldest to disk; 2,000 blocks wrote about 1,000 files of them before the chain kept fewer.
    const blocks = 2_000;
    await client.request({
      method: 'anvil_mine' as never,
      params: [`0x${blocks.toString(16)}`] as never,
    });
    const head = await client.getBlockNumber();
    expect(head).toBeGreaterThanOrEqual(BigInt(blocks));
    // Note: anvil writes a state it moves out of memory in the background.
    await Bun.sleep(1_000);
    expect(await statesWrittenSinceStart()).toEqual([]);

    const balance = await client.getBalance({
      address: localAccount(1).address,
      blockNumber: head - 5n,
    });
    expect(balance).toBeGreaterThan(0n);
    await client.request({ method: 'anvil_reorg' as never, params: [10, []] as never });
    const block = await client.getBlock({ blockNumber: head - 9n });
    expect(block.number).toBe(head - 9n);
  }, 60_000);
});
