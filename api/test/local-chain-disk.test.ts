// The local chain's disk: the states of past blocks anvil writes once it has run for a while go
// to a folder of the chain's own, removed when it stops, never under the user's home folder
// (gigabytes for every chain that ran an hour at Base's pace, left there when it stopped).
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Anvil, startAnvil } from '@store/stack/anvil';
import { freePort } from '@store/stack/ports';
import { createPublicClient, http } from 'viem';
import { foundry } from 'viem/chains';

/** Where anvil writes them unless told: a folder a run, under the home folder. */
const HOME_STATES = join(homedir(), '.foundry', 'anvil', 'tmp');
let started: number;
let anvil: Anvil | undefined;

/** The files at any depth of `dir` (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** The files in the home folder's state folders made since this test started. */
async function homeStatesSinceStart(): Promise<string[]> {
  const folders = await readdir(HOME_STATES, { withFileTypes: true }).catch(() => []);
  const written: string[] = [];
  for (const folder of folders) {
    const path = join(HOME_STATES, folder.name);
    if (!folder.isDirectory() || (await stat(path)).mtimeMs < started) continue;
    written.push(...(await filesUnder(path)));
  }
  return written;
}

/** The folder the running chain was told to write past states to (its command line). */
function statesFolderOf(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const flag = args.indexOf('--cache-path');
  const folder = flag >= 0 ? args[flag + 1] : undefined;
  if (!folder) throw new Error('anvil has no --cache-path');
  return folder;
}

beforeAll(async () => {
  started = Date.now() - 1_000;
  anvil = await startAnvil({ port: await freePort(), blockTime: 1 });
}, 30_000);

afterAll(async () => {
  await anvil?.stop();
});

describe('a local chain that has run for a while', () => {
  it('writes past states to its own folder, removed when it stops, none under the home folder', async () => {
    if (!anvil) throw new Error('anvil did not start');
    const client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
    // Note: at block times of 2 s and less anvil keeps 1,500 states in memory, then writes the
    // oldest to disk: 2,000 blocks wrote about 1,000 files to the home folder before.
    const blocks = 2_000;
    await client.request({
      method: 'anvil_mine' as never,
      params: [`0x${blocks.toString(16)}`] as never,
    });
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(BigInt(blocks));
    // Note: anvil writes a state it moves out of memory in the background.
    await Bun.sleep(1_000);
    expect(await homeStatesSinceStart()).toEqual([]);
    const folder = statesFolderOf(anvil.pid);
    expect((await filesUnder(folder)).length).toBeGreaterThan(100);

    await anvil.stop();
    anvil = undefined;
    expect(existsSync(folder)).toBe(false);
    expect(await homeStatesSinceStart()).toEqual([]);
  }, 60_000);
});
