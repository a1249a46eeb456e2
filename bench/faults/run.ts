// Fault run (issue: money under production faults): a stream of payments of every kind (exact,
// over, under then topped up, two partials) to universal orders on the local chain at Base's pace,
// while TWO worker processes run at once and are SIGKILLed and restarted again and again, and the
// chain is reorganised below the confirmation depth (depth − 1) and above it (depth + 1). At the
// end the ledger is computed from the chain's own Transfer and AuthorizationUsed logs: nothing may
// be lost, doubled, stuck on a deposit address or misreported by the database.
import { writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { usdcAbi } from '@store/api/chain/usdc-abi';
import { isPaidState, isPaymentState, parseUsdc } from '@store/shared';
import { chainLedger, type DepositLedger } from '@store/stack/chain-ledger';
import { waitForIndexerBlock } from '@store/stack/indexer';
import type { Service } from '@store/stack/process';
import { payUsdc } from '@store/stack/usdc';
import { sql } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  getAbiItem,
  type Hash,
  http,
  parseEventLogs,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startBenchStack } from '../bench-stack.ts';
import { machine, markdownTable } from '../detection/report.ts';
import { writeBenchmarkSection } from '../docs-section.ts';

const { values: args } = parseArgs({
  options: {
    payments: { type: 'string', default: '60' },
    'min-kills': { type: 'string', default: '50' },
    'no-write': { type: 'boolean', default: false },
  },
});
const PAYMENTS = Number(args.payments);
const MIN_KILLS = Number(args['min-kills']);
const CONFIRMATIONS = 10;
const startLoad = loadavg()[0] ?? 0;
const started = performance.now();

const bench = await startBenchStack('faults', {
  CONFIRMATIONS: String(CONFIRMATIONS),
  FORWARDING_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_BASE_MS: '200',
  DETECTION_RECONCILE_MS: '1000',
});
const { stack, database, logs } = bench;
const client = createPublicClient({ chain: foundry, transport: http(stack.env.RPC_URL) });

type Kind = 'exact' | 'over' | 'under then topped up' | 'two partials';
const KINDS: Kind[] = ['exact', 'over', 'under then topped up', 'two partials'];
const PRICE = '2.00';

/** The transfers a payment of `kind` sends (base units). */
function transfersOf(kind: Kind): bigint[] {
  const price = parseUsdc(PRICE);
  if (kind === 'exact') return [price];
  if (kind === 'over') return [price + 350_000n];
  if (kind === 'under then topped up') return [price - 500_000n, 500_000n];
  return [price / 2n, price - price / 2n];
}

const counts = {
  kills: 0,
  restarts: 0,
  reorgsBelow: 0,
  reorgsAbove: 0,
  reversible: 0,
  resent: 0,
  tooDeep: 0,
};
/**
 * The deepest reorg made: the indexer (Ponder) treats blocks 30 behind its head as final on this
 * chain, and a reorg below them is one it cannot follow (as a reorg past finality on Base). A
 * payment that took longer than this to count is not taken away (counted apart).
 */
const MAX_REORG_DEPTH = 25;
let stopping = false;

