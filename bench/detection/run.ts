import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { readIndexerPosition } from '@store/api/chain/indexer';
import { runDetectionPass } from '@store/api/payments/detection';
import { prepareSenders, SENDERS, startBackground } from '@store/stack/background-traffic';
import { sql } from 'drizzle-orm';
import { createPublicClient, http, parseAbiItem } from 'viem';
import { startBenchStack } from '../bench-stack.ts';
import { writeBenchmarkSection } from '../docs-section.ts';
import { type BlockClock, runScenario, watchBlocks } from './measure.ts';
import { machine, markdownTable, type ResultRow, summarize, table } from './report.ts';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '50' },
    open: { type: 'string', default: '10000' },
    'no-write': { type: 'boolean', default: false },
    samples: { type: 'boolean', default: false },
    /** Background load levels, in USDC transfers a block (e.g. `0,10,100,250`): issue 20. */
    background: { type: 'string' },
    /** Every USDC transfer kept (INDEXER_ALL_TRANSFERS=true), as before the indexer filtered. */
    'all-transfers': { type: 'boolean', default: false },
  },
});
const ALL_TRANSFERS = args['all-transfers'] ?? false;
// Note: read by the stack when it starts the indexer.
if (ALL_TRANSFERS) process.env.INDEXER_ALL_TRANSFERS = 'true';
const startLoad = loadavg()[0] ?? 0;
const PAYMENTS = Number(args.payments);
const OPEN = Number(args.open);
const { stack, database, logs, start, startApi, stop } = await startBenchStack('detection');

/** Inserts `count` pending universal orders with waiting wallets (placeholder addresses). */
async function addOpenWallets(count: number) {
  await database.db.execute(sql`
    with o as (
      insert into orders (store_id, source, payee_address, customer_email, items, total_usdc, status)
      select null, 'unsigned_link', '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
        'open@example.com', '[]'::jsonb, '10.00', 'pending'
      from generate_series(1, ${count}) returning id)
    insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
      expected_amount_usdc, store_payment_address, expired_at, payment_chain)
    select id, '0x' || substr(md5(random()::text) || md5(random()::text), 1, 40),
      'bench placeholder', nextval('payment_derivation_index_seq'), '10.00',
      '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', now() + interval '7 days', 'base'
    from o`);
}

/** Duration of the worker's full pass and the p50 of its incremental passes, in ms. */
async function passTimes() {
  const settings = { chainId: Number(stack.env.CHAIN_ID), confirmations: 2 };
  let started = performance.now();
  const first = await runDetectionPass(database.db, settings, { lastTransferId: null }, new Date());
  const full = performance.now() - started;
  const incremental: number[] = [];
  for (let i = 0; i < 20; i++) {
    started = performance.now();
    await runDetectionPass(database.db, settings, first.cursor, new Date());
    incremental.push(performance.now() - started);
  }
  return { full, incremental: summarize(incremental).p50, wallets: first.candidates };
}

const rows: ResultRow[] = [];
const passes: string[][] = [];
const scenario = async (label: string, apiUrl: string, clock: BlockClock) => {
  const samples = await runScenario({ apiUrl, env: stack.env, clock }, PAYMENTS);
  const row = {
    scenario: label,
    detect: summarize(samples.map((s) => s.detectMs)),
    afterReceipt: summarize(samples.map((s) => s.afterReceiptMs)),
  };
  rows.push(row);
  if (args.samples) console.log(samples.map((s) => Math.round(s.detectMs)).join(' '));
  console.log(table([row]).split('\n').at(-1));
};
const recordPasses = async (label: string) => {
  const t = await passTimes();
  passes.push([
    label,
    t.wallets.toLocaleString('en-US'),
    `${t.full.toFixed(1)} ms`,
    `${t.incremental.toFixed(1)} ms`,
  ]);
};

/** The database's size, its WAL position and the size of each schema, in bytes. */
async function storage() {
  const [row] = await database.db.execute<{ db: string; wal: string }>(sql`
    select pg_database_size(current_database())::text as db,
      pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as wal`);
  const schemas = await database.db.execute<{ schema: string; bytes: string }>(sql`
    select n.nspname as schema, sum(pg_total_relation_size(c.oid))::text as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'm') group by 1
    union all
    select c.relname, pg_total_relation_size(c.oid)::text
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'indexer' and c.relname in ('transfer', '_reorg__transfer')`);
  const senders = SENDERS.map((a) => a.toLowerCase());
  const [count] = await database.db.execute<{ n: string }>(
    sql`select count(*)::text as n from indexer.transfer where "from" in ${sql.raw(`('${senders.join("','")}')`)}`,
  );
  return {
    db: Number(row?.db),
    wal: Number(row?.wal),
    block: await blockNumber(),
    transfers: Number(count?.n),
    schemas: new Map(schemas.map((s) => [s.schema, Number(s.bytes)])),
  };
}

