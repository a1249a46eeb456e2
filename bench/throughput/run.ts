// Throughput of settlement (issue 30): universal orders paid at a steady R a second for 60 s, each
// level on a fresh stack (the product's own processes at Base's pace, background USDC traffic in
// every block); reports how fast forwarding keeps up, read from the chain. Writes its section of
// docs/benchmarks.md.
//   bun run bench:throughput [--rates 10,25,50,100] [--seconds 60] [--warmup 10] [--background 20]
//     [--no-write]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { machine, markdownTable } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';
import { type LevelResult, runLevel } from './measure.ts';

const { values: args } = parseArgs({
  options: {
    rates: { type: 'string', default: '10,25,50,100' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    background: { type: 'string', default: '20' },
    drain: { type: 'string', default: '90' },
    'worker-env': { type: 'string', default: '' },
    workers: { type: 'string', default: '1' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RATES = args.rates.split(',').map(Number);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const BACKGROUND = Number(args.background);
const CONFIRMATIONS = 2;
const startLoad = loadavg()[0] ?? 0;

const results: LevelResult[] = [];
for (const rate of RATES) {
  const result = await runLevel({
    rate,
    seconds: SECONDS,
    warmupSeconds: WARMUP,
    background: BACKGROUND,
    confirmations: CONFIRMATIONS,
    drainSeconds: Number(args.drain),
    workers: Number(args.workers),
    workerEnv: Object.fromEntries(
      args['worker-env']
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=') as [string, string]),
    ),
  });
  console.log(JSON.stringify(result, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
  results.push(result);
}

const ms = (value: number) => (Number.isFinite(value) ? `${(value / 1000).toFixed(2)} s` : '–');
const rows = results.map((r) => [
  `${r.rate}/s × ${r.seconds} s`,
  `${r.arrivedRate.toFixed(1)}/s`,
  `${r.forwardedRate.toFixed(1)}/s`,
  `${r.forwarded} / ${r.arrived}`,
  ms(r.depthToForwarded.p50),
  ms(r.depthToForwarded.p95),
  ms(r.depthToForwarded.max),
  ms(r.drainMs),
  (r.relayerTxs / Math.max(1, r.forwarded)).toFixed(2),
  String(r.forwardingGas / BigInt(Math.max(1, r.forwarded))),
  `${r.webhooksPerSecond.toFixed(1)}/s`,
  `${r.loadAtStart.toFixed(1)} → ${r.loadAtEnd.toFixed(1)}`,
]);
const table = markdownTable(
  [
    'payments',
    'arrived',
    'forwarded',
    'forwarded / arrived',
    'depth → forwarded p50',
    'p95',
    'max',
    'last forwarded after last arrival',
    'relayer txs / payment',
    'gas / payment',
    'webhooks',
    'load avg',
  ],
  rows,
);
const cold = results.flatMap((r) =>
  r.coldStart
    ? [
        `- ${r.rate}/s: the ${r.coldStart.payments} payments of the worker's first ${WARMUP} s: ` +
          `depth → forwarded p50 ${ms(r.coldStart.depthToForwarded.p50)}, p95 ` +
          `${ms(r.coldStart.depthToForwarded.p95)}, max ${ms(r.coldStart.depthToForwarded.max)}.`,
      ]
    : [],
);
const checks = results.map(
  (r) =>
    `- ${r.rate}/s: ${r.unforwarded} not forwarded when the run ended, ${r.extraTransfers} ` +
    `deposit addresses with more than two transfers out, ${r.authorizationsUsedTwice.length} ` +
    `authorizations used twice, ${r.breaches.length} ledger breaches (chain vs database).`,
);
const body = [
  '## Throughput: forwarding at a steady rate (`bench/throughput`)',
  '',
  `Command: \`bun run bench:throughput --rates ${args.rates} --seconds ${SECONDS} --warmup ${WARMUP} --background ${BACKGROUND}\`.`,
  '',
  `Machine: ${await machine(startLoad)}.`,
  '',
  'Universal orders of 1.25 USDC, each with its own payout address, paid at a steady rate (a',
  'batch every 50 ms) from 48 funded accounts, with ' +
    `${BACKGROUND} other USDC transfers in every block; each level on a`,
  "fresh stack started as the product starts (`stack/`): anvil at Base's pace (`--block-time",
  "0.2`) with Circle's USDC, the Ponder indexer, the API and the worker each in its own process",
  `on one Postgres, \`CONFIRMATIONS=${CONFIRMATIONS}\`. Webhooks go to a receiver in the benchmark process.`,
  '',
  table,
  '',
  'How to read it:',
  '',
  '- Everything about forwarding is read from the chain: a payment is forwarded at the block',
  '  where 98% of it reached its payout address; "depth → forwarded" runs from the header of the',
  '  block that gave the payment its depth to the header of that block (both as a `newHeads`',
  '  subscription saw them).',
  '- "arrived" and "forwarded" are rates over the steady part of the run: from 5 s after the',
  '  first payment was mined to the last one; "forwarded / arrived" counts every payment at the',
  `  end (the backlog is given up to ${args.drain} s after the last payment to drain).`,
  '- Relayer transactions are the relayer nonces used during the run; gas is what the',
  '  transactions that moved USDC out of the deposit addresses used, per forwarded payment.',
  '- Webhooks: deliveries received per second (`order.paid` and `order.forwarded`).',
  `- Each level's stream starts ${WARMUP} s earlier, at the same rate and without a pause: the`,
  '  worker starts with the level, so those are its first seconds (its connections to Postgres',
  '  opened, its statements prepared, its code compiled as it runs). They are left out of every',
  '  figure above (CPU and relayer transactions are counted from the first measured payment) and',
  "  reported here as the worker's cold start:",
  '',
  ...cold,
  '',
  ...checks,
].join('\n');
console.log(`\n${body}\n`);
if (!args['no-write']) await writeBenchmarkSection('throughput', body);
