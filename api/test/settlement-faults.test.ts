// Money under faults, on the real chain with TWO workers running at once the whole time: orders
// paid together are each forwarded once with no false failure; a reorg below the depth that drops a
// forwarding leg gets it sent again (a round is final only at depth); a reorg deeper than the depth
// that removes a payment reverses the order loudly. Every check reads the chain's own logs.
import { afterAll, describe, expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { chainLedger } from '@store/stack/chain-ledger';
import { waitForIndexerBlock } from '@store/stack/indexer';
import { payUsdc } from '@store/stack/usdc';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Address, createPublicClient, type Hash, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { loadWorkerConfig } from '../src/config.ts';
import { createDatabase } from '../src/db/client.ts';
import { forwardingTransfers, orders, refunds } from '../src/db/schema.ts';
import { forwardWallet } from '../src/payments/forwarding.ts';
import { forwardingContext, startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import {
  payableUniversalOrder,
  paymentStatus,
  waitForForwarded,
  walletOf,
} from './support/payments.ts';
import { balancesOf, waitUntil, webhookReceiver } from './support/settlement.ts';

const CONFIRMATIONS = 10;
const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const workerConfig = (env: object) =>
  loadWorkerConfig({
    ...env,
    CONFIRMATIONS: String(CONFIRMATIONS),
    FORWARDING_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_BASE_MS: '100',
    DETECTION_RECONCILE_MS: '500',
  });

const receiver = webhookReceiver();
const workerLogs: string[][] = [[], []];
const t = useChainApi({
  confirmations: CONFIRMATIONS,
  poolSize: 8,
  worker: ({ stack, database }) => {
    const config = workerConfig(stack.env);
    // Two workers on two pools, as two replicas would run: nothing may be planned twice.
    const second = createDatabase(stack.databaseUrls.worker, { max: 6 });
    const workers = [database.db, second.db].map((db, i) =>
      startSettlement(config, db, { log: (line) => workerLogs[i]?.push(line) }),
    );
    return {
      stop: async () => {
        await Promise.all(workers.map((w) => w.stop()));
        await second.close();
      },
    };
  },
});
afterAll(() => {
  receiver.stop();
});

const rpc = () => createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });

/** A universal order paying out to `payout`, with webhooks to the local receiver. */
const universalOrder = (total: string, payout: Address) =>
  payableUniversalOrder(t.shopper, {
    total,
    payout,
    webhookUrl: receiver.url,
    storeName: 'Fault Shop',
  });

const forwarded = (orderId: string, timeoutMs = 30_000) =>
  waitForForwarded(t.database.db, orderId, timeoutMs);

const eventsOf = (orderId: string, type: string) =>
  receiver.received.filter((r) => {
    const body = JSON.parse(r.body);
    return body.orderId === orderId && body.type === type;
  });

/** Replaces the last `depth` blocks with empty ones (anvil drops their transactions). */
async function reorg(depth: number) {
  await rpc().request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
}

/**
 * Waits until the indexer has the chain's head. Note: after a reorg Ponder can stall until its
 * watchdog restarts it (20 s without progress); a payment made meanwhile would take that long to
 * reach its depth, and a reorg of it would then reach past what the indexer can follow.
 */
async function indexerAtHead() {
  const head = await rpc().getBlockNumber({ cacheTime: 0 });
  if (!(await waitForIndexerBlock(t.stack.env.INDEXER_URL, head, 60_000)))
    throw new Error(`the indexer did not reach block ${head}`);
}

async function expectChainLedgerHolds() {
  const ledger = await chainLedger(t.stack.env, t.database.db);
  expect(ledger.breaches).toEqual([]);
  expect(ledger.authorizationsUsedTwice).toEqual([]);
  return ledger;
}