/** Samples the chain head minus the indexer's head every 200 ms until stopped. */
function watchLag() {
  const chainId = Number(stack.env.CHAIN_ID);
  const lags: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const [head, position] = await Promise.all([
        fetch(stack.env.RPC_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        }).then(async (r) => BigInt(((await r.json()) as { result: string }).result)),
        readIndexerPosition(database.db, chainId),
      ]);
      if (position.headBlock !== null) lags.push(Number(head - position.headBlock));
      await Bun.sleep(200);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return summarize(lags);
    },
  };
}

/** Waits until the indexer has the chain's head (after the load stops). */
async function caughtUp() {
  for (let i = 0; i < 600; i++) {
    const lag = watchLag();
    await Bun.sleep(250);
    if ((await lag.stop()).max <= 1) return;
  }
}

/** Detection, indexer lag and storage per background transfer at each load level. */
async function backgroundRun(levels: number[]) {
  start('worker', 'worker.ts');
  const api = await startApi('api');
  const blocks = await watchBlocks(stack.env.WS_URL);
  clock = blocks;
  await prepareSenders(stack.env);
  const table: string[][] = [];
  const breakdown: string[][] = [];
  for (const [level, perBlock] of levels.entries()) {
    const load = startBackground(stack.env, perBlock, level);
    await Bun.sleep(2000);
    const before = await storage();
    const chainFrom = await blockNumber();
    const lag = watchLag();
    const loadAvg = loadavg()[0] ?? 0;
    const samples = await runScenario({ apiUrl: api, env: stack.env, clock: blocks }, PAYMENTS);
    const lagged = await lag.stop();
    const sentCount = await load.stop();
    const chainTo = await blockNumber();
    await caughtUp();
    const after = await storage();
    // Note: per background transfer mined on the chain, whether the indexer kept it or not.
    const background = await minedFrom(SENDERS, before.block + 1n, after.block);
    const kept = after.transfers - before.transfers;
    const blockCount = Math.max(1, Number(after.block - before.block));
    const perBlockMined = background / blockCount;
    const detect = summarize(samples.map((s) => s.detectMs));
    const per = (bytes: number) => (background > 0 ? `${Math.round(bytes / background)} B` : '–');
    table.push([
      String(perBlock),
      perBlockMined.toFixed(1),
      (kept / blockCount).toFixed(1),
      String(detect.n),
      `${Math.round(detect.p50)} ms`,
      `${Math.round(detect.p95)} ms`,
      `${Math.round(detect.max)} ms`,
      `${lagged.p95} / ${lagged.max}`,
      per(after.db - before.db),
      per(after.wal - before.wal),
      loadAvg.toFixed(2),
    ]);
    const schemaDelta = (name: string) =>
      per((after.schemas.get(name) ?? 0) - (before.schemas.get(name) ?? 0));
    breakdown.push([
      String(perBlock),
      background.toLocaleString('en-US'),
      kept.toLocaleString('en-US'),
      schemaDelta('indexer'),
      schemaDelta('transfer'),
      schemaDelta('_reorg__transfer'),
      schemaDelta('ponder_sync'),
      schemaDelta('public'),
    ]);
    console.log(table.at(-1)?.join(' | '), `(sent ${sentCount}, blocks ${chainFrom}-${chainTo})`);
    console.log(breakdown.at(-1)?.join(' | '));
  }
  return { table, breakdown };
}

/** USDC transfers from `senders` mined in blocks `from` to `to`. */
async function minedFrom(senders: readonly string[], from: bigint, to: bigint) {
  const client = createPublicClient({ transport: http(stack.env.RPC_URL) });
  const event = parseAbiItem(
    'event Transfer(address indexed from, address indexed to, uint256 value)',
  );
  let count = 0;
  for (let start = from; start <= to; start += 500n) {
    const end = start + 499n < to ? start + 499n : to;
    const logs = await client.getLogs({
      address: stack.env.USDC_ADDRESS as `0x${string}`,
      event,
      args: { from: senders as `0x${string}`[] },
      fromBlock: start,
      toBlock: end,
    });
    count += logs.length;
  }
  return count;
}

async function blockNumber() {
  const client = createPublicClient({ transport: http(stack.env.RPC_URL) });
  return client.getBlockNumber();
}

