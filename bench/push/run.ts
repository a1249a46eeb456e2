// Push benchmark (issue 11): how soon the shopper's payment page says "Payment detected" after the
// payment's block is mined, at Base's pace. The real stack of the e2e tests (web/e2e/support/
// start-stack.ts: anvil with 0.2 s blocks and Circle's USDC, the indexer, the worker, the API
// serving the built app) on ports of its own, other USDC transfers in every block, and the real
// page in Chromium. For each payment: the block header's arrival on a newHeads subscription (the
// earliest anyone can know of the block), the pushed event at a plain SSE client in this process,
// and the text on the page (a MutationObserver in the page). Run from the repo root:
// `bun run bench:push` (`--payments 50`). Writes its section of docs/benchmarks.md.
import { spawn } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '@store/stack/ports';
import type { StackInfo } from '@store/stack/stack-info';
import { localAccount } from '@store/stack/usdc';
import { chromium, type Page } from 'playwright-core';
import postgres from 'postgres';
import { type Address, createPublicClient, createWalletClient, http, parseAbi } from 'viem';
import { foundry } from 'viem/chains';
import { watchBlocks } from '../detection/measure.ts';
import { machine, markdownTable, type Summary, summarize } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';
import { createBenchOrder } from '../universal-order.ts';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '50' },
    'no-write': { type: 'boolean', default: false },
  },
});
const PAYMENTS = Number(args.payments);
const TARGET_P95_MS = 300;
const root = resolve(import.meta.dir, '../..');
const startLoad = loadavg()[0] ?? 0;
const erc20 = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);

/** Starts the e2e stack on free ports; resolves with what it wrote once it says it is ready. */
async function startStack() {
  const stackFile = join(tmpdir(), `bench-push-stack-${process.pid}.json`);
  const postgresPort = await freePort();
  const ports = {
    E2E_POSTGRES_PORT: String(postgresPort),
    E2E_ANVIL_PORT: String(await freePort()),
    E2E_INDEXER_PORT: String(await freePort()),
    E2E_API_PORT: String(await freePort()),
    E2E_PORT: String(await freePort()),
    E2E_STACK_FILE: stackFile,
  };
  const child = spawn(process.execPath, [join(root, 'web/e2e/support/start-stack.ts')], {
    cwd: join(root, 'web'),
    env: { ...process.env, ...ports },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  await new Promise<void>((ready, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (chunk.includes('stack ready')) ready();
    });
    child.once('exit', (code) => reject(new Error(`stack exited (${code}) before it was ready`)));
  });
  const info = JSON.parse(await Bun.file(stackFile).text()) as StackInfo;
  // Note: the embedded server's owner (stack/src/postgres.ts), to watch the steps in between.
  const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${postgresPort}/postgres`;
  return { info, databaseUrl, stop };
}

/**
 * Other USDC transfers in every block: two accounts each send 0.01 USDC to a fresh address every
 * 100 ms (about four per 200 ms block), without waiting for receipts. Resolves with a stop function
 * that returns how many were sent.
 */
function backgroundTransfers(info: StackInfo) {
  const transport = http(info.rpcUrl);
  const chain = { ...foundry, id: info.chainId };
  const client = createPublicClient({ chain, transport });
  let stopped = false;
  let sent = 0;
  const senders = [2, 3].map(async (index) => {
    const account = localAccount(index);
    const wallet = createWalletClient({ account, chain, transport });
    let nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    while (!stopped) {
      const to = `0x${crypto.randomUUID().replaceAll('-', '').padEnd(40, '0')}` as Address;
      await wallet
        .writeContract({
          address: info.usdc,
          abi: erc20,
          functionName: 'transfer',
          args: [to, 10_000n],
          nonce: nonce++,
          gas: 100_000n,
        })
        .then(() => {
          sent += 1;
        });
      await Bun.sleep(100);
    }
  });
  return async () => {
    stopped = true;
    await Promise.all(senders);
    return sent;
  };
}

/**
 * Records in the page each text of the progress card with when it appeared (epoch ms).
 * Note: a string, as this file is type-checked without the DOM's types.
 */
const OBSERVER = `
  window.progressSeen = [];
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid="payment-progress"]')?.textContent;
    const seen = window.progressSeen;
    if (text && seen.at(-1)?.text !== text)
      seen.push({ text, at: performance.timeOrigin + performance.now() });
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

