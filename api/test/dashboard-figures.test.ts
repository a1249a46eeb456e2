// One set of figures, on the real stack (Postgres, anvil with Circle's USDC, the indexer and the
// worker's loops): a store holding a paid, an underpaid, an overpaid, a late (paid after its
// window) and a refunded (from the payout wallet) order shows the same numbers on its dashboard
// (the store's 30-day revenue, the charts' received, orders paid and refunded,
// the merchant's all-store charts, the payouts page) as in its accounting export and the order
// list, and those equal the chain's transfers to the base unit. An underpaid order is no order paid.
import { describe, expect, test } from 'bun:test';
import { formatUsdc, formatUsdcFull } from '@store/shared';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hash,
  http,
  parseEventLogs,
  parseUnits,
} from 'viem';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { orders, refunds } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import {
  buyer,
  orderOneMug,
  waitForForwarded,
  waitForWalletState,
  walletOf,
} from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);

const t = useChainApi({
  confirmations: 1,
  poolSize: 4,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({ ...stack.env, CONFIRMATIONS: '1', FORWARDING_RETRY_BASE_MS: '100' }),
      database.db,
      { log: () => {} },
    ),
});

/** The value a transaction moved to `to`, read from its USDC Transfer logs on the chain. */
async function chainValueTo(hash: Hash, to: Address): Promise<bigint> {
  const client = createPublicClient({ transport: http(t.stack.env.RPC_URL) });
  const receipt = await client.getTransactionReceipt({ hash });
  return parseEventLogs({ abi: usdcAbi, logs: receipt.logs, eventName: 'Transfer' })
    .filter((log) => (log.args as { to: Address }).to.toLowerCase() === to.toLowerCase())
    .reduce((sum, log) => sum + (log.args as { value: bigint }).value, 0n);
}

/** Today's accounting CSV of the store as rows of named fields (no field holds a comma). */
async function csvRows(cookie: string, storeId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const response = await t.app.handle(
    new Request(
      `http://localhost/api/stores/${storeId}/money-movements/csv?from=${today}&to=${today}`,
      { headers: { cookie } },
    ),
  );
  expect(response.status).toBe(200);
  const [head = '', ...lines] = (await response.text()).split('\r\n').filter(Boolean);
  const names = head.split(',');
  return lines.map((line) => {
    const values = line.split(',');
    return Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
  });
}

