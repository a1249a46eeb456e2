// The Ponder indexer (`indexer/`) as a child process, and checks of its data against the chain.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { getIndexerStatus, isIndexerReady } from '@store/api/chain/indexer-status';
import { LOCAL_CHAIN_ID } from '@store/api/chain/networks';
import postgres from 'postgres';
import { createPublicClient, http } from 'viem';

/** Options of `startIndexer`. */
export type IndexerOptions = {
  databaseUrl: string;
  rpcUrl: string;
  /** WebSocket RPC: new blocks are seen by subscription (~20 ms) instead of polling. */
  wsUrl?: string;
  chainId: number;
  /** Required on the local chain; on Base the real USDC address is used when omitted. */
  usdcAddress?: string;
  startBlock: bigint | number;
  port: number;
  /**
   * Address Ponder's HTTP server listens on: loopback by default, as nothing outside this
   * machine needs it (the API reads /ready and /status).
   */
  hostname?: string;
  /**
   * Turns on SQL over HTTP (/sql/*) and GraphQL (/graphql), each requiring
   * `Authorization: Bearer <sqlToken>` (at least 32 characters). Off (404) when omitted.
   */
  sqlToken?: string;
  /**
   * The deposit account's extended public key: the indexer derives the deposit addresses from it
   * and keeps only the transfers of our business. Without it every transfer is kept.
   */
  paymentXpub?: string;
  /** Keep every USDC transfer of the chain (INDEXER_ALL_TRANSFERS), whatever `paymentXpub`. */
  allTransfers?: boolean;
  /** Postgres schema of the indexer's tables ("indexer" in the product). */
  schema: string;
  /** Milliseconds to wait for `/ready` (historical sync done); 60 s by default. */
  readyTimeoutMs?: number;
  /**
   * Also wait until the indexer has reached the chain's head block as of `/ready` (default true).
   * Note: `/ready` only means the backfill up to the finalized block (head - 30 on anvil) is
   * done; the blocks after it are then fetched one by one, as live blocks.
   */
  waitForHead?: boolean;
  /** Ponder's `--log-level` (info by default; `trace` shows every RPC request). */
  logLevel?: 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** Receives each line Ponder prints; by default the last lines are kept for errors only. */
  log?: (line: string) => void;
};

/** A running indexer. */
export type Indexer = {
  /** Base URL of its HTTP server: /ready, /status, /transfers/:to (/graphql, /sql/* with a token). */
  url: string;
  pid: number;
  /** Stops Ponder (SIGINT, so it unlocks its schema; SIGKILL to its group after 15 s). */
  stop(): Promise<void>;
};

/** Folder of the Ponder app. */
export const INDEXER_DIR = resolve(import.meta.dir, '../../indexer');

/** Path of Ponder's CLI script, found the way Node resolves `ponder` from the indexer folder. */
function ponderBin(): string {
  for (let dir = INDEXER_DIR; ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules/ponder/dist/esm/bin/ponder.js');
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) throw new Error(`ponder is not installed (from ${INDEXER_DIR})`);
  }
}

/** Shortest `sqlToken` the indexer accepts (indexer/src/api/index.ts). */
export const INDEXER_SQL_TOKEN_MIN_LENGTH = 32;

/** Variables of this process's environment Ponder may see (the rest is set from the options). */
const PASSED_ENV = [
  'PATH',
  'HOME',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'NODE_ENV',
  'POLLING_INTERVAL_MS',
  // Note: 'true' keeps Ponder's sync cache (indexer/ponder.config.ts).
  'INDEXER_SYNC_CACHE',
  // Note: 'true' keeps every USDC transfer; the gap is how many deposit addresses are derived
  // past the highest assigned (indexer/src/watch.ts).
  'INDEXER_ALL_TRANSFERS',
  'INDEXER_ADDRESS_GAP',
] as const;