let clock: BlockClock | undefined;
try {
  if (args.background !== undefined) {
    const levels = args.background.split(',').map(Number);
    const { table: results, breakdown } = await backgroundRun(levels);
    const body = [
      '## Detection under background load (`bench/detection --background`)',
      '',
      `Command: \`bun run bench:detection --background ${levels.join(',')} --payments ${PAYMENTS}${ALL_TRANSFERS ? ' --all-transfers' : ''}\`.`,
      '',
      ALL_TRANSFERS
        ? 'Indexer: every USDC transfer kept (`INDEXER_ALL_TRANSFERS=true`).'
        : 'Indexer: only our transfers kept (the default: the migrations create the watch feed); the background transfers touch none of our addresses.',
      '',
      `Machine: ${await machine(startLoad)}.`,
      '',
      'Other USDC traffic in every block, as on Base: at each level the benchmark sends that many',
      'transfers of 0.01 USDC every 200 ms to fresh random addresses, from 16 accounts (fresh',
      'ones at each level) the payments never use (impersonated on anvil, one JSON-RPC batch a',
      'block, so the sender costs no signing), and meanwhile pays orders one at a time as',
      '`bench:detection` does (1.25 USDC at a random phase of the block). Same stack: anvil',
      "`--block-time 0.2` with Circle's USDC,",
      'Ponder, the API and the worker in their own processes on one embedded Postgres.',
      '',
      markdownTable(
        [
          'transfers a block (sent)',
          'mined a block',
          'kept a block',
          'payments',
          'detected p50',
          'p95',
          'max',
          'indexer lag p95 / max (blocks)',
          'database bytes / transfer',
          'WAL bytes / transfer',
          'load avg',
        ],
        results,
      ),
      '',
      'Where the bytes kept go (growth of each schema per background transfer, tables and indexes):',
      '',
      markdownTable(
        [
          'transfers a block',
          'background transfers mined',
          'kept',
          '`indexer` (all)',
          'of it `transfer`',
          '`_reorg__transfer`',
          '`ponder_sync`',
          '`public`',
        ],
        breakdown,
      ),
      '',
      '- "Detected" is from the block header on a `newHeads` subscription to the status API',
      '  answering `paymentDetected: true` (client polling every 10 ms).',
      "- Indexer lag: chain head minus the indexer's checkpoint, sampled every 200 ms while the",
      '  payments ran.',
      '- Bytes: `pg_database_size` and the WAL position before and after the level (the indexer',
      '  caught up), divided by the background transfers mined on the chain in between (whether',
      '  the indexer kept them or not: "kept a block" is what it stored). The WAL counts every',
      "  write, including Ponder's reorg table and its sync cache.",
      '- "load avg" is the 1-minute load average when the level started; the 2 cores are',
      '  shared by the chain, the sender, Ponder, Postgres, the API, the worker and the client.',
    ].join('\n');
    console.log(`\n${body}\n`);
    if (!args['no-write']) await writeBenchmarkSection('detection-background', body);
  } else {
    start('worker', 'worker.ts');
    const live = await startApi('api');
    const workerOnly = await startApi('api-worker-only', { STATUS_READS_INDEXER: 'false' });
    const blocks = await watchBlocks(stack.env.WS_URL);
    clock = blocks;
    const open = OPEN.toLocaleString('en-US');
    await scenario('no other open addresses; status reads the indexer', live, blocks);
    await recordPasses('no other open addresses');
    await addOpenWallets(OPEN);
    await Bun.sleep(1000);
    await scenario(`${open} other open addresses; status reads the indexer`, live, blocks);
    await scenario(`${open} other open addresses; status from the worker only`, workerOnly, blocks);
    await recordPasses(`${open} other open addresses`);
    const body = [
      '## Payment detection (`bench/detection`)',
      '',
      `Command: \`bun run bench:detection\` (\`--payments ${PAYMENTS} --open ${OPEN}\`).`,
      '',
      `Machine: ${await machine(startLoad)}.`,
      '',
      "Time from a payment's block being mined to `GET /api/check-payment-status` answering",
      '`paymentDetected: true`, over payments of 1.25 USDC sent one at a time at a random phase',
      "of the block. Local chain at Base's pace (anvil `--block-time 0.2`) with Circle's USDC, the",
      'Ponder indexer (new heads over WebSocket), the API and the settlement worker (default',
      'settings: a pass every 100 ms) each in its own process on one Postgres.',
      '',
      table(rows),
      '',
      "One pass of the worker's detection loop, timed in the benchmark process with no payment",
      'pending: the full reconciliation (at start and every 60 s) and the incremental pass.',
      '',
      markdownTable(['database', 'unpaid wallets', 'full pass', 'incremental pass p50'], passes),
      '',
      'How to read it:',
      '',
      '- "Mined" is when the block header reached a `newHeads` subscription, the earliest moment',
      '  anyone can know of the block; the shopper-side client polls every 10 ms, which is in the',
      '  figures. "Receipt → detected" starts instead when the payer saw its receipt.',
      "- By default the status API runs the shared state machine on the indexer's rows itself, so",
      "  detection costs the indexer's latency plus one status request; with",
      "  `STATUS_READS_INDEXER=false` it reports the worker's last pass, which adds half a pass",
      '  interval on average.',
      '- Other open addresses do not slow detection: an incremental pass reads only the transfers',
      "  after its cursor (the indexer's primary key) and the wallets they touch, plus the few",
      '  below depth or just expired, all through indexes. Only the full reconciliation grows',
      '  with the number of unpaid wallets.',
      '- The 2 cores are shared by the chain, the indexer, Postgres, the API, the worker, the',
      '  client and whatever else runs on the machine, so tails move from run to run.',
    ].join('\n');
    console.log(`\n${body}\n`);
    if (!args['no-write']) await writeBenchmarkSection('detection', body);
    const failures = logs.filter((line) => /failed|error/i.test(line));
    if (failures.length) console.warn(`log lines worth a look:\n${failures.join('\n')}`);
  }
} finally {
  // Note: also when a level fails (a payment not detected), to see what the indexer did.
  if (process.env.BENCH_LOGS) await Bun.write(process.env.BENCH_LOGS, logs.join('\n'));
  clock?.stop();
  await stop();
}