describe('two workers at once', () => {
  test('orders paid together are each forwarded once, none falsely failed', async () => {
    const payouts = Array.from({ length: 8 }, freshAddress);
    const placed = [];
    for (const payout of payouts) placed.push(await universalOrder('3.00', payout));
    // Note: eight test accounts, so the shoppers' own nonces never collide.
    await Promise.all(
      placed.map(({ address }, i) => payUsdc(t.stack.env, 1 + i, address, usdc('3.00'))),
    );
    // A worker that listed a wallet before another forwarded it must not plan a second round
    // from its stale row (that was a false `failed`): it claims the wallet and reads it afresh.
    const [first] = placed;
    const stale = await waitUntil(async () => {
      const wallet = await walletOf(t.database.db, first?.orderId ?? '');
      return wallet.status === 'received' && wallet.forwardedAmountUsdc === '0.000000' && wallet;
    }, 'a wallet listed before its forwarding');
    for (const { orderId } of placed) await forwarded(orderId);
    const lateWorker = forwardingContext(workerConfig(t.stack.env), t.workerDatabase.db);
    expect(await forwardWallet(lateWorker, stale)).toBe(false);
    await lateWorker.claims.close();
    for (const payout of payouts)
      expect((await balancesOf(t.stack.env, payout)).usdc).toBe(splitFee(usdc('3.00')).merchant);
    const statuses = await t.database.db.execute<{ status: string; rounds: number }>(sql`
      select w.forwarding_status as status,
        (select count(distinct round)::int from forwarding_transfers f where f.wallet_id = w.id) as rounds
      from payment_wallets w where w.order_id in ${placed.map((p) => p.orderId)}`);
    expect(statuses.map((s) => s.status)).toEqual(placed.map(() => 'completed'));
    expect(statuses.map((s) => s.rounds)).toEqual(placed.map(() => 1));
    for (const { orderId } of placed) {
      await waitUntil(() => eventsOf(orderId, 'order.forwarded').length > 0, 'order.forwarded');
      expect(eventsOf(orderId, 'order.forwarded')).toHaveLength(1);
    }
    await expectChainLedgerHolds();
  }, 90_000);
});

describe('a reorg below the depth drops a forwarding leg', () => {
  test('the leg is sent again and the round completes only at depth; paid once', async () => {
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('5.00', payout);
    await payUsdc(t.stack.env, 2, address, usdc('5.00'));
    const wallet = await waitUntil(async () => {
      const w = await walletOf(t.database.db, orderId);
      return w.status === 'received' && w;
    }, 'the payment at depth');
    // The first leg mined: take its block away before it is CONFIRMATIONS deep.
    const minedAt = await waitUntil(
      async () => {
        const legs = await t.database.db
          .select()
          .from(forwardingTransfers)
          .where(eq(forwardingTransfers.walletId, wallet.id));
        for (const leg of legs) {
          if (!leg.txHash) continue;
          const receipt = await rpc()
            .getTransactionReceipt({ hash: leg.txHash as Hash })
            .catch(() => null);
          if (receipt) return receipt.blockNumber;
        }
        return undefined;
      },
      'a mined forwarding leg',
      15_000,
    );
    // Long enough for a worker that takes a round as final on its first receipt to record it.
    await Bun.sleep(600);
    const head = await rpc().getBlockNumber();
    const depth = Number(head - minedAt) + 1;
    expect(depth).toBeLessThan(CONFIRMATIONS);
    await reorg(depth);
    const done = await forwarded(orderId).catch((error) => {
      console.log(workerLogs.flat().slice(-30).join('\n'));
      throw error;
    });
    const { merchant, fee } = splitFee(usdc('5.00'));
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(merchant);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(0n);
    expect(done.forwardedAmountUsdc).toBe('5.000000');
    // Final only at depth: the legs the round recorded are CONFIRMATIONS deep on today's chain.
    const legs = await t.database.db
      .select()
      .from(forwardingTransfers)
      .where(eq(forwardingTransfers.walletId, wallet.id));
    expect(legs.map((l) => l.status)).toEqual(legs.map(() => 'confirmed'));
    expect(legs.reduce((sum, l) => sum + BigInt(l.value), 0n)).toBe(merchant + fee);
    for (const leg of legs) {
      const receipt = await rpc().getTransactionReceipt({ hash: leg.txHash as Hash });
      expect(receipt.status).toBe('success');
    }
    await waitUntil(() => eventsOf(orderId, 'order.forwarded').length > 0, 'order.forwarded');
    await Bun.sleep(1000);
    expect(eventsOf(orderId, 'order.forwarded')).toHaveLength(1);
    await expectChainLedgerHolds();
  }, 90_000);
});

describe('a reorg deeper than the depth removes a payment', () => {
  test('the order is reversed, the merchant and the shopper are told, nothing is forwarded', async () => {
    await indexerAtHead();
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('7.00', payout);
    const { blockNumber } = await payUsdc(t.stack.env, 3, address, usdc('7.00'));
    await waitUntil(
      async () => (await walletOf(t.database.db, orderId)).status === 'received',
      'the payment at depth',
    );
    const head = await rpc().getBlockNumber();
    const depth = Number(head - blockNumber) + 1;
    expect(depth).toBeGreaterThanOrEqual(CONFIRMATIONS);
    await reorg(depth);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(0n);

    const wallet = await waitUntil(
      async () => {
        const w = await walletOf(t.database.db, orderId);
        return w.status === 'reversed' && w;
      },
      'the reversal',
      20_000,
    );
    expect(wallet.receivedAmountUsdc).toBe('0.000000');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('reversed');
    const status = await paymentStatus(t.shopper, orderId);
    expect(status).toMatchObject({ status: 'reversed', paymentDetected: false });
    await waitUntil(
      () => eventsOf(orderId, 'order.payment_reversed').length > 0,
      'order.payment_reversed',
    );
    const [reversed] = eventsOf(orderId, 'order.payment_reversed');
    expect(JSON.parse(reversed?.body ?? '{}')).toMatchObject({
      status: 'reversed',
      paymentStatus: 'reversed',
    });
    // The operator sees it in the health report.
    const { body: health } = await t.shopper.get('/api/health');
    expect(health.settlement.reversals.open).toBeGreaterThanOrEqual(1);
    expect(health.alerts.join('\n')).toMatch(/reversed: a reorg removed their payment/);
    // Nothing of a payment that no longer exists is forwarded, now or later.
    await Bun.sleep(1500);
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(0n);
    expect((await walletOf(t.database.db, orderId)).forwardedAmountUsdc).toBe('0.000000');
    await expectChainLedgerHolds();
  }, 150_000);
});

