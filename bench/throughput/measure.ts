// One level of the throughput benchmark: the product's own stack (Postgres, anvil at 0.2 s blocks
// with Circle's USDC, the indexer, the API and the worker as processes), background USDC traffic in
// every block, and universal orders paid at a steady `rate` a second for `seconds`. Everything it
// reports about forwarding is read from the chain: when 98% of each payment reached its payout
// address, the transactions that moved it and their gas.
import { loadavg } from 'node:os';
import type { Database } from '@store/api/db/client';
import { uuidArray } from '@store/api/db/uuid';
import { prepareSenders, startBackground } from '@store/stack/background-traffic';
import { chainLedger } from '@store/stack/chain-ledger';
import { readStreamLedger, streamPayments } from '@store/stack/payment-stream';
import { sql } from 'drizzle-orm';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startBenchStack } from '../bench-stack.ts';
import { watchBlocks } from '../detection/measure.ts';
import { type Summary, summarize } from '../detection/report.ts';
import { cpuBetween, cpuSeconds } from '../process-cpu.ts';
import { createBenchOrder } from '../universal-order.ts';

/** 1.25 USDC, the benchmark order's total. */
const AMOUNT = 1_250_000n;

/** One level's settings. */
export interface LevelOptions {
  rate: number;
  seconds: number;
  /** Background transfers a block (other people's USDC traffic). */
  background: number;
  confirmations: number;
  /** Longest wait for the backlog after the last payment arrived. */
  drainSeconds: number;
  /**
   * Seconds paid at the same rate just before the measured ones, by the same stream (0: none).
   * The worker starts with the level, so they are its first seconds: reported apart (`coldStart`).
   */
  warmupSeconds?: number;
  /** Extra environment of the worker (e.g. forwarding settings). */
  workerEnv?: Record<string, string>;
  /**
   * Settlement workers sharing the wallets through Postgres claims (1 by default); each one past
   * the first has a relayer key of its own (funded on the local chain).
   */
  workers?: number;
  log?: (line: string) => void;
}

/** What a level measured. */
export interface LevelResult {
  rate: number;
  seconds: number;
  payments: number;
  loadAtStart: number;
  loadAtEnd: number;
  /** Payments that arrived (mined) and that were forwarded (98% on the payout address). */
  arrived: number;
  forwarded: number;
  /** Over the steady window (from 5 s after the first arrival to the last arrival). */
  arrivedRate: number;
  forwardedRate: number;
  /** depth reached → 98% on the payout address, ms (header arrivals of the two blocks). */
  depthToForwarded: Summary;
  /** Last payment's arrival → last forwarding, ms (how long the backlog took to drain). */
  drainMs: number;
  relayerTxs: number;
  forwardingTxs: number;
  forwardingGas: bigint;
  /** Webhook deliveries received (any type) over the run, and per second. */
  webhooks: number;
  webhooksPerSecond: number;
  /** From the chain's whole ledger: breaches, authorizations used twice, transfers out. */
  breaches: string[];
  authorizationsUsedTwice: string[];
  /** Deposit addresses with more than the two legs out, or with money left at depth. */
  extraTransfers: number;
  unforwarded: number;
  /** The warm-up's payments (the worker's first seconds) and their depth → forwarded, ms. */
  coldStart: { payments: number; depthToForwarded: Summary } | null;
  /** CPU seconds each process used from the first measured payment to the end of the drain. */
  cpu: { name: string; seconds: number }[];
  /** Where a payment's time went, from the database's own timestamps (ms, p50/p95). */
  stages: Record<string, { p50: number; p95: number }>;
}

/**
 * From the worker's records: recorded at depth → its round planned (the queue before forwarding),
 * planned → the round recorded complete (sending, mining and depth of the legs).
 */
async function forwardingStages(
  db: Database,
  orderIds: readonly string[],
): Promise<LevelResult['stages']> {
  const rows = await db.execute<{ stage: string; p50: number; p95: number }>(sql`
    with w as (
      select pw.payment_received_at as received, pw.forwarded_at as forwarded,
        (select min(t.created_at) from forwarding_transfers t where t.wallet_id = pw.id) as planned
      from payment_wallets pw where pw.forwarded_at is not null
        and pw.order_id = any(${uuidArray(orderIds)}::uuid[]))
    select 'depth recorded → planned' as stage,
        percentile_cont(0.5) within group (order by extract(epoch from planned - received)) * 1000 as p50,
        percentile_cont(0.95) within group (order by extract(epoch from planned - received)) * 1000 as p95
      from w
    union all
    select 'planned → recorded forwarded',
        percentile_cont(0.5) within group (order by extract(epoch from forwarded - planned)) * 1000,
        percentile_cont(0.95) within group (order by extract(epoch from forwarded - planned)) * 1000
      from w`);
  return Object.fromEntries(
    rows.map((r) => [r.stage, { p50: Math.round(Number(r.p50)), p95: Math.round(Number(r.p95)) }]),
  );
}