/** Opens the order's stream in this process; resolves with when "detected" arrived (epoch ms). */
async function streamDetection(apiUrl: string, orderId: string): Promise<() => Promise<number>> {
  const response = await fetch(`${apiUrl}/api/orders/${orderId}/payment-events`);
  if (!response.ok || !response.body) throw new Error(`stream: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const detected = (async () => {
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream of ${orderId} ended before detection`);
      text += decoder.decode(value, { stream: true });
      if (text.includes('"paymentDetected":true')) {
        const at = performance.timeOrigin + performance.now();
        await reader.cancel();
        return at;
      }
    }
  })();
  return () => detected;
}

/** One measured payment, in ms after the block header arrived. */
interface Sample {
  /** The transfer's row in the indexer's table. */
  indexed: number;
  /** The worker's notification that it recorded the payment. */
  recorded: number;
  stream: number;
  page: number;
  firstText: string;
}

/** The steps between the block and the page, watched from this process (epoch ms). */
function stepWatcher(sql: postgres.Sql) {
  const recorded = new Map<string, number>();
  /** Transactions waited for, and what to call with the time their block was committed. */
  const waiting = new Map<string, (at: number) => void>();
  /**
   * The indexer's own notification of each block it commits (the channel the worker wakes on):
   * the first one after which the transfer's row is there is when it was indexed.
   * Note: no polling, which would load the 2 cores it measures.
   */
  const onIndexed = async () => {
    const at = performance.timeOrigin + performance.now();
    if (waiting.size === 0) return;
    const rows = await sql<{ tx_hash: string }[]>`
      select tx_hash from indexer.transfer where tx_hash in ${sql([...waiting.keys()])}`;
    for (const { tx_hash } of rows) {
      waiting.get(tx_hash)?.(at);
      waiting.delete(tx_hash);
    }
  };
  const listening = Promise.all([
    sql.listen('payment_changes', (orderId) => {
      if (!recorded.has(orderId)) recorded.set(orderId, performance.timeOrigin + performance.now());
    }),
    sql.listen('indexer_live_query', (tables) => {
      if (tables.includes('transfer')) void onIndexed();
    }),
  ]);
  /** When the block holding the transaction's transfer was committed by the indexer. */
  const indexedAt = (hash: string) => {
    const indexed = new Promise<number>((resolve) => waiting.set(hash.toLowerCase(), resolve));
    // Note: should the block be committed before the wait began (not seen so far), now it is.
    void onIndexed();
    return indexed;
  };
  return { listening, recordedAt: (orderId: string) => recorded.get(orderId), indexedAt };
}