describe('a reorg deeper than the depth removes an overpayment', () => {
  test('the excess held for the payer is withdrawn: nobody is asked to claim money that is gone', async () => {
    await indexerAtHead();
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('7.00', payout);
    const { blockNumber } = await payUsdc(t.stack.env, 5, address, usdc('7.50'));
    const held = await waitUntil(async () => {
      const [row] = await t.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
      return row?.status === 'awaiting_address' && row;
    }, 'the excess held for the payer');
    expect(held.amount).toBe(usdc('0.50').toString());
    const head = await rpc().getBlockNumber();
    await reorg(Number(head - blockNumber) + 1);
    await waitUntil(
      async () => (await walletOf(t.database.db, orderId)).status === 'reversed',
      'the reversal',
      45_000,
    );
    const [after] = await t.database.db.select().from(refunds).where(eq(refunds.id, held.id));
    expect(after?.status).toBe('canceled');
    expect(after?.lastError).toBe('A chain reorganization took the payment away');
    await expectChainLedgerHolds();
  }, 150_000);
});

describe('a reorg deeper than the depth takes a completed forwarding back', () => {
  test('reconciliation with the chain reopens the legs and they are sent again, paid once', async () => {
    await indexerAtHead();
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('4.00', payout);
    const { blockNumber: paidAt } = await payUsdc(t.stack.env, 4, address, usdc('4.00'));
    const wallet = await forwarded(orderId);
    const legs = await t.database.db
      .select()
      .from(forwardingTransfers)
      .where(eq(forwardingTransfers.walletId, wallet.id));
    const firstLeg = legs.reduce(
      (min, leg) => (BigInt(leg.blockNumber ?? 0) < min ? BigInt(leg.blockNumber ?? 0) : min),
      BigInt(Number.MAX_SAFE_INTEGER),
    );
    const head = await rpc().getBlockNumber();
    const depth = Number(head - firstLeg) + 1;
    expect(depth).toBeGreaterThanOrEqual(CONFIRMATIONS);
    // The payment itself stays: only the forwarding's blocks are replaced.
    expect(Number(head - paidAt) + 1).toBeGreaterThan(depth);
    await reorg(depth);
    expect((await balancesOf(t.stack.env, address)).usdc).toBe(usdc('4.00'));
    await waitUntil(
      async () => (await balancesOf(t.stack.env, address)).usdc === 0n,
      'the legs sent again',
      30_000,
    );
    const again = await forwarded(orderId);
    expect(again.forwardedAmountUsdc).toBe('4.000000');
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(splitFee(usdc('4.00')).merchant);
    await expectChainLedgerHolds();
  }, 150_000);
});

describe('an indexer that forgets a payment (a restart drops its latest rows for a while)', () => {
  test('does not reverse an order whose payment is still on the chain', async () => {
    const payout = freshAddress();
    const { orderId, address } = await universalOrder('3.00', payout);
    await payUsdc(t.stack.env, 5, address, usdc('3.00'));
    await waitUntil(
      async () => (await walletOf(t.database.db, orderId)).status === 'received',
      'the payment at depth',
    );
    const admin = postgres(t.stack.adminDatabaseUrl, { max: 1, onnotice: () => {} });
    try {
      // Note: as Ponder's crash recovery does it, without firing Ponder's live-query triggers.
      await admin.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`delete from indexer.transfer where "to" = ${address.toLowerCase()}`;
      });
    } finally {
      await admin.end({ timeout: 5 });
    }
    // Several full detection passes (every 500 ms here) see less than the order's amount.
    await Bun.sleep(2500);
    expect((await walletOf(t.database.db, orderId)).status).toBe('received');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('paid');
    expect(eventsOf(orderId, 'order.payment_reversed')).toHaveLength(0);
  }, 60_000);
});
