// The relayer in trouble, on the real chain (Postgres, anvil with Circle's USDC, the indexer, the
// worker's loops): out of ETH, orders wait (never 'failed', never counted) and go by themselves
// once it is funded, each leg once under its own nonce; a nonce gap (transactions the chain lost)
// holds up no new order, in-process or after a restart; a transaction stuck underpriced in the
// pool is replaced with higher fees and mined. The test mines the blocks itself (every 200 ms)
// so it can drop transactions from the pool, or hold them there, before a block takes them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { type Service, startService } from '@store/stack/process';
import { payUsdc } from '@store/stack/usdc';
import { asc, eq, inArray } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  type Hash,
  type Hex,
  http,
  multicall3Abi,
  type PublicClient,
  parseAbiItem,
  parseUnits,
  toEventSelector,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { createApp } from '../src/app.ts';
import { MULTICALL3_ADDRESS } from '../src/chain/multicall3.ts';
import { loadWorkerConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { forwardingTransfers, paymentEvents, paymentWallets } from '../src/db/schema.ts';
import { forwardingRetry } from '../src/forwarding-retry.ts';
import { startDetectionLoop } from '../src/worker/detection-loop.ts';
import { startForwardingLoop } from '../src/worker/forwarding-loop.ts';
import { forwardingContext } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import {
  orderOneMug,
  payableUniversalOrder,
  waitForForwarded,
  walletOf,
} from './support/payments.ts';
import { balancesOf, ledgerBreaches, waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const hex = (value: bigint) => `0x${value.toString(16)}`;

let workerDb: Database;
const t = useChainApi({
  confirmations: 2,
  poolSize: 8,
  worker: ({ database }) => {
    workerDb = database.db;
    return { stop: async () => {} };
  },
});

let client: PublicClient;
let relayer: Address;
const rpc = (method: string, params: unknown[] = []) =>
  client.request({ method: method as 'eth_chainId', params: params as never });

/** A relayer transaction in the node's pool. */
interface PoolTx {
  nonce: number;
  hash: Hash;
  maxFeePerGas: bigint;
}

/** The relayer's transactions in the node's pool (pending and queued). */
async function relayerPool(): Promise<PoolTx[]> {
  type Entry = { hash: Hash; nonce: string; maxFeePerGas?: string; gasPrice?: string };
  const content = (await rpc('txpool_content')) as unknown as Record<
    'pending' | 'queued',
    Record<string, Record<string, Entry>>
  >;
  const txs: PoolTx[] = [];
  for (const part of [content.pending, content.queued]) {
    for (const [from, byNonce] of Object.entries(part ?? {})) {
      if (from.toLowerCase() !== relayer.toLowerCase()) continue;
      for (const tx of Object.values(byNonce))
        txs.push({
          nonce: Number(tx.nonce),
          hash: tx.hash,
          maxFeePerGas: BigInt(tx.maxFeePerGas ?? tx.gasPrice ?? 0),
        });
    }
  }
  return txs.sort((a, b) => a.nonce - b.nonce);
}

/**
 * The test's own block producer (anvil's interval mining cannot go below 1 s once stopped): a
 * block every 200 ms, after `hook`, which may act on the pool and return false to hold the block.
 */
function startMiner() {
  let running = true;
  let hook: (() => Promise<boolean>) | undefined;
  const done = (async () => {
    await rpc('evm_setIntervalMining', [0]);
    while (running) {
      const mine = hook ? await hook().catch(() => true) : true;
      if (mine) await rpc('evm_mine').catch(() => {});
      await Bun.sleep(200);
    }
  })();
  return {
    setHook: (next?: () => Promise<boolean>) => {
      hook = next;
    },
    stop: async () => {
      running = false;
      await done;
    },
  };
}
let miner: ReturnType<typeof startMiner>;

/** Relayer settings of the in-process worker: small, so the test sees them act. */
const RELAYER_SETTINGS = {
  checkIntervalMs: 200,
  stuckAfterMs: 1500,
  gapAfterMs: 1000,
  maxWaitMs: 1000,
  lagAlertS: 3,
};

const workerLog: string[] = [];

/** The worker's detection and forwarding loops, in-process, as `startSettlement` wires them. */
function startWorker() {
  const config = loadWorkerConfig({
    ...t.stack.env,
    CONFIRMATIONS: '2',
    FORWARDING_RETRY_BASE_MS: '100',
  });
  const log = (line: string) => workerLog.push(`${(performance.now() / 1000).toFixed(1)} ${line}`);
  const context = forwardingContext(config, workerDb);
  const forwarding = startForwardingLoop({
    ...context,
    retryBaseMs: config.forwardingRetryBaseMs,
    log,
    relayer: RELAYER_SETTINGS,
  });
  const detection = startDetectionLoop({
    db: workerDb,
    chainId: config.chain.chainId,
    confirmations: config.confirmations,
    intervalMs: 100,
    log,
    onPass: (result) => {
      if (result.changes.length > 0) forwarding.wake();
    },
  });
  return {
    stop: async () => {
      await detection.stop();
      await forwarding.stop();
      await context.claims.close();
    },
  };
}

/** The worker as its own process (api/src/worker.ts), for the restart test. */
function startWorkerProcess(): Service {
  return startService(
    'worker',
    process.execPath,
    [new URL('../src/worker.ts', import.meta.url).pathname],
    {
      env: {
        ...t.stack.env,
        // Note: the worker's own role (the stack's DATABASE_URL is the API's), as in production.
        DATABASE_URL: t.stack.databaseUrls.worker,
        CONFIRMATIONS: '2',
        FORWARDING_RETRY_BASE_MS: '100',
        RELAYER_GAP_AFTER_MS: '1000',
        RELAYER_STUCK_AFTER_MS: '1500',
      },
      log: (line) => workerLog.push(`${(performance.now() / 1000).toFixed(1)} process ${line}`),
    },
  );
}

/** A universal order paying out to a fresh address. */
async function universalOrder(total: string) {
  const payout = freshAddress();
  const order = await payableUniversalOrder(t.shopper, {
    total,
    payout,
    storeName: 'Relayer Shop',
  });
  return { ...order, payout, amount: usdc(total) };
}

/** A store order (10.80) whose owner can read its forwarding. */
async function storeOrder() {
  const owner = await newMerchant(t.app, 'relayer');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  const { orderId } = await orderOneMug(owner, t.shopper, store.id);
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  const address = wallet.body.paymentWallet.address as Address;
  return { owner, orderId, address, payout, amount: usdc('10.80') };
}

type Order = { orderId: string; address: Address; payout: Address; amount: bigint };

const forwarded = (orderId: string, timeoutMs = 20_000) =>
  waitForForwarded(t.database.db, orderId, timeoutMs);

const authorizationUsed = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);
const transferEvent = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

/**
 * On the chain: the order's deposit address sent exactly merchant + fee (to the payout and the
 * treasury) and nothing else, the payout holds the merchant share and the address is empty.
 */
async function expectSentMerchantAndFee(order: Order) {
  const treasury = t.stack.env.TREASURY_ADDRESS as Address;
  const { merchant, fee } = splitFee(order.amount);
  const out = await client.getLogs({
    address: t.stack.env.USDC_ADDRESS as Address,
    event: transferEvent,
    args: { from: order.address },
    fromBlock: 0n,
  });
  expect(out.map((l) => [l.args.to?.toLowerCase(), l.args.value]).sort()).toEqual(
    [
      [order.payout.toLowerCase(), merchant],
      [treasury.toLowerCase(), fee],
    ].sort(),
  );
  expect((await balancesOf(t.stack.env, order.payout)).usdc).toBe(merchant);
  expect((await balancesOf(t.stack.env, order.address)).usdc).toBe(0n);
}

/**
 * On the chain and in the legs table: each deposit address sent exactly merchant + fee (to the
 * payout and the treasury), each authorization was used once, each leg's transaction is the one
 * mined at its own relayer nonce, and no two legs share a relayer nonce.
 */
async function expectPaidOnce(orders: readonly Order[]) {
  const token = t.stack.env.USDC_ADDRESS as Address;
  const wallets = await Promise.all(orders.map((o) => walletOf(t.database.db, o.orderId)));
  const legs = await t.database.db
    .select()
    .from(forwardingTransfers)
    .where(
      inArray(
        forwardingTransfers.walletId,
        wallets.map((w) => w.id),
      ),
    )
    .orderBy(asc(forwardingTransfers.txNonce));
  for (const [i, order] of orders.entries()) {
    await expectSentMerchantAndFee(order);
    const used = await client.getLogs({
      address: token,
      event: authorizationUsed,
      args: { authorizer: order.address },
      fromBlock: 0n,
    });
    const mine = legs.filter((l) => l.walletId === wallets[i]?.id);
    expect(used.map((l) => l.args.nonce as string).sort()).toEqual(
      mine.map((l) => l.authorizationNonce as string).sort(),
    );
  }
  for (const leg of legs) {
    expect(leg.status).toBe('confirmed');
    const tx = await client.getTransaction({ hash: leg.txHash as Hash });
    expect(tx.from.toLowerCase()).toBe(relayer.toLowerCase());
    expect(tx.nonce).toBe(leg.txNonce as number);
  }
  // Note: the legs of one batch share its transaction, and so its nonce; no two transactions do.
  const hashesByNonce = new Map<number | null, Set<string | null>>();
  for (const leg of legs)
    hashesByNonce.set(leg.txNonce, (hashesByNonce.get(leg.txNonce) ?? new Set()).add(leg.txHash));
  for (const hashes of hashesByNonce.values()) expect(hashes.size).toBe(1);
}

beforeAll(() => {
  client = createPublicClient({
    chain: foundry,
    transport: http(t.stack.env.RPC_URL),
    cacheTime: 0,
  }) as PublicClient;
  relayer = t.stack.env.RELAYER_ADDRESS as Address;
  miner = startMiner();
});

afterAll(async () => {
  await miner?.stop();
}, 30_000);

describe('a relayer out of ETH', () => {
  test('orders wait for it (never failed, never counted) and go by themselves once it is funded', async () => {
    const worker = startWorker();
    const funded = await client.getBalance({ address: relayer });
    try {
      await rpc('anvil_setBalance', [relayer, '0x0']);
      const store = await storeOrder();
      const universal = await universalOrder('5.00');
      await payUsdc(t.stack.env, 1, store.address, store.amount);
      await payUsdc(t.stack.env, 2, universal.address, universal.amount);
      const paidAt = performance.now();

      await waitUntil(async () => {
        const rows = await Promise.all(
          [store, universal].map((o) => walletOf(t.database.db, o.orderId)),
        );
        return rows.every((w) => w.forwardingStatus === 'waiting_relayer');
      }, 'both orders to wait for the relayer');
      // However long it lasts (here 10 s, retries every 100 ms to 1 s), nothing fails; and a
      // refused transaction leaves no record, so no two transactions ever hold the same relayer
      // nonce (the legs of one batch share its transaction, and so its nonce).
      const legsOf = () =>
        t.database.db
          .select({
            id: forwardingTransfers.id,
            txNonce: forwardingTransfers.txNonce,
            txHash: forwardingTransfers.txHash,
          })
          .from(forwardingTransfers)
          .innerJoin(paymentWallets, eq(paymentWallets.id, forwardingTransfers.walletId))
          .where(inArray(paymentWallets.orderId, [store.orderId, universal.orderId]));
      while (performance.now() - paidAt < 10_000) {
        for (const order of [store, universal]) {
          const wallet = await walletOf(t.database.db, order.orderId);
          expect(wallet.forwardingStatus).toBe('waiting_relayer');
          expect(wallet.forwardingRetryCount).toBe(0);
          expect(wallet.forwardingError).toMatch(
            /^waiting for relayer: the relayer is out of ETH for gas \(insufficient funds/,
          );
        }
        const held = (await legsOf()).flatMap((l) => (l.txNonce === null ? [] : [l]));
        const nonces = new Set(held.map((l) => l.txNonce));
        expect(new Set(held.map((l) => `${l.txNonce} ${l.txHash}`)).size).toBe(nonces.size);
        await Bun.sleep(250);
      }
      expect(await legsOf()).toHaveLength(4);
      const view = await store.owner.api.get(`/api/orders/${store.orderId}/forwarding`);
      expect(view.body).toMatchObject({ status: 'waiting_relayer', retryCount: 0 });
      expect(view.body.lastError).toMatch(/^waiting for relayer: the relayer is out of ETH/);

      // Health says so, with one line per alert; ok (the product still takes payments) stays.
      const health = await apiClient(
        createApp({
          db: t.database.db,
          config: { ...t.config, forwardingLagAlertS: 3 },
          chain: client,
        }),
      ).get('/api/health');
      expect(health.status).toBe(200);
      expect(health.body.ok).toBe(true);
      expect(health.body.settlement.relayer).toMatchObject({
        address: relayer,
        balanceWei: '0',
        belowThreshold: true,
        waitingWallets: 2,
      });
      expect(health.body.settlement.relayer.oldestForwardingLagSeconds).toBeGreaterThan(3);
      expect(health.body.alerts).toEqual([
        expect.stringMatching(/^relayer 0x\w+ holds 0 ETH, below [\d.]+ ETH \(50 forwards/),
        '2 paid order(s) waiting for the relayer to forward them',
        expect.stringMatching(
          /^the oldest paid order has waited \d+ s to be forwarded \(alert above 3 s\)$/,
        ),
      ]);
      // The worker said it once per crossing, not on every pass.
      expect(workerLog.filter((l) => / ALERT relayer .* holds 0 ETH/.test(l))).toHaveLength(1);
      expect(workerLog.filter((l) => / ALERT 2 paid order/.test(l)).length).toBeLessThanOrEqual(1);

      await rpc('anvil_setBalance', [relayer, hex(funded)]);
      const fundedAt = performance.now();
      await Promise.all([forwarded(store.orderId), forwarded(universal.orderId)]);
      const recovery = performance.now() - fundedAt;
      console.log(
        `out of ETH: orders waited ${((fundedAt - paidAt) / 1000).toFixed(1)} s unfailed; ` +
          `both forwarded ${(recovery / 1000).toFixed(1)} s after funding`,
      );
      expect(recovery).toBeLessThan(10_000);
      await expectPaidOnce([store, universal]);
      await waitUntil(
        () => workerLog.some((l) => / alert cleared: balance/.test(l)),
        'the balance alert to clear',
      );
    } finally {
      await rpc('anvil_setBalance', [relayer, hex(funded)]);
      await worker.stop();
    }
  }, 90_000);
});

describe('a nonce gap: the chain lost relayer transactions', () => {
  /**
   * Drops the next `count` relayer transactions from the pool before a block takes them; with
   * `spikeMs`, the base fee then stays at 3× their fee cap that long (the same bytes cannot go
   * out again: the gap must be filled with a transaction signed anew, or replaced).
   */
  function dropNext(count: number, spikeMs = 0) {
    const dropped: PoolTx[] = [];
    const seen = new Set<string>();
    let spike = { fee: 0n, until: 0 };
    miner.setHook(async () => {
      for (const tx of dropped.length < count ? await relayerPool() : []) {
        if (seen.has(tx.hash) || dropped.length >= count) continue;
        seen.add(tx.hash);
        await rpc('anvil_dropTransaction', [tx.hash]);
        dropped.push(tx);
        if (spikeMs && !spike.fee)
          spike = { fee: tx.maxFeePerGas * 3n, until: performance.now() + spikeMs };
      }
      if (spike.fee && performance.now() < spike.until)
        await rpc('anvil_setNextBlockBaseFeePerGas', [hex(spike.fee)]);
      return true;
    });
    return dropped;
  }

  test('in a fee spike: new orders forward within seconds, not behind the gap; none fails', async () => {
    const worker = startWorker();
    try {
      const first = await universalOrder('3.00');
      // Note: the round's two legs go out in one relayer transaction (a batch).
      const dropped = dropNext(1, 6000);
      await payUsdc(t.stack.env, 3, first.address, first.amount);
      await waitUntil(() => dropped.length >= 1, "the round's relayer transaction dropped");
      const later = [await universalOrder('4.00'), await universalOrder('6.00')];
      const started = performance.now();
      await payUsdc(t.stack.env, 4, later[0]?.address as Address, usdc('4.00'));
      await payUsdc(t.stack.env, 5, later[1]?.address as Address, usdc('6.00'));
      const orders = [first, ...later];
      await waitUntil(
        async () => {
          const wallets = await Promise.all(orders.map((o) => walletOf(t.database.db, o.orderId)));
          expect(wallets.map((w) => w.forwardingStatus)).not.toContain('failed');
          return wallets.every((w) => w.forwardingStatus === 'completed');
        },
        'the first order and the new ones to forward',
        15_000,
      );
      const took = performance.now() - started;
      console.log(
        `nonce gap in a fee spike (dropped nonces ${dropped.map((d) => d.nonce)}): the first ` +
          `order and two new ones forwarded ${(took / 1000).toFixed(1)} s after the new payments`,
      );
      await expectPaidOnce(orders);
      for (const order of orders)
        expect((await walletOf(t.database.db, order.orderId)).forwardingRetryCount).toBe(0);
    } finally {
      miner.setHook(undefined);
      await worker.stop();
    }
  }, 90_000);

  test('a worker killed with transactions lost recovers after its restart', async () => {
    const doomed = startWorkerProcess();
    let restarted: Service | undefined;
    try {
      const first = await universalOrder('2.50');
      const dropped = dropNext(1);
      await payUsdc(t.stack.env, 6, first.address, first.amount);
      await waitUntil(() => dropped.length >= 1, "the round's relayer transaction dropped", 30_000);
      process.kill(doomed.pid, 'SIGKILL');
      await doomed.exited;
      miner.setHook(undefined);
      const later = await universalOrder('7.00');
      await payUsdc(t.stack.env, 7, later.address, later.amount);
      restarted = startWorkerProcess();
      const started = performance.now();
      await Promise.all([first, later].map((o) => forwarded(o.orderId, 20_000)));
      console.log(
        `restart: both orders forwarded ${((performance.now() - started) / 1000).toFixed(1)} s ` +
          'after the worker restarted',
      );
      await expectPaidOnce([first, later]);
    } finally {
      miner.setHook(undefined);
      await doomed.stop();
      await restarted?.stop();
    }
  }, 90_000);
});

describe('a relayer transaction stuck underpriced in the pool', () => {
  test('is replaced at the same nonce with higher fees and mined', async () => {
    const worker = startWorker();
    try {
      const order = await universalOrder('8.00');
      // Blocks are held while the relayer's transactions sit in the pool, and the next block's
      // base fee is raised above their fee cap (anvil would drop them at that block).
      const original = new Map<number, PoolTx>();
      let released = false;
      let heldSince = 0;
      miner.setHook(async () => {
        if (released) return true;
        const pool = await relayerPool();
        for (const tx of pool) if (!original.has(tx.nonce)) original.set(tx.nonce, tx);
        if (original.size === 0) return true;
        if (!heldSince) {
          heldSince = performance.now();
          const lowest = Math.min(...[...original.values()].map((tx) => Number(tx.maxFeePerGas)));
          await rpc('anvil_setNextBlockBaseFeePerGas', [hex((BigInt(lowest) * 11n) / 10n)]);
        }
        const replaced = [...original.values()].every((tx) =>
          pool.some((p) => p.nonce === tx.nonce && p.hash !== tx.hash),
        );
        // Note: the round's two legs are one relayer transaction (a batch).
        released = (original.size >= 1 && replaced) || performance.now() - heldSince > 15_000;
        return released;
      });
      await payUsdc(t.stack.env, 8, order.address, order.amount);
      await waitUntil(() => released, 'the stuck transactions to be replaced', 40_000);
      const heldFor = performance.now() - heldSince;
      await forwarded(order.orderId, 20_000);
      console.log(
        `stuck: ${original.size} transactions replaced ${(heldFor / 1000).toFixed(1)} s after ` +
          'they entered the pool, then mined',
      );
      expect(heldFor).toBeLessThan(15_000);
      const wallet = await walletOf(t.database.db, order.orderId);
      const legs = await t.database.db
        .select()
        .from(forwardingTransfers)
        .where(eq(forwardingTransfers.walletId, wallet.id));
      expect(legs).toHaveLength(2);
      for (const leg of legs) {
        const before = original.get(leg.txNonce as number);
        expect(before).toBeDefined();
        const mined = await client.getTransaction({ hash: leg.txHash as Hash });
        expect(mined.hash).not.toBe(before?.hash as Hash);
        expect(mined.nonce).toBe(before?.nonce as number);
        expect(mined.maxFeePerGas ?? 0n).toBeGreaterThanOrEqual(
          ((before?.maxFeePerGas ?? 0n) * 12n) / 10n,
        );
      }
      expect(
        workerLog.some((l) => /relayer: nonce \d+ stuck in the pool .* replaced/.test(l)),
      ).toBe(true);
      await expectPaidOnce([order]);
    } finally {
      miner.setHook(undefined);
      await worker.stop();
    }
  }, 90_000);
});

describe('legs of many payments in one relayer transaction (a batch)', () => {
  test('a call of the batch that fails (its authorization used first by someone else) fails alone: the others pay in it, that leg once by the other transaction', async () => {
    const worker = startWorker();
    const token = t.stack.env.USDC_ADDRESS as Address;
    const stranger = privateKeyToAccount(generatePrivateKey());
    await rpc('anvil_setBalance', [stranger.address, hex(10n ** 18n)]);
    const strangerWallet = createWalletClient({
      account: stranger,
      chain: foundry,
      transport: http(t.stack.env.RPC_URL),
    });
    try {
      // Anyone who sees a signed authorization may submit it: the hook does, for the first call
      // of the first batch in the pool, with a higher tip so the block takes it first.
      let batch: { hash: Hash; calls: readonly Hex[] } | undefined;
      let frontRun: Hash | undefined;
      miner.setHook(async () => {
        if (frontRun) return true;
        for (const pooled of await relayerPool()) {
          const tx = await client.getTransaction({ hash: pooled.hash });
          if (tx.to?.toLowerCase() !== MULTICALL3_ADDRESS.toLowerCase()) continue;
          const { args } = decodeFunctionData({ abi: multicall3Abi, data: tx.input });
          const calls = (args[0] as readonly { callData: Hex }[]).map((c) => c.callData);
          batch = { hash: tx.hash, calls };
          frontRun = await strangerWallet.sendTransaction({
            to: token,
            data: calls[0] as Hex,
            gas: 200_000n,
            maxFeePerGas: (tx.maxFeePerGas ?? 0n) * 20n + 10n ** 9n,
            maxPriorityFeePerGas: (tx.maxPriorityFeePerGas ?? 0n) * 20n + 10n ** 9n,
          });
          break;
        }
        return true;
      });
      const orders = [await universalOrder('2.00'), await universalOrder('3.00')];
      await Promise.all(
        orders.map((order, i) => payUsdc(t.stack.env, 1 + i, order.address, order.amount)),
      );
      await Promise.all(orders.map((order) => forwarded(order.orderId, 30_000)));
      const taken = batch as { hash: Hash; calls: readonly Hex[] };
      expect(taken.calls.length).toBeGreaterThanOrEqual(2);
      const mined = await client.getTransactionReceipt({ hash: taken.hash });
      const ahead = await client.getTransactionReceipt({ hash: frontRun as Hash });
      // The stranger's transaction paid that one authorization; the batch succeeded with every
      // other call paying (one event each), the first call failing alone.
      expect(ahead.status).toBe('success');
      expect(mined.status).toBe('success');
      const usedIn = (receipt: typeof mined) =>
        receipt.logs.filter(
          (l) =>
            l.address.toLowerCase() === token.toLowerCase() &&
            l.topics[0] === toEventSelector(authorizationUsed),
        ).length;
      expect(usedIn(ahead)).toBe(1);
      expect(usedIn(mined)).toBe(taken.calls.length - 1);

      // Each order paid exactly once: its deposit address sent merchant + fee, and nothing else.
      for (const order of orders) {
        await expectSentMerchantAndFee(order);
        const wallet = await walletOf(t.database.db, order.orderId);
        expect(wallet.forwardingRetryCount).toBe(0);
      }
      // The legs read the transaction that paid each of them; those the batch paid carry an equal
      // part of its gas, not all of it.
      const wallets = await Promise.all(orders.map((o) => walletOf(t.database.db, o.orderId)));
      const legs = await t.database.db
        .select()
        .from(forwardingTransfers)
        .where(
          inArray(
            forwardingTransfers.walletId,
            wallets.map((w) => w.id),
          ),
        );
      const cost = mined.gasUsed * mined.effectiveGasPrice;
      const share = cost / BigInt(taken.calls.length);
      const inBatch = legs.filter((l) => l.txHash === taken.hash);
      const byStranger = legs.filter((l) => l.txHash === frontRun);
      expect(byStranger).toHaveLength(1);
      expect(inBatch.length).toBeGreaterThanOrEqual(1);
      expect(inBatch.length + byStranger.length).toBeLessThanOrEqual(legs.length);
      for (const leg of inBatch) {
        expect(leg.status).toBe('confirmed');
        expect(BigInt(leg.gasCostWei ?? 0) - share).toBeGreaterThanOrEqual(0n);
        expect(BigInt(leg.gasCostWei ?? 0) - share).toBeLessThanOrEqual(1n);
      }
      // The failed call is on record as that leg's revert, with its part of the batch's gas.
      const reverted = await t.database.db
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.walletId, byStranger[0]?.walletId as string));
      const note = reverted
        .map((e) => e.details as Record<string, unknown> | null)
        .find((d) => d?.legReverted === true);
      expect(note).toMatchObject({ txHash: taken.hash });
      expect(BigInt(String(note?.gasCostWei)) - share).toBeLessThanOrEqual(1n);
    } finally {
      miner.setHook(undefined);
      await worker.stop();
    }
  }, 90_000);
});

describe("the operator's retry (bun run forwarding:retry)", () => {
  test('resets a failed or waiting wallet so the worker takes it now; refuses anything else', async () => {
    const failed = await universalOrder('1.00');
    const waiting = await universalOrder('1.00');
    const other = await universalOrder('1.00');
    const set = (orderId: string, fields: Partial<typeof paymentWallets.$inferInsert>) =>
      t.database.db.update(paymentWallets).set(fields).where(eq(paymentWallets.orderId, orderId));
    const later = new Date(Date.now() + 3_600_000);
    await set(failed.orderId, {
      forwardingStatus: 'failed',
      forwardingRetryCount: 6,
      forwardingError: 'FiatToken: account is blacklisted',
      forwardingNextAttemptAt: later,
    });
    await set(waiting.orderId, {
      forwardingStatus: 'waiting_relayer',
      forwardingNextAttemptAt: later,
    });
    const lines: string[] = [];
    const run = (...args: string[]) =>
      forwardingRetry(args, t.stack.databaseUrls.worker, (line) => lines.push(line));

    expect(await run(failed.orderId)).toBe(0);
    expect(lines.at(-1)).toMatch(/reset \(was 'failed' after 6 attempt\(s\): FiatToken/);
    const reset = await walletOf(t.database.db, failed.orderId);
    expect(reset).toMatchObject({ forwardingStatus: 'retrying', forwardingRetryCount: 0 });
    expect(reset.forwardingNextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now());

    expect(await run(other.orderId)).toBe(1);
    expect(lines.at(-1)).toMatch(/is 'none', not failed or waiting for the relayer/);
    expect(await run('--all-failed')).toBe(0);
    expect(lines.at(-1)).toBe('forwarding:retry: 1 wallet(s) reset; the worker forwards them now');
    expect((await walletOf(t.database.db, waiting.orderId)).forwardingStatus).toBe('retrying');
    expect(await run()).toBe(2);
    expect(await run('not-an-order')).toBe(2);
    expect(lines.at(-1)).toBe('usage: bun run forwarding:retry <orderId|--all-failed>');
  });
});

test('the ledger holds, and no worker pass failed', async () => {
  if (process.env.RELAYER_TEST_LOG) console.log(workerLog.join('\n'));
  expect(await ledgerBreaches(t.database.db)).toEqual([]);
  expect(workerLog.filter((line) => /pass failed/.test(line))).toEqual([]);
});