/** Runs one level on a fresh stack. */
export async function runLevel(options: LevelOptions): Promise<LevelResult> {
  const log = options.log ?? console.log;
  const loadAtStart = loadavg()[0] ?? 0;
  const bench = await startBenchStack(`throughput-${options.rate}`, {
    CONFIRMATIONS: String(options.confirmations),
  });
  const { stack } = bench;
  const env = stack.env;
  const client = createPublicClient({
    chain: foundry,
    transport: http(env.RPC_URL),
  }) as PublicClient;
  const webhookTimes: number[] = [];
  const forwardedOrders = new Set<string>();
  // Note: the warm-up's webhooks are not counted (filled once its orders exist).
  const warmOrders = new Set<string>();
  const receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const body = JSON.parse(await request.text()) as { orderId: string; type: string };
      if (!warmOrders.has(body.orderId)) webhookTimes.push(performance.now());
      if (body.type === 'order.forwarded') forwardedOrders.add(body.orderId);
      return new Response('ok');
    },
  });
  const webhookUrl = `http://127.0.0.1:${receiver.port}/hooks`;
  const clock = await watchBlocks(env.WS_URL);
  let background: { stop: () => Promise<number> } | undefined;
  try {
    bench.start('worker', 'worker.ts', options.workerEnv ?? {});
    const relayers = [env.RELAYER_ADDRESS as Address];
    for (let i = 1; i < (options.workers ?? 1); i++) {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      await client.request({
        method: 'anvil_setBalance' as never,
        params: [address, '0x3635c9adc5dea00000'] as never,
      });
      relayers.push(address);
      bench.start(`worker-${i + 1}`, 'worker.ts', {
        ...options.workerEnv,
        RELAYER_PRIVATE_KEY: key,
        RELAYER_ADDRESS: address,
      });
    }
    const apiUrl = await bench.startApi('api');
    await prepareSenders(env);
    background = startBackground(env, options.background, 0);
    const payments = Math.round(options.rate * options.seconds);
    const warmups = Math.round(options.rate * (options.warmupSeconds ?? 0));
    log(`rate ${options.rate}/s: creating ${warmups + payments} orders`);
    const orders: { orderId: string; address: Address; payout: Address }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < warmups + payments) {
          next++;
          const payout = privateKeyToAccount(generatePrivateKey()).address;
          const order = await createBenchOrder(apiUrl, { storePaymentAddress: payout, webhookUrl });
          orders.push({ ...order, payout });
        }
      }),
    );
    const relayerNonces = () =>
      Promise.all(relayers.map((address) => client.getTransactionCount({ address }))).then(
        (counts) => counts.reduce((sum, n) => sum + n, 0),
      );
    // Note: the warm-up's orders are the stream's first; the measured ones follow at once.
    const warm = orders.slice(0, warmups);
    const measured = orders.slice(warmups);
    for (const o of warm) warmOrders.add(o.orderId);
    const fromBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    const webhooksBefore = webhookTimes.length;
    log(`rate ${options.rate}/s: paying for ${options.warmupSeconds ?? 0} + ${options.seconds} s`);
    // Note: CPU and the relayer's transactions are counted from the first measured payment.
    let relayerNonceBefore = relayerNonces();
    let cpuBefore = cpuSeconds();
    const sent = await streamPayments({
      env,
      targets: orders.map((o) => o.address),
      rate: options.rate,
      amount: AMOUNT,
      onSent: (count, previous) => {
        if (warmups === 0 || previous > warmups || count <= warmups) return;
        cpuBefore = cpuSeconds();
        relayerNonceBefore = relayerNonces();
      },
    });
    const lastSent = sent.at(-1)?.sentAt ?? performance.now();
    // The backlog: until every order's `order.forwarded` arrived, or nothing moved for 20 s.
    const deadline = lastSent + options.drainSeconds * 1000;
    let seen = -1;
    let movedAt = performance.now();
    while (forwardedOrders.size < warmups + payments && performance.now() < deadline) {
      if (forwardedOrders.size !== seen) {
        seen = forwardedOrders.size;
        movedAt = performance.now();
      } else if (performance.now() - movedAt > 20_000) break;
      await Bun.sleep(500);
    }
    const stoppedAt = performance.now();
    const cpu = cpuBetween(cpuBefore, cpuSeconds());
    await background.stop();
    background = undefined;
    const toBlock = await client.getBlockNumber({ cacheTime: 0 });
    const relayerNonceAfter = await relayerNonces();
    const ledgerOf = (paid: typeof orders) =>
      readStreamLedger({
        rpcUrl: env.RPC_URL,
        usdc: env.USDC_ADDRESS as Address,
        payouts: new Map(paid.map((o) => [o.address, o.payout])),
        fromBlock,
        toBlock,
        client,
      });
    const ledger = await ledgerOf(measured);
    const whole = await chainLedger(env, bench.database.db);
    const stages = await forwardingStages(
      bench.database.db,
      measured.map((o) => o.orderId),
    );
    const at = (block: bigint | null) => (block === null ? undefined : clock.arrivedAt(block));
    const arrivals = ledger.payments.flatMap((p) => {
      const t = at(p.arrivedBlock);
      return t === undefined ? [] : [t];
    });
    const forwards = ledger.payments.flatMap((p) => {
      const t = at(p.forwardedBlock);
      return t === undefined ? [] : [t];
    });
    // depth reached (header seen) → recorded at depth by the worker (payment_received_at).
    const recordedAt = new Map(
      (
        await bench.database.db.execute<{ address: string; at: string }>(sql`
          select lower(wallet_address) as address,
            (extract(epoch from payment_received_at) * 1000)::text as at
          from payment_wallets where payment_received_at is not null`)
      ).map((r) => [r.address, Number(r.at)]),
    );
    const detection = ledger.payments.flatMap((p) => {
      const depth =
        p.arrivedBlock === null
          ? undefined
          : at(p.arrivedBlock + BigInt(options.confirmations - 1));
      const recorded = recordedAt.get(p.deposit.toLowerCase());
      return depth === undefined || recorded === undefined
        ? []
        : [recorded - (performance.timeOrigin + depth)];
    });
    const detected = summarize(detection);
    stages['depth → recorded at depth'] = {
      p50: Math.round(detected.p50),
      p95: Math.round(detected.p95),
    };
    const latenciesOf = (paid: typeof ledger.payments) =>
      paid.flatMap((p) => {
        if (p.arrivedBlock === null || p.forwardedBlock === null) return [];
        const depth = at(p.arrivedBlock + BigInt(options.confirmations - 1));
        const done = at(p.forwardedBlock);
        return depth === undefined || done === undefined ? [] : [done - depth];
      });
    const latencies = latenciesOf(ledger.payments);
    const coldStart =
      warm.length === 0
        ? null
        : {
            payments: warm.length,
            depthToForwarded: summarize(latenciesOf((await ledgerOf(warm)).payments)),
          };
    const firstArrival = Math.min(...arrivals);
    const lastArrival = Math.max(...arrivals);
    const windowStart = firstArrival + 5_000;
    const windowSeconds = Math.max(0.001, (lastArrival - windowStart) / 1000);
    const inWindow = (t: number) => t >= windowStart && t <= lastArrival;
    const webhooks = webhookTimes.length - webhooksBefore;
    const webhookSpan = (stoppedAt - firstArrival) / 1000;
    return {
      rate: options.rate,
      seconds: options.seconds,
      payments,
      loadAtStart,
      loadAtEnd: loadavg()[0] ?? 0,
      arrived: ledger.payments.filter((p) => p.received >= AMOUNT).length,
      forwarded: ledger.payments.filter((p) => p.forwardedBlock !== null).length,
      arrivedRate: arrivals.filter(inWindow).length / windowSeconds,
      forwardedRate: forwards.filter(inWindow).length / windowSeconds,
      depthToForwarded: summarize(latencies),
      drainMs: forwards.length ? Math.max(...forwards) - lastArrival : Number.NaN,
      relayerTxs: relayerNonceAfter - (await relayerNonceBefore),
      forwardingTxs: ledger.forwardingTxs.length,
      forwardingGas: ledger.forwardingGas,
      webhooks,
      webhooksPerSecond: webhooks / webhookSpan,
      breaches: whole.breaches,
      authorizationsUsedTwice: whole.authorizationsUsedTwice,
      extraTransfers: ledger.payments.filter((p) => p.transfersOut > 2).length,
      unforwarded: ledger.payments.filter((p) => p.forwardedBlock === null).length,
      cpu,
      stages,
      coldStart,
    };
  } finally {
    await background?.stop();
    clock.stop();
    receiver.stop(true);
    await bench.stop();
  }
}