try {
  const apiUrl = await bench.startApi('api');
  // Two workers at once, each SIGKILLed and restarted again and again.
  const workers: (Service | undefined)[] = [];
  const startWorker = (slot: number) => {
    workers[slot] = bench.start(`worker-${slot}`, 'worker.ts');
  };
  startWorker(0);
  startWorker(1);
  const killer = (async () => {
    while (!stopping) {
      await Bun.sleep(1500 + Math.random() * 1500);
      if (stopping) break;
      const slot = counts.kills % 2;
      const worker = workers[slot];
      if (worker) {
        try {
          process.kill(-worker.pid, 'SIGKILL');
          counts.kills += 1;
        } catch {
          // already gone
        }
        await worker.exited;
      }
      // Note: every kill is followed by a restart, also the last one.
      startWorker(slot);
      counts.restarts += 1;
    }
  })();

  // The payment stream, with a reorg below and one above the depth every few payments.
  const orders: { orderId: string; address: Address; kind: Kind; payout: Address }[] = [];
  const payments: { hash: Hash; from: number; to: Address; value: bigint }[] = [];
  // Every shopper transfer sent, kept for the report of a failed run.
  const sentTransfers: { hash: Hash; to: Address; value: bigint; resent: boolean }[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const kind = KINDS[i % KINDS.length] as Kind;
    const payout = privateKeyToAccount(generatePrivateKey()).address;
    const response = await fetch(`${apiUrl}/api/universal-orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        storeName: 'Fault Shop',
        storePaymentAddress: payout,
        externalOrderId: `fault-${i}`,
        customerEmail: 'faults@example.com',
        shippingAddress: {
          firstName: 'F',
          lastName: 'Ault',
          email: 'faults@example.com',
          phone: '1',
          street: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zipCode: '62701',
        },
        items: [{ productId: 'universal-fault', title: 'Item', priceUsdc: PRICE, quantity: 1 }],
        subtotalUsdc: PRICE,
        shippingUsdc: '0.00',
        totalUsdc: PRICE,
        paymentChain: 'base',
      }),
    });
    const body = (await response.json()) as {
      order: { id: string };
      paymentWallet: { address: Address };
    };
    if (response.status !== 201) throw new Error(`order ${i}: ${JSON.stringify(body)}`);
    const order = { orderId: body.order.id, address: body.paymentWallet.address, kind, payout };
    orders.push(order);
    let paidAt = 0n;
    for (const value of transfersOf(kind)) {
      const paid = await payUsdc(stack.env, 1 + (i % 9), order.address, value);
      payments.push({ hash: paid.hash, from: 1 + (i % 9), to: order.address, value });
      sentTransfers.push({ hash: paid.hash, to: order.address, value, resent: false });
      paidAt = paid.blockNumber;
    }
    if (i % 10 === 4) {
      // Below the depth: payments and legs of the last 9 blocks are dropped. A real node would
      // put the shoppers' transactions back in its pool; here the shoppers send them again.
      await reorg(CONFIRMATIONS - 1);
      counts.reorgsBelow += 1;
      for (const payment of payments.splice(0)) {
        const receipt = await client
          .getTransactionReceipt({ hash: payment.hash })
          .catch(() => null);
        if (receipt) continue;
        const again = await payUsdc(stack.env, payment.from, payment.to, payment.value);
        sentTransfers.push({
          hash: again.hash,
          to: payment.to,
          value: payment.value,
          resent: true,
        });
        counts.resent += 1;
      }
    }
    if (i % 10 === 9) {
      // Above the depth: once the payment has counted, take it away (the order is reversed).
      const counted = await waitForStatus(order.orderId, ['received'], 20_000);
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const depth = Math.max(CONFIRMATIONS + 1, Number(head - paidAt) + 1);
      if (depth > MAX_REORG_DEPTH) counts.tooDeep += 1;
      else {
        await reorg(depth);
        counts.reorgsAbove += 1;
        payments.splice(0);
        if (counted) counts.reversible += 1;
      }
    }
  }
  // Keep killing until the minimum is reached, then let the workers settle everything.
  while (counts.kills < MIN_KILLS) await Bun.sleep(200);
  stopping = true;
  await killer;

  const settleStarted = performance.now();
  const result = await settle(orders);
  const watchdogRestarts = logs.filter((line) => /watchdog: no progress/.test(line)).length;
  const settleSeconds = (performance.now() - settleStarted) / 1000;
  const ledger = await chainLedger(stack.env, database.db);
  const used = await client.getLogs({
    address: stack.env.USDC_ADDRESS as Address,
    event: {
      type: 'event',
      name: 'AuthorizationUsed',
      inputs: [
        { name: 'authorizer', type: 'address', indexed: true },
        { name: 'nonce', type: 'bytes32', indexed: true },
      ],
    },
    fromBlock: 0n,
  });
  const statusRows = await database.db.execute<{ status: string; exception: string; n: number }>(
    sql`select status, exception, count(*)::int as n from payment_wallets
      group by status, exception order by status, exception`,
  );
  const received = ledger.wallets.reduce((sum, w) => sum + w.received, 0n);
  const out = ledger.wallets.reduce((sum, w) => sum + w.toMerchant + w.toTreasury, 0n);
  const balances = await balancesByState(ledger.wallets);
  const failedRows = await database.db.execute<{ error: string | null }>(sql`
    select forwarding_error as error from payment_wallets where forwarding_status = 'failed'`);
  const indexerAt = await fetch(`${stack.env.INDEXER_URL}/status`)
    .then((r) => r.json() as Promise<Record<string, { block?: { number?: number } }>>)
    .then((status) => Object.values(status)[0]?.block?.number ?? null)
    .catch(() => null);
  const headAtEnd = await client.getBlockNumber({ cacheTime: 0 });
  const rows: string[][] = [
    ['payments (orders)', `${orders.length} (${KINDS.join(', ')}, in turn)`],
    ['worker SIGKILLs / restarts (two workers at once)', `${counts.kills} / ${counts.restarts}`],
    [
      `reorgs below the depth (${CONFIRMATIONS - 1} blocks)`,
      `${counts.reorgsBelow} (${counts.resent} dropped shopper transfers sent again)`,
    ],
    [
      `reorgs above the depth (${CONFIRMATIONS + 1}+ blocks, after the payment counted)`,
      `${counts.reorgsAbove} (${counts.reversible} taking a counted payment away)`,
    ],
    [
      `reorgs left out: the payment counted more than ${MAX_REORG_DEPTH} blocks deep`,
      String(counts.tooDeep),
    ],
    ['indexer restarts by its watchdog (stalled after a reorg)', String(watchdogRestarts)],
    [
      'wallet states (and exceptions) at the end',
      statusRows
        .map((r) => `${r.status}${r.exception === 'none' ? '' : ` (${r.exception})`} ${r.n}`)
        .join(', '),
    ],
    ['USDC received by deposit addresses (chain)', fmt(received)],
    ['USDC forwarded (chain), merchant + treasury', fmt(out)],
    [
      'USDC held on deposit addresses for payers (overpaid excess awaiting a claim)',
      `${fmt(balances.paid.units)} on ${balances.paid.addresses} paid orders' addresses (database: ${fmt(result.heldForPayers)} awaiting a claim)`,
    ],
    [
      "USDC left on reversed orders' addresses (what a reorg above the depth left of a payment)",
      `${fmt(balances.reversed.units)} on ${balances.reversed.addresses} of ${balances.reversed.wallets} reversed orders' addresses (${balances.reversed.detail || 'none'})`,
    ],
    [
      "USDC on unpaid orders' addresses (waiting, underpaid, expired)",
      `${fmt(balances.unpaid.units)} on ${balances.unpaid.addresses} addresses`,
    ],
    [
      'USDC refunded to payers / sent elsewhere (chain)',
      `${fmt(balances.toPayer)} / ${fmt(balances.toOthers)}`,
    ],
    [
      'unaccounted (received - forwarded - refunded - elsewhere - every balance above)',
      fmt(balances.unaccounted),
    ],
    ['forwarding transfers on chain', String(ledger.transfersOut)],
    [
      'authorizations used / used twice',
      `${used.length} / ${ledger.authorizationsUsedTwice.length}`,
    ],
    ['ledger breaches (chain vs database, < 98%, elsewhere)', String(ledger.breaches.length)],
    ['stuck (funds at depth still on a deposit address)', String(result.stuck.length)],
    [
      'misreported (paid in the database, not on chain, or the reverse)',
      String(result.misreported.length),
    ],
    [
      'forwardings stopped as failed',
      `${failedRows.length}${failedRows.length ? ` (${failedRows.map((r) => r.error).join('; ')})` : ''}`,
    ],
    ['indexer block / chain head at the end', `${indexerAt} / ${headAtEnd}`],
    ['time for everything to settle after the last kill', `${settleSeconds.toFixed(1)} s`],
  ];
  const ok =
    balances.unaccounted === 0n &&
    balances.paid.units === result.heldForPayers &&
    ledger.breaches.length === 0 &&
    ledger.authorizationsUsedTwice.length === 0 &&
    result.stuck.length === 0 &&
    result.misreported.length === 0 &&
    failedRows.length === 0;
  const body = [
    '## Faults: kills, reorgs and two workers (`bench/faults`)',
    '',
    `Command: \`bun run bench:faults\` (\`--payments ${PAYMENTS} --min-kills ${MIN_KILLS}\`).`,
    '',
    `Machine: ${await machine(startLoad)}. Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    '',
    "Universal orders of 2.00 USDC paid on the local chain at Base's pace (anvil",
    "`--block-time 0.2`, Circle's USDC, `CONFIRMATIONS=10`) by anvil test accounts, one order after",
    'another; two settlement workers run at once as processes, and one of them is SIGKILLed every',
    '1.5-3 s and restarted; every tenth order a reorg replaces the last 9 blocks (below the depth)',
    'and every tenth the last 11 (above it). anvil drops the transactions of replaced blocks: a',
    "shopper's transfer in them is gone: after a reorg below the depth the shopper sends it again",
    '(as a real node would re-include it); after one above the depth, a payment that had counted',
    'stays gone and its order is reversed. A forwarding leg in replaced blocks is sent again by the',
    "product. The ledger is read from the chain's Transfer and AuthorizationUsed logs, not from the database.",
    '',
    markdownTable(['', 'result'], rows),
    '',
    ok
      ? 'Nothing was lost, doubled, stuck or misreported.'
      : `FAILED: ${[...ledger.breaches, ...ledger.authorizationsUsedTwice, ...result.stuck, ...result.misreported].slice(0, 10).join('; ')}`,
  ].join('\n');
  console.log(`\n${body}\n`);
  if (!args['no-write']) await writeBenchmarkSection('faults', body);
  if (!ok) {
    const file = await reportFailure(orders, sentTransfers);
    console.log(`The processes' logs and each failing order's transfers: ${file}`);
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error);
  console.error(logs.slice(-40).join('\n'));
  process.exitCode = 1;
} finally {
  stopping = true;
  await bench.stop();
}

/**
 * Writes what a failed run leaves to look at, to a file of the temporary folder: for each order
 * that is not settled as it should be, every shopper transfer sent to it (its receipt's block,
 * status and Transfer logs, none for a transfer the chain no longer has), the Transfer logs the
 * chain answers for the address, its balance and the database's wallet; then every line the
 * processes logged. Returns the file's path.
 */
async function reportFailure(
  orders: readonly { orderId: string; address: Address }[],
  sent: readonly { hash: Hash; to: Address; value: bigint; resent: boolean }[],
): Promise<string> {
  const lines: string[] = [];
  for (const order of orders) {
    const [wallet] = await database.db.execute<Record<string, unknown>>(sql`
      select status, exception, received_amount_usdc::text as received,
        forwarded_amount_usdc::text as forwarded, forwarding_status
      from payment_wallets where order_id = ${order.orderId}`);
    const balance = await usdcBalance(order.address);
    const transfersIn = await transfersTo(order.address);
    const logged = transfersIn.reduce((sum, log) => sum + (log.args.value ?? 0n), 0n);
    const received = parseUsdc(String(wallet?.received ?? '0'));
    const forwarded = parseUsdc(String(wallet?.forwarded ?? '0'));
    if (logged === received && balance + forwarded === received) continue;
    lines.push(
      `order ${order.orderId} at ${order.address}: balance ${balance}, Transfer logs in ${logged}, ` +
        `database ${JSON.stringify(wallet)}`,
    );
    for (const log of transfersIn)
      lines.push(
        `  log in: ${log.args.value} at block ${log.blockNumber} (tx ${log.transactionHash})`,
      );
    for (const transfer of sent.filter((t) => t.to === order.address)) {
      const receipt = await client.getTransactionReceipt({ hash: transfer.hash }).catch(() => null);
      const own = receipt
        ? parseEventLogs({ abi: usdcAbi, eventName: 'Transfer', logs: receipt.logs }).length
        : 0;
      lines.push(
        `  sent${transfer.resent ? ' again' : ''}: ${transfer.value} tx ${transfer.hash}: ` +
          (receipt
            ? `block ${receipt.blockNumber}, ${receipt.status}, ${own} Transfer log(s) in its receipt`
            : 'no receipt (not on the chain)'),
      );
    }
  }
  const file = join(tmpdir(), `bench-faults-${Date.now()}.log`);
  await writeFile(file, [...lines, '', "The processes' logs:", ...logs].join('\n'));
  return file;
}

/** Replaces the last `depth` blocks, at the tip as on Base: once the indexer has caught up. */
async function reorg(depth: number) {
  const head = await client.getBlockNumber({ cacheTime: 0 });
  await waitForIndexerBlock(stack.env.INDEXER_URL, head, 10_000);
  await client.request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
}

/**
 * Where every base unit the deposit addresses received is, from the chain: each address's
 * `balanceOf` summed by the state of its order, what its Transfer logs sent to payers and
 * elsewhere, and what no row explains (must be 0).
 */
async function balancesByState(wallets: readonly DepositLedger[]) {
  const states = await database.db.execute<{ address: string; status: string }>(sql`
    select lower(wallet_address) as address, status from payment_wallets`);
  const stateOf = new Map(states.map((r) => [r.address, r.status]));
  const group = () => ({ units: 0n, addresses: 0, wallets: 0, amounts: [] as bigint[] });
  const paid = group();
  const reversed = group();
  const unpaid = group();
  let toPayer = 0n;
  let toOthers = 0n;
  let unaccounted = 0n;
  for (const w of wallets) {
    const status = stateOf.get(w.address.toLowerCase()) ?? 'unknown';
    const into =
      isPaymentState(status) && isPaidState(status)
        ? paid
        : status === 'reversed'
          ? reversed
          : unpaid;
    into.wallets += 1;
    if (w.balance > 0n) {
      into.units += w.balance;
      into.addresses += 1;
      into.amounts.push(w.balance);
    }
    toPayer += w.toPayer;
    toOthers += w.toOthers;
    unaccounted += w.received - w.toMerchant - w.toTreasury - w.toPayer - w.toOthers - w.balance;
  }
  // Note: how much each reversed address holds, so the row says which payments a reorg cut short.
  const counts = new Map<string, number>();
  for (const amount of reversed.amounts)
    counts.set(fmt(amount), (counts.get(fmt(amount)) ?? 0) + 1);
  const detail = [...counts].map(([amount, n]) => `${n} x ${amount}`).join(', ');
  return { paid, reversed: { ...reversed, detail }, unpaid, toPayer, toOthers, unaccounted };
}

function fmt(units: bigint): string {
  return `${(Number(units) / 1e6).toFixed(6)}`;
}

/**
 * Waits (3 minutes at most) until every wallet is settled: whatever is at depth on a paid or
 * expired-underpaid address has left it, but for an excess held for its payer, and nothing else
 * is in flight; returns what is not.
 */
async function settle(orders: readonly { orderId: string; address: Address }[]) {
  const deadline = performance.now() + 180_000;
  for (;;) {
    const state = await database.db.execute<{
      order_id: string;
      address: string;
      status: string;
      exception: string;
      expected: string;
      received: string;
      forwarded: string;
      open_legs: number;
      held: string;
    }>(sql`
      select w.order_id, lower(w.wallet_address) as address, w.status, w.exception,
        w.expected_amount_usdc::text as expected, w.received_amount_usdc::text as received,
        w.forwarded_amount_usdc::text as forwarded,
        (select count(*)::int from forwarding_transfers f
          where f.wallet_id = w.id and f.status <> 'confirmed') as open_legs,
        (select coalesce(sum(r.amount), 0)::text from refunds r
          where r.wallet_id = w.id and r.status = 'awaiting_address') as held
      from payment_wallets w`);
    const head = await client.getBlockNumber();
    const stuck: string[] = [];
    const misreported: string[] = [];
    let heldForPayers = 0n;
    for (const wallet of state) {
      const onChain = await chainReceived(wallet.address as Address, head);
      const paidInDb = isPaymentState(wallet.status) && isPaidState(wallet.status);
      if (paidInDb && onChain.atDepth < parseUsdc(wallet.expected))
        misreported.push(`${wallet.order_id}: ${wallet.status} but ${onChain.atDepth} at depth`);
      if (
        !paidInDb &&
        wallet.exception !== 'underpaid' &&
        onChain.atDepth >= parseUsdc(wallet.expected)
      )
        misreported.push(`${wallet.order_id}: ${wallet.status} though paid on chain`);
      // Note: an overpayment's excess stays on the address, held for its payer until they claim
      // it (refunds awaiting an address): accounted, not stuck.
      const balance = await usdcBalance(wallet.address as Address);
      const held = BigInt(wallet.held);
      heldForPayers += held;
      if (paidInDb && (balance !== held || wallet.open_legs > 0))
        stuck.push(
          `${wallet.order_id}: ${balance} left (${held} held for the payer), ${wallet.open_legs} open legs`,
        );
    }
    if ((stuck.length === 0 && misreported.length === 0) || performance.now() > deadline)
      return { stuck, misreported, heldForPayers, orders: orders.length };
    await Bun.sleep(1000);
  }
}

async function usdcBalance(address: Address): Promise<bigint> {
  return client.readContract({
    address: stack.env.USDC_ADDRESS as Address,
    abi: usdcAbi,
    functionName: 'balanceOf',
    args: [address],
  });
}

/** Every USDC Transfer log into `address`, from the chain's start. */
function transfersTo(address: Address) {
  return client.getLogs({
    address: stack.env.USDC_ADDRESS as Address,
    event: getAbiItem({ abi: usdcAbi, name: 'Transfer' }),
    args: { to: address },
    fromBlock: 0n,
  });
}

/** What reached `address` at CONFIRMATIONS depth, from the Transfer logs. */
async function chainReceived(address: Address, head: bigint) {
  const logs = await transfersTo(address);
  let atDepth = 0n;
  for (const log of logs)
    if (head - (log.blockNumber ?? head) + 1n >= BigInt(CONFIRMATIONS))
      atDepth += log.args.value ?? 0n;
  return { atDepth };
}

/** Waits until the order's wallet is in one of `statuses`; false after `timeoutMs`. */
async function waitForStatus(orderId: string, statuses: string[], timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const [row] = await database.db.execute<{ status: string }>(
      sql`select status from payment_wallets where order_id = ${orderId}`,
    );
    if (row && statuses.includes(row.status)) return true;
    await Bun.sleep(50);
  }
  return false;
}
