// One set of figures, on the real stack (Postgres, anvil with Circle's USDC, the indexer and the
// worker's loops): a store holding a paid, an underpaid and an overpaid order shows the same
// numbers on its dashboard (the store's 30-day revenue, the charts' received and orders paid,
// the merchant's all-store charts) as in its accounting export and the order list, and those
// equal the chain's transfers to the base unit. An underpaid order is no order paid.
import { describe, expect, test } from 'bun:test';
import { formatUsdc, formatUsdcFull } from '@store/shared';
import { payUsdc } from '@store/stack/usdc';
import { eq, inArray, sql } from 'drizzle-orm';
import {
  type Address,
  createPublicClient,
  type Hash,
  http,
  parseEventLogs,
  parseUnits,
} from 'viem';
import { usdcAbi } from '../src/chain/usdc-abi.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { orders } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { orderOneMug, waitForWalletState, walletOf } from './support/payments.ts';
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
  test('shows the figures of the analytics views and the export for paid, underpaid and overpaid orders', async () => {
    const owner = await newMerchant(t.app, 'figures');
    const store = (await owner.api.post('/api/stores', storeForm())).body as { id: string };
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
  }, 90_000);
});