async function measure(
  page: Page,
  info: StackInfo,
  clock: Awaited<ReturnType<typeof watchBlocks>>,
  steps: ReturnType<typeof stepWatcher>,
) {
  const { orderId, address } = await createBenchOrder(info.apiUrl, {
    storePaymentAddress: info.store.paymentAddress as Address,
  });
  const channel = page.waitForResponse((r) => r.url().includes('/payment-events'));
  await page.goto(`${info.webUrl}/universal-payment/${orderId}`);
  await page.getByTestId('payment-address').waitFor();
  if ((await channel).status() !== 200) throw new Error('the page got no push channel');
  const streamed = await streamDetection(info.apiUrl, orderId);
  // Note: a random offset, so that payments land at every phase of the 200 ms block.
  await Bun.sleep(Math.random() * 200);
  const wallet = createWalletClient({
    account: localAccount(1),
    chain: { ...foundry, id: info.chainId },
    transport: http(info.rpcUrl),
  });
  const hash = await wallet.writeContract({
    address: info.usdc,
    abi: erc20,
    functionName: 'transfer',
    args: [address, 1_250_000n],
    gas: 100_000n,
  });
  const indexed = steps.indexedAt(hash);
  const receipt = await createPublicClient({
    transport: http(info.rpcUrl),
  }).waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const paid = { blockNumber: receipt.blockNumber, minedAt: performance.now() };
  const streamAt = await streamed();
  // Note: functions, not strings: the page's CSP forbids eval; globalThis needs no DOM types.
  type Seen = { progressSeen: { text: string; at: number }[] };
  await page.waitForFunction(
    () => (globalThis as unknown as Seen).progressSeen.length > 0,
    undefined,
    { timeout: 30_000, polling: 50 },
  );
  const [first] = await page.evaluate(() => (globalThis as unknown as Seen).progressSeen);
  const arrived = clock.arrivedAt(paid.blockNumber);
  const mined = performance.timeOrigin + (arrived ?? paid.minedAt);
  const recordedAt = steps.recordedAt(orderId) ?? Number.NaN;
  return {
    indexed: (await indexed) - mined,
    recorded: recordedAt - mined,
    stream: streamAt - mined,
    page: (first?.at ?? Number.NaN) - mined,
    firstText: first?.text ?? '',
  } satisfies Sample;
}

const ms = (value: number) => `${Math.round(value)} ms`;
const row = (label: string, s: Summary) => [label, String(s.n), ms(s.p50), ms(s.p95), ms(s.max)];

