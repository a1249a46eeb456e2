import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startBenchStack } from '../bench-stack.ts';
import { type BlockClock, watchBlocks } from '../detection/measure.ts';
import { machine, markdownTable, summarize } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';
import { benchReceiver, runScenario } from './measure.ts';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '50' },
    'no-write': { type: 'boolean', default: false },
  },
});
const startLoad = loadavg()[0] ?? 0;
const PAYMENTS = Number(args.payments);
const CONFIRMATIONS = 2;
const { stack, database, logs, start, startApi, stop } = await startBenchStack('settlement', {
  CONFIRMATIONS: String(CONFIRMATIONS),
});
const receiver = benchReceiver();

const ms = (value: number) => `${Math.round(value)} ms`;

let clock: BlockClock | undefined;
try {
  start('worker', 'worker.ts');
  const apiUrl = await startApi('api');
  clock = await watchBlocks(stack.env.WS_URL);
  const target = {
    apiUrl,
    db: database.db,
    env: stack.env,
    clock,
    confirmations: CONFIRMATIONS,
    receiver,
  };
  await runScenario(target, 3); // warm-up: JIT, connection pools, first transfers to the treasury
  const samples = await runScenario(target, PAYMENTS);
  const rows = (
    [
      ['depth reached → forwarding transactions mined', 'forwardMined'],
      ['depth reached → `order.paid` webhook received', 'paidWebhook'],
      ['depth reached → `order.forwarded` webhook received', 'forwardedWebhook'],
    ] as const
  ).map(([label, key]) => {
    const s = summarize(samples.map((sample) => sample[key]));
    return [label, String(s.n), ms(s.p50), ms(s.p95), ms(s.max)];
  });
  const body = [
    '## Settlement: forwarding and webhooks (`bench/settlement`)',
    '',
    `Command: \`bun run bench:settlement\` (\`--payments ${PAYMENTS}\`).`,
    '',
    `Machine: ${await machine(startLoad)}.`,
    '',
    "Payments of 1.25 USDC to universal orders, one at a time, on the local chain at Base's pace",
    "(anvil `--block-time 0.2`) with Circle's USDC; the Ponder indexer (new heads over WebSocket),",
    'the API and the settlement worker (default settings, `CONFIRMATIONS=2`, gasless EIP-3009',
    'forwarding) each in its own process on one Postgres; the webhook receiver is a Bun server',
    'on 127.0.0.1 in the benchmark process.',
    '',
    markdownTable(['from → to', 'payments', 'p50', 'p95', 'max'], rows),
    '',
    'How to read it:',
    '',
    '- "Depth reached" is when the header of the block that gives the payment its second',
    '  confirmation reached a `newHeads` subscription; "mined" is when the header of the block',
    "  holding the round's last forwarding transaction did. Both legs (98% and 2%) are",
    '  submitted together by the relayer and usually land in the same block.',
    "- The path: the indexer's row for the depth block, the worker's next detection pass (every",
    '  100 ms) records `received` and wakes forwarding, which reads the balance, records the',
    '  legs, signs two EIP-3009 authorizations, records and broadcasts two relayer transactions;',
    '  then the next 200 ms block, the receipts (polled every 50 ms), and, once the round is',
    '  `CONFIRMATIONS` deep too (one more block at depth 2: a round is final only at depth),',
    '  the round recorded with its `order.forwarded` outbox row and the dispatcher woken to send it.',
    '- `order.paid` leaves from the outbox as soon as detection commits, before forwarding.',
    '- The 2 cores are shared by the chain, the indexer, Postgres, the API, the worker, the',
    '  client and whatever else runs on the machine, so tails move from run to run.',
  ].join('\n');
  console.log(`\n${body}\n`);
  if (!args['no-write']) await writeBenchmarkSection('settlement', body);
  const failures = logs.filter((line) => /failed|error/i.test(line));
  if (failures.length) console.warn(`log lines worth a look:\n${failures.join('\n')}`);
} finally {
  clock?.stop();
  receiver.stop();
  await stop();
}