describe('the dashboard', () => {
  test('shows the figures of the analytics views and the export for paid, underpaid, overpaid, late and refunded orders', async () => {
    // The payout wallet is an anvil account the test sends the merchant's refund from.
    const payout = getAddress(localAccount(8).address);
    const owner = await newMerchant(t.app, 'figures');
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout })))
      .body as { id: string };
    // Three orders of 10.80 (a 10.00 mug with 8% tax): paid exactly, underpaid, overpaid.
    const paid = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const under = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const over = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const depositOf = async (orderId: string) =>
      (
        await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
          paymentChain: 'base',
        })
      ).body.paymentWallet.address as Address;
    const deposits = {
      [paid]: await depositOf(paid),
      [under]: await depositOf(under),
      [over]: await depositOf(over),
    };
    const sent: { orderId: string; hash: Hash }[] = [];
    for (const [orderId, amount, from] of [
      [paid, '10.80', 1],
      [under, '4.00', 2],
      [over, '12.00', 3],
    ] as const) {
      const { hash } = await payUsdc(t.stack.env, from, deposits[orderId] as Address, usdc(amount));
      sent.push({ orderId, hash });
    }
    await waitForWalletState(t.database.db, under, 'underpaid', 20_000);
    await waitUntil(
      async () => {
        const rows = await t.database.db
          .select({ status: orders.status })
          .from(orders)
          .where(inArray(orders.id, [paid, over]));
        return rows.length === 2 && rows.every((r) => r.status === 'paid');
      },
      'the paid and overpaid orders paid',
      20_000,
    );

    // The chain: what reached the three deposit addresses.
    let onChain = 0n;
    for (const { orderId, hash } of sent)
      onChain += await chainValueTo(hash, deposits[orderId] as Address);
    expect(onChain).toBe(usdc('26.80'));

    // The accounting export: one payment line per transfer, with its classification.
    const rows = await waitUntil(
      async () => {
        const found = (await csvRows(owner.cookie, store.id)).filter((r) => r.Type === 'payment');
        return found.length === 3 && found;
      },
      'three payment lines in the export',
      20_000,
    );
    expect(Object.fromEntries(rows.map((r) => [r['Order ID'], r.Classification]))).toEqual({
      [paid]: 'exact',
      [under]: 'under',
      [over]: 'over',
    });
    const exported = rows.reduce((sum, r) => sum + BigInt(r['Amount (base units)'] ?? '0'), 0n);
    expect(exported).toBe(onChain);

    // The charts: received is the export's payments; orders paid leaves the underpaid one out.
    const daily = await owner.api.get(`/api/stores/${store.id}/analytics/daily?days=30`);
    expect(daily.status).toBe(200);
    expect(daily.body.totals).toMatchObject({
      orders: 2,
      payments: 3,
      grossUsdc: formatUsdcFull(exported),
    });
    // The order list agrees: two orders paid.
    const list = await owner.api.get(`/api/orders?storeId=${store.id}&status=paid`);
    expect(list.body.map((o: { id: string }) => o.id).sort()).toEqual([paid, over].sort());
    expect(daily.body.totals.orders).toBe(list.body.length);

    // The store card and stat cards: revenue is the same received figure, in cents; orders are
    // those placed in the last 30 days (not one of 31 days ago); products, the published ones.
    await owner.api.post('/api/products', {
      storeId: store.id,
      title: 'Hidden',
      priceUsdc: '1.00',
      isPublished: false,
    });
    const old = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    await t.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '31 days'` })
      .where(eq(orders.id, old));
    const figures = await owner.api.get(`/api/stores/${store.id}/analytics`);
    expect(figures.status).toBe(200);
    expect(figures.body).toEqual({
      activeProducts: 4,
      totalRevenue30Days: formatUsdc(exported),
      totalOrders30Days: 3,
    });
    expect(figures.body.totalRevenue30Days).toBe('26.80');

    // All of the merchant's stores together: the same figures (it has only this one).
    const all = await owner.api.get('/api/analytics/daily?days=30');
    expect(all.body.totals).toMatchObject({ orders: 2, grossUsdc: formatUsdcFull(exported) });

    // The underpaid order stays pending; nothing here moved it.
    const [stillUnder] = await t.database.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, under));
    expect(stillUnder?.status).toBe('pending');

    // Its merchant accepts it as paid: it is an order paid in every figure, for what arrived.
    await waitUntil(
      async () => {
        const wallet = await walletOf(t.database.db, under);
        return wallet.receivedAmountUsdc === '4.000000' && wallet.detectedAmountUsdc === '4.000000';
      },
      'the underpaid transfer confirmed',
      20_000,
    );
    expect((await owner.api.post(`/api/orders/${under}/accept-underpaid`)).status).toBe(200);
    const accepted = await owner.api.get(`/api/stores/${store.id}/analytics/daily?days=30`);
    expect(accepted.body.totals).toMatchObject({ orders: 3, grossUsdc: formatUsdcFull(exported) });
    const paidNow = await owner.api.get(`/api/orders?storeId=${store.id}&status=paid`);
    expect(paidNow.body.map((o: { id: string }) => o.id).sort()).toEqual(
      [paid, under, over].sort(),
    );

    // Then a late order (paid after its window) and an order refunded in full from the payout
    // wallet, in the same store.
    const late = (await orderOneMug(owner, t.shopper, store.id)).orderId;
    const refunded = await orderOneMug(owner, t.shopper, store.id);
    const depositVia = async (orderId: string, api = t.shopper) =>
      (await api.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' }))
        .body.paymentWallet.address as Address;
    // The late order: a one-second payment window, paid once a block is past it.
    const lateDeposit = await depositVia(late, t.appWithWindow(1));
    const refundedDeposit = await depositVia(refunded.orderId);
    const expired = await waitForWalletState(t.database.db, late, 'expired', 20_000);
    const windowEnd = expired.expiredAt ? new Date(expired.expiredAt).getTime() : Number.NaN;
    const chainClient = createPublicClient({ transport: http(t.stack.env.RPC_URL) });
    await waitUntil(
      async () => Number((await chainClient.getBlock()).timestamp) * 1000 > windowEnd,
      'a block after the payment window',
      20_000,
    );
    const payer = getAddress(localAccount(5).address);
    const lateSent = [
      {
        orderId: late,
        deposit: lateDeposit,
        ...(await payUsdc(t.stack.env, 4, lateDeposit, usdc('10.80'))),
      },
      {
        orderId: refunded.orderId,
        deposit: refundedDeposit,
        ...(await payUsdc(t.stack.env, 5, refundedDeposit, usdc('10.80'))),
      },
    ];
    await waitForWalletState(t.database.db, late, 'paid_late', 20_000);
    await waitForForwarded(t.database.db, late);
    await waitForForwarded(t.database.db, refunded.orderId);

    // The refunded order: refunded in full from the payout wallet once the payer confirmed.
    expect((await owner.api.post(`/api/orders/${refunded.orderId}/refunds`, {})).status).toBe(200);
    const claims = await t.shopper.get(
      `/api/orders/${refunded.orderId}/refund-claims`,
      buyer(refunded.buyerToken),
    );
    const token = String(claims.body[0]?.claimPath).replace('/refund/', '');
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: payer })).status).toBe(
      200,
    );
    const refundTx = await payUsdc(t.stack.env, 8, payer, usdc('10.80'));
    await waitUntil(async () => {
      const [row] = await t.database.db
        .select({ status: refunds.status })
        .from(refunds)
        .where(eq(refunds.orderId, refunded.orderId));
      return row?.status === 'refunded';
    }, 'the payout-wallet refund to be matched');

    // The chain: what reached the deposit addresses, and what went back from the payout wallet.
    let lateOnChain = 0n;
    for (const { deposit, hash } of lateSent) lateOnChain += await chainValueTo(hash, deposit);
    expect(lateOnChain).toBe(usdc('21.60'));
    const allOnChain = onChain + lateOnChain;
    const refundedOnChain = await chainValueTo(refundTx.hash, payer);
    expect(refundedOnChain).toBe(usdc('10.80'));

    // The export: the five payments, the five orders' merchant legs and the refund out.
    const books = await waitUntil(
      async () => {
        const all = await csvRows(owner.cookie, store.id);
        const count = (type: string) => all.filter((r) => r.Type === type).length;
        return (
          count('payment') === 5 && count('merchant') === 5 && count('merchant_refund') === 1 && all
        );
      },
      'five payment lines, five merchant legs and the refund in the export',
      20_000,
    );
    const sumOf = (type: string) =>
      books
        .filter((r) => r.Type === type)
        .reduce((sum, r) => sum + BigInt(r['Amount (base units)'] ?? '0'), 0n);
    expect(sumOf('payment')).toBe(allOnChain);
    expect(sumOf('merchant_refund')).toBe(refundedOnChain);
    expect(books.find((r) => r.Type === 'merchant_refund')?.['Order ID']).toBe(refunded.orderId);

    // The charts: received, orders paid and refunded are the export's and the chain's.
    const dailyAll = await owner.api.get(`/api/stores/${store.id}/analytics/daily?days=30`);
    expect(dailyAll.status).toBe(200);
    expect(dailyAll.body.totals).toMatchObject({
      orders: 5,
      payments: 5,
      grossUsdc: formatUsdcFull(allOnChain),
      refundedUsdc: formatUsdcFull(refundedOnChain),
      merchantNetUsdc: formatUsdcFull(sumOf('merchant')),
    });
    // The payouts page: what reached the payout address less what went back from it.
    const payoutsAnswer = await owner.api.get(`/api/stores/${store.id}/payouts`);
    expect(payoutsAnswer.status).toBe(200);
    expect(payoutsAnswer.body.totals).toMatchObject({
      refundedUsdc: formatUsdcFull(refundedOnChain),
      netUsdc: formatUsdcFull(sumOf('merchant') - refundedOnChain),
    });
    // The order paidList: all five stand paid; the late one is found as paid late.
    const paidList = await owner.api.get(`/api/orders?storeId=${store.id}&status=paid`);
    expect(paidList.body.map((o: { id: string }) => o.id).sort()).toEqual(
      [paid, under, over, late, refunded.orderId].sort(),
    );
    expect(dailyAll.body.totals.orders).toBe(paidList.body.length);
    const lateList = await owner.api.get(`/api/orders?storeId=${store.id}&exception=paid_late`);
    expect(lateList.body.map((o: { id: string }) => o.id)).toEqual([late]);
    // The dashboard's store card: the same received figure.
    const card = await owner.api.get(`/api/stores/${store.id}/analytics`);
    expect(card.body.totalRevenue30Days).toBe(formatUsdc(allOnChain));
    // All of the merchant's stores together: the same figures.
    const allStores = await owner.api.get('/api/analytics/daily?days=30');
    expect(allStores.body.totals).toMatchObject({
      orders: 5,
      grossUsdc: formatUsdcFull(allOnChain),
      refundedUsdc: formatUsdcFull(refundedOnChain),
    });
  }, 180_000);
});