const { info, databaseUrl, stop } = await startStack();
const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
let stopTraffic: (() => Promise<number>) | undefined;
let clock: Awaited<ReturnType<typeof watchBlocks>> | undefined;
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript({ content: OBSERVER });
  const page = await context.newPage();
  const steps = stepWatcher(sql);
  await steps.listening;
  clock = await watchBlocks(info.rpcUrl.replace(/^http/, 'ws'));
  const chain = createPublicClient({ transport: http(info.rpcUrl) });
  const fromBlock = await chain.getBlockNumber();
  stopTraffic = backgroundTransfers(info);
  await Bun.sleep(1000);
  const samples: Sample[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const sample = await measure(page, info, clock, steps);
    samples.push(sample);
    console.log(
      `payment ${i + 1}/${PAYMENTS}: indexed ${ms(sample.indexed)}, recorded ${ms(sample.recorded)}, ` +
        `stream ${ms(sample.stream)}, page ${ms(sample.page)} (${sample.firstText})`,
    );
  }
  const background = await stopTraffic();
  stopTraffic = undefined;
  const toBlock = await chain.getBlockNumber();
  const blocks = Number(toBlock - fromBlock);
  const logs = await chain.getLogs({
    address: info.usdc,
    event: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)'])[0],
    fromBlock,
    toBlock,
  });
  const perBlock = new Map<bigint, number>();
  for (const log of logs) perBlock.set(log.blockNumber, (perBlock.get(log.blockNumber) ?? 0) + 1);
  const busy = [...perBlock.values()].filter((n) => n >= 2).length;

  const page95 = summarize(samples.map((s) => s.page));
  const endLoad = loadavg()[0] ?? 0;
  const stepRow = (label: string, of: (sample: Sample) => number) => {
    const summary = summarize(samples.map(of));
    return [label, ms(summary.p50), ms(summary.p95)];
  };
  const firstTexts = new Map<string, number>();
  for (const { firstText } of samples)
    firstTexts.set(firstText, (firstTexts.get(firstText) ?? 0) + 1);
  const firstTextList = [...firstTexts]
    .sort((a, b) => b[1] - a[1])
    .map(([text, count]) => `"${text}" ${count === 1 ? 'once' : `${count} times`}`)
    .join(', ');
  const body = [
    '## Payment pushed to the page (`bench/push`)',
    '',
    `Command: \`bun run bench:push\` (\`--payments ${PAYMENTS}\`).`,
    '',
    `Machine: ${await machine(startLoad)}.`,
    '',
    'Time from a payment\'s block header reaching a `newHeads` subscription to "Payment detected"',
    "on the shopper's universal payment page in Chromium (headless, 390×844), pushed by",
    '`GET /api/orders/{id}/payment-events`; and, for the same payments, to the pushed event at a',
    'plain SSE client in the benchmark process. Payments of 1.25 USDC one at a time at a random',
    "phase of the block, on the e2e stack at Base's pace: anvil `--block-time 0.2` with Circle's",
    'USDC, the Ponder indexer, the settlement worker (a detection pass on each indexed block and',
    'at least every 100 ms) and the API',
    `serving the built app, each its own process on one Postgres. Other USDC transfers in every`,
    `block: ${background} sent from two other accounts during the run, ${logs.length} transfers in`,
    `${blocks} blocks, ${busy} of them with two or more.`,
    '',
    markdownTable(
      ['block header seen →', 'payments', 'p50', 'p95', 'max'],
      [
        row("the indexer's NOTIFY of the block", summarize(samples.map((s) => s.indexed))),
        row("worker's NOTIFY received", summarize(samples.map((s) => s.recorded))),
        row('event at an SSE client', summarize(samples.map((s) => s.stream))),
        row('"Payment detected" on the page', page95),
      ],
    ),
    '',
    `Target: p95 ≤ ${TARGET_P95_MS} ms (${page95.p95 <= TARGET_P95_MS ? 'met' : 'NOT met'} in this run).`,
    `The page's first text of the progress: ${firstTextList} (2 of 2: the API's read already saw`,
    'the next block; "received" is the worker\'s to declare, one pass later).',
    '',
    'Where the time goes (medians of each step, same payments):',
    '',
    markdownTable(
      ['step', 'p50', 'p95'],
      [
        stepRow('block header → the indexer committed the block', (x) => x.indexed),
        stepRow('→ worker recorded it and NOTIFY arrived', (x) => x.recorded - x.indexed),
        stepRow('→ API read the view, event at the SSE client', (x) => x.stream - x.recorded),
        stepRow('text on the page, after the event at the client', (x) => x.page - x.stream),
      ],
    ),
    '',
    '- The indexer (Ponder, new heads over WebSocket) is most of it: its latency is what',
    '  `bench:detection` measures too.',
    "- The worker's detection pass starts when the indexer commits a block: it `LISTEN`s on",
    "  Ponder's live-query channel (`indexer_live_query`), so a payment no longer waits for the",
    '  next 100 ms tick (`DETECTION_INTERVAL_MS` stays as the fallback). It records the state',
    '  and `NOTIFY`s in the same transaction; the API, `LISTEN`ing, reads the status view',
    '  (wallet, indexed transfers and head) and writes the event.',
    '  Measured on 2026-11-24 (10 payments each, same machine and load): with the 100 ms tick',
    '  alone, indexer → NOTIFY took 73 ms at the median (27 to 313 ms); woken by the indexer,',
    '  32 ms (5 to 196 ms).',
    '- The page and the SSE client in this process receive the same event; the difference is',
    "  the browser's delivery and React's render, and either may be scheduled later on a busy",
    '  machine.',
    '- An earlier run the same day at load average 17.75, with this benchmark then polling the',
    "  indexer's table every 2 ms itself (since replaced by the indexer's NOTIFY), measured",
    "  p50 175 ms, p95 782 ms on the page; the indexer's step alone reached 721 ms at p95.",
    `- The 2 cores are shared by the chain, the background senders, the indexer, Postgres,`,
    `  the API, the worker, Chromium and whatever else runs on the machine (load average`,
    `  ${endLoad.toFixed(2)} at the end), so tails move from run to run.`,
  ].join('\n');
  console.log(`\n${body}\n`);
  if (!args['no-write']) await writeBenchmarkSection('push', body);
} finally {
  await stopTraffic?.();
  clock?.stop();
  await browser.close();
  await sql.end({ timeout: 5 });
  await stop();
}
