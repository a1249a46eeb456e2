// Local chain for development and tests: the anvil binary from @foundry-rs/anvil.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LOCAL_CHAIN_ID } from '@store/api/chain/networks';
import type { Subprocess } from 'bun';

/** Options of `startAnvil`. */
export type AnvilOptions = {
  port: number;
  /** Chain id anvil reports; the local chain's (31337) by default (8453 for a Base rehearsal). */
  chainId?: number;
  /** Seconds between blocks; 1 by default, 0.2 reproduces Base. */
  blockTime?: number;
  /**
   * File to load the chain from (if it exists) and to dump it to: every
   * `stateInterval` seconds and on a clean `stop()`. Without it the chain is
   * fresh on every start.
   * Note: the dump holds every block, empty ones too (about 1.75 KB each: 6 MB an
   * hour at 1 s blocks, 31 MB at 0.2 s); loading 7,000 blocks took 0.1 s.
   * A crash loses at most `stateInterval` seconds of blocks: within Ponder's
   * 30-block finality on anvil, so the indexer treats it as a reorg.
   */
  stateFile?: string;
  /** Seconds between periodic dumps of `stateFile`; 1 by default. */
  stateInterval?: number;
};

/** A running anvil process. */
export type Anvil = {
  rpcUrl: string;
  wsUrl: string;
  chainId: number;
  pid: number;
  /**
   * True when the chain started empty (no state file, or one that could not be
   * loaded). Whatever was derived from an earlier chain (the indexer's schema
   * and Ponder's sync cache for chain 31337, deposits, settlements) no longer
   * matches it and must be reset.
   */
  fresh: boolean;
  /** Block number the chain started at (0 when fresh). */
  startBlock: bigint;
  /** Stops anvil (SIGTERM, which dumps the state file) and waits for it to exit. */
  stop(): Promise<void>;
};

/** Path of the anvil binary for this platform (or `ANVIL_BIN`). */
export function anvilBinaryPath(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'bin', 'anvil');
}

/** Starts anvil on `port` and resolves once its JSON-RPC answers. */
export async function startAnvil(options: AnvilOptions): Promise<Anvil> {
  const { stateFile, port } = options;
  // Note: checked first, because another server on the port would answer our readiness probe.
  if (await isListening(port)) throw new Error(`anvil: port ${port} is already in use`);
  const hasState = stateFile !== undefined && existsSync(stateFile) && statSync(stateFile).size > 0;
  try {
    return await spawnAnvil(options, hasState);
  } catch (error) {
    if (!hasState || !stateFile || !String(error).includes("for '--state")) throw error;
    // Note: a state file anvil cannot parse (cut short by a crash, or written by
    // another anvil version) is kept aside and the chain starts fresh.
    const aside = `${stateFile}.unreadable-${Date.now()}`;
    renameSync(stateFile, aside);
    console.warn(`anvil could not load ${stateFile} (moved to ${aside}); starting a fresh chain`);
    return spawnAnvil(options, false);
  }
}

async function spawnAnvil(options: AnvilOptions, loadsState: boolean): Promise<Anvil> {
  const { port, blockTime = 1, stateFile, stateInterval = 1 } = options;
  const chainId = options.chainId ?? LOCAL_CHAIN_ID;
  const args = ['--port', String(port), '--chain-id', String(chainId)];
  args.push('--block-time', String(blockTime));
  if (stateFile) args.push('--state', stateFile, '--state-interval', String(stateInterval));
  const statesDir = pastStatesFolder(stateFile);
  args.push('--cache-path', statesDir);
  const removeStates = () => rmSync(statesDir, { recursive: true, force: true });

  let child: Subprocess<'ignore', 'pipe', 'pipe'>;
  try {
    child = Bun.spawn([anvilBinaryPath(), ...args], {
      // Note: its own process group, so a Ctrl-C in the terminal reaches the dev command alone,
      // which stops the indexer before the chain.
      detached: true,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
  } catch (error) {
    removeStates();
    throw error;
  }
  const output = collectTail(child.stdout, child.stderr);
  const rpcUrl = `http://127.0.0.1:${port}`;
  // Note: if this process exits without stop(), anvil still gets SIGTERM (and dumps its state).
  const onExit = () => {
    child.kill('SIGTERM');
    removeStates();
  };
  process.once('exit', onExit);

  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGTERM');
      const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(10_000)]);
      if (!exited) {
        process.kill(child.pid, 'SIGKILL');
        await child.exited;
      }
    }
    removeStates();
  };

  try {
    const startBlock = await waitForRpc(rpcUrl, () => child.exitCode !== null, 15_000);
    return {
      rpcUrl,
      wsUrl: `ws://127.0.0.1:${port}`,
      chainId,
      pid: child.pid,
      fresh: !loadsState,
      startBlock,
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`anvil did not start on port ${port}: ${String(error)}\n${output()}`);
  }
}

/**
 * The folder anvil writes the states of past blocks to, emptied now: beside the state file, or a
 * temporary one. Past 1,500 blocks (at block times of 2 s and less) anvil writes each block's whole
 * state there as JSON (0.5-1 MB a block once the chain has a few thousand accounts, up to 3,600
 * of them) and leaves them when it stops; by default under ~/.foundry, where every chain that ran
 * an hour left gigabytes (25 GB on one machine). Here they go where `stop()` and the next start
 * remove them.
 * Note: the states are still written: keeping fewer (`--prune-history`) saved the chain no CPU
 * and changes which past states it answers for (docs/benchmarks.md).
 */
function pastStatesFolder(stateFile: string | undefined): string {
  if (!stateFile) return mkdtempSync(join(tmpdir(), 'anvil-states-'));
  const folder = `${stateFile}.past-states`;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return folder;
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `eth_blockNumber` until it answers; returns the block number. */
async function waitForRpc(rpcUrl: string, hasExited: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error('anvil exited');
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      });
      if (response.ok) {
        const body = (await response.json()) as { result?: string };
        if (body.result) return BigInt(body.result);
      }
    } catch {
      // not listening yet
    }
    await Bun.sleep(50);
  }
  throw new Error(`no answer from ${rpcUrl} within ${timeoutMs} ms`);
}

/** Drains the child's output (so it never blocks) and keeps the last lines for errors. */
function collectTail(...streams: ReadableStream<Uint8Array>[]): () => string {
  const lines: string[] = [];
  for (const stream of streams) {
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) {
        lines.push(...decoder.decode(chunk).split('\n'));
        if (lines.length > 40) lines.splice(0, lines.length - 40);
      }
    })().catch(() => {});
  }
  return () => lines.join('\n');
}
