import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { runDetectionPass } from '../../api/src/settlement/detection.ts';
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
  },
});
const startLoad = loadavg()[0] ?? 0;
const PAYMENTS = Number(args.payments);
const OPEN = Number(args.open);
const { stack, database, logs, start, startApi, stop } = await startBenchStack('detection');

/** Inserts `count` pending universal orders with waiting wallets (placeholder addresses). */
async function addOpenWallets(count: number) {
  await database.db.execute(sql`
    with o as (
      insert into orders (store_id, customer_email, items, total_usdc, status)
      select 'universal', 'open@example.com', '[]'::jsonb, '10.00', 'pending'
      from generate_series(1, ${count}) returning id)
    insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
      expected_amount_usdc, store_payment_address, expired_at, payment_chain, is_universal)
    select id, '0x' || substr(md5(random()::text) || md5(random()::text), 1, 40),
      'bench placeholder', nextval('payment_derivation_index_seq'), '10.00',
      '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', now() + interval '7 days', 'base', true
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

let clock: BlockClock | undefined;
try {
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
} finally {
  clock?.stop();
  await stop();
}