/** Starts `ponder start` under Node and resolves once `GET /ready` answers 200. */
export async function startIndexer(options: IndexerOptions): Promise<Indexer> {
  const { port, schema, readyTimeoutMs = 60_000, waitForHead = true } = options;
  const hostname = options.hostname ?? '127.0.0.1';
  if (options.sqlToken !== undefined && options.sqlToken.length < INDEXER_SQL_TOKEN_MIN_LENGTH) {
    throw new Error(`sqlToken must be at least ${INDEXER_SQL_TOKEN_MIN_LENGTH} characters`);
  }
  // Note: only what Ponder needs. Not PORT (Ponder reads it before --port), and no key or
  // seed of the API or the worker: /sql and the indexing code run inside this process.
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    DATABASE_URL: options.databaseUrl,
    RPC_URL: rpcLanes(options.rpcUrl, options.chainId),
    WS_URL: options.wsUrl ?? '',
    CHAIN_ID: String(options.chainId),
    USDC_START_BLOCK: String(options.startBlock),
    PONDER_TELEMETRY_DISABLED: 'true',
  });
  if (options.usdcAddress) env.USDC_ADDRESS = options.usdcAddress;
  if (options.sqlToken !== undefined) env.INDEXER_SQL_TOKEN = options.sqlToken;
  if (options.paymentXpub) env.PAYMENT_XPUB = options.paymentXpub;
  if (options.allTransfers !== undefined) env.INDEXER_ALL_TRANSFERS = String(options.allTransfers);
  const args = [
    ponderBin(),
    ...(options.logLevel ? ['--log-level', options.logLevel] : []),
    'start',
    '--schema',
    schema,
    '--port',
    String(port),
    '--hostname',
    hostname,
  ];
  // Note: its own process group, so stop() reaches anything Ponder starts.
  const child = spawn('node', args, {
    cwd: INDEXER_DIR,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail = collectLines(child, options.log);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = `http://${urlHost(hostname)}:${port}`;
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start node for the indexer');

  // Note: if this process exits without stop(), Ponder still gets SIGINT.
  const onExit = () => signalGroup(pid, 'SIGINT');
  process.once('exit', onExit);

  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    // Note: SIGINT, not SIGTERM: Vite (inside Ponder 0.16) exits at once on SIGTERM, before
    // Ponder unlocks its schema, and the next start then waits ~30 s for the lock to expire.
    process.kill(pid, 'SIGINT');
    const done = await Promise.race([exited.then(() => true), Bun.sleep(15_000)]);
    if (!done) {
      signalGroup(pid, 'SIGKILL');
      await exited;
    }
  };

  const deadline = Date.now() + readyTimeoutMs;
  const failed = async (why: string) => {
    await stop();
    return new Error(`indexer ${why} (port ${port}, schema ${schema}):\n${tail()}`);
  };
  while (!(await isIndexerReady(url))) {
    if (child.exitCode !== null) throw await failed(`exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw await failed(`was not ready in ${readyTimeoutMs} ms`);
    await Bun.sleep(100);
  }
  if (waitForHead) {
    const head = await createPublicClient({ transport: http(options.rpcUrl) }).getBlockNumber();
    const left = Math.max(deadline - Date.now(), 10_000);
    if (!(await waitForIndexerBlock(url, head, left))) {
      throw await failed(`did not reach block ${head} in ${left} ms`);
    }
  }
  return { url, pid, stop };
}

/** Options of `superviseIndexer`. */
export type SupervisedIndexerOptions = IndexerOptions & {
  /** Blocks behind the chain's head beyond which a stalled indexer is restarted (default 50). */
  maxLagBlocks?: number;
  /** How long the indexer may make no progress while that far behind (default 20 s). */
  stallMs?: number;
  /** Milliseconds between two checks (default 2 s). */
  checkMs?: number;
};

/**
 * The indexer under a watchdog: when it falls more than `maxLagBlocks` behind the chain and makes
 * no progress for `stallMs`, it is restarted. Note: Ponder 0.16 can stay stuck for good after a
 * reorg replaced a head block it was still fetching ("unknown block", retried without end, then
 * "unrecoverable reorg"); a restart resumes from its finalized checkpoint and catches up.
 */
export async function superviseIndexer(
  options: SupervisedIndexerOptions,
): Promise<Indexer & { restarts(): number }> {
  const { maxLagBlocks = 50, stallMs = 20_000, checkMs = 2000 } = options;
  const log = options.log ?? (() => {});
  let current = await startIndexer(options);
  let restarts = 0;
  let stopped = false;
  let lastBlock = -1;
  let stalledSince = Date.now();
  let unanswered: number | undefined;
  const chain = createPublicClient({ transport: http(options.rpcUrl) });
  const check = async () => {
    const [status, head] = await Promise.all([
      getIndexerStatus(current.url).catch(() => ({ blockNumber: null })),
      // Note: viem keeps a block number for its polling interval (4 s) unless told not to.
      chain.getBlockNumber({ cacheTime: 0 }).catch(() => null),
    ]);
    if (head === null) return;
    // Note: a status that does not answer counts as no progress only when it lasts (a busy
    // indexer catching up may answer slowly; a restart would only set it back).
    if (status.blockNumber === null) {
      unanswered ??= Date.now();
      if (Date.now() - unanswered < stallMs * 3) return;
    } else unanswered = undefined;
    const at = status.blockNumber ?? -1;
    if (at > lastBlock) {
      lastBlock = at;
      stalledSince = Date.now();
      return;
    }
    const behind = Number(head) - at;
    if (behind <= maxLagBlocks || Date.now() - stalledSince < stallMs) return;
    log(
      `watchdog: no progress for ${Math.round((Date.now() - stalledSince) / 1000)} s at block ${at}, ${behind} behind the chain: restarting the indexer`,
    );
    await current.stop();
    if (stopped) return;
    current = await startIndexer({ ...options, waitForHead: false });
    restarts += 1;
    unanswered = undefined;
    lastBlock = -1;
    stalledSince = Date.now();
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(check).catch((error) => log(`watchdog: ${String(error)}`));
  }, checkMs);
  timer.unref?.();
  return {
    url: current.url,
    get pid() {
      return current.pid;
    },
    restarts: () => restarts,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await current.stop();
    },
  };
}

/** Waits until the indexer has indexed `blockNumber`; false on timeout. */
export async function waitForIndexerBlock(
  url: string,
  blockNumber: bigint | number,
  timeoutMs = 30_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { blockNumber: at } = await getIndexerStatus(url).catch(() => ({ blockNumber: null }));
    if (at !== null && at >= Number(blockNumber)) return true;
    await Bun.sleep(50);
  }
  return false;
}

/**
 * The local chain's RPC URL given to Ponder several times over (`?lane=N`).
 * Note: Ponder starts each RPC URL at 20 requests a second and raises the limit slowly. Catching
 * up after a start (about 2 requests a block) uses that up, and for a second or more afterwards
 * new blocks wait in its queue. Anvil has no limit, so the local chain gets four lanes.
 */
function rpcLanes(rpcUrl: string, chainId: number): string {
  if (chainId !== LOCAL_CHAIN_ID) return rpcUrl;
  return [1, 2, 3, 4]
    .map((lane) => `${rpcUrl}${rpcUrl.includes('?') ? '&' : '?'}lane=${lane}`)
    .join(',');
}

/** The host part of a URL reaching a server that listens on `hostname`. */
function urlHost(hostname: string): string {
  if (hostname === '0.0.0.0' || hostname === '::' || hostname === '') return '127.0.0.1';
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function collectLines(child: ChildProcess, log?: (line: string) => void): () => string {
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      log?.(line);
      lines.push(line);
    }
    if (lines.length > 60) lines.splice(0, lines.length - 60);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return () => lines.join('\n');
}

/**
 * Drops the indexer's schema and Ponder's sync cache (`ponder_sync`) for `chainId`. Needed when
 * the chain behind them is not the one they were built from (a fresh local chain).
 */
export async function resetIndexerData(options: {
  databaseUrl: string;
  schema: string;
  chainId: number;
}): Promise<void> {
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      await tx`drop schema if exists ${tx(options.schema)} cascade`;
      const tables = await tx<{ table_name: string }[]>`
        select table_name from information_schema.columns
        where table_schema = 'ponder_sync' and column_name = 'chain_id'`;
      for (const { table_name } of tables) {
        await tx`delete from ponder_sync.${tx(table_name)} where chain_id = ${options.chainId}`;
      }
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * False when the indexer's data cannot have come from this chain: its finalized checkpoint, or
 * Ponder's latest cached (finalized) block for `chainId`, is missing from the chain or differs.
 * Note: unfinalized blocks that the chain lost (anvil killed between two state dumps) are a
 * reorg to Ponder, which reverts and re-indexes them itself, so they do not count.
 */
export async function indexerDataMatchesChain(options: {
  databaseUrl: string;
  schema: string;
  chainId: number;
  rpcUrl: string;
}): Promise<boolean> {
  const client = createPublicClient({ transport: http(options.rpcUrl) });
  const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
  const blockAt = (number: bigint) =>
    client.getBlock({ blockNumber: number }).catch(() => undefined);
  // Note: checked first so that a first start does not log "relation does not exist" errors.
  const exists = async (table: string) =>
    (await sql<{ found: boolean }[]>`select to_regclass(${table}) is not null as found`)[0]?.found;
  try {
    const checkpointTable = `"${options.schema}"._ponder_checkpoint`;
    const [checkpoint] = !(await exists(checkpointTable))
      ? []
      : await sql<{ finalized: string }[]>`
      select finalized_checkpoint as finalized from ${sql(options.schema)}._ponder_checkpoint
      where chain_id = ${options.chainId}`;
    if (checkpoint) {
      // Checkpoint layout: 10 digits of block timestamp, 16 of chain id, 16 of block number, ...
      const timestamp = BigInt(checkpoint.finalized.slice(0, 10));
      const block = await blockAt(BigInt(checkpoint.finalized.slice(26, 42)));
      if (!block || block.timestamp !== timestamp) return false;
    }
    const [cached] = !(await exists('ponder_sync.blocks'))
      ? []
      : await sql<{ number: string; hash: string }[]>`
      select number::text, hash from ponder_sync.blocks where chain_id = ${options.chainId}
      order by number desc limit 1`;
    if (cached) {
      const block = await blockAt(BigInt(cached.number));
      if (!block || block.hash !== cached.hash) return false;
    }
    return true;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
