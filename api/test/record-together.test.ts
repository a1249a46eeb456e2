// Wallet changes recorded together, as a detection pass records the payments of a busy block: one
// transaction for all of them, each written as if alone, the stock of orders that take the same
// product taken one order after the other, and a change that cannot be written never holding
// back the others.
import { expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { eq, inArray, sql } from 'drizzle-orm';
import { orders, paymentEvents, paymentWallets, products } from '../src/db/schema.ts';
import { recordWalletChanges, type WalletChange } from '../src/payments/record.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();

const waiting = {
  state: 'waiting' as const,
  exception: 'none' as const,
  detected: 0n,
  received: 0n,
  paymentTxHash: null,
};
const paid = (amount: bigint, hash: string) => ({
  state: 'received' as const,
  exception: 'none' as const,
  detected: amount,
  received: amount,
  paymentTxHash: hash,
});

/** A universal order of 5 USDC with its deposit address made: its wallet's change to paid. */
async function universalPayment(n: number): Promise<WalletChange> {
  const { body } = await t.shopper.post('/api/universal-orders', {
    ...customer,
    storeName: 'Shop',
    storePaymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    items: [{ productId: `universal-${n}`, title: 'Pin', priceUsdc: '5.00', quantity: 1 }],
    subtotalUsdc: '5.00',
    shippingUsdc: '0.00',
    totalUsdc: '5.00',
    paymentChain: 'base',
  });
  return changeToPaid(body.order.id, 5_000_000n, n);
}

async function changeToPaid(orderId: string, amount: bigint, n: number): Promise<WalletChange> {
  const [wallet] = await t.testDb.database.db
    .select({ id: paymentWallets.id })
    .from(paymentWallets)
    .where(eq(paymentWallets.orderId, orderId));
  if (!wallet) throw new Error('no wallet');
  const hash = `0x${n.toString(16).padStart(64, '0')}`;
  return {
    walletId: wallet.id,
    orderId,
    before: waiting,
    after: paid(amount, hash),
    headBlock: 10n,
  };
}

test('the changes of several wallets are written in one transaction, each as if alone', async () => {
  const { db } = t.testDb.database;
  const changes = [await universalPayment(1), await universalPayment(2), await universalPayment(3)];
  expect(await recordWalletChanges(db, changes, new Date())).toEqual([true, true, true]);

  const ids = changes.map((c) => c.orderId);
  const paidOrders = await db.select().from(orders).where(inArray(orders.id, ids));
  expect(paidOrders.map((o) => o.status)).toEqual(['paid', 'paid', 'paid']);
  const events = await db.select().from(paymentEvents).where(inArray(paymentEvents.orderId, ids));
  expect(events.map((e) => `${e.fromStatus}->${e.toStatus}`).sort()).toEqual([
    'waiting->received',
    'waiting->received',
    'waiting->received',
  ]);
  const writers = await db.execute<{ n: number }>(sql`
    select count(distinct xmin::text)::int as n from payment_events
    where order_id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  expect(writers[0]?.n).toBe(1);

  // Note: recorded again (a second worker's pass read the same rows): nothing is written twice.
  expect(await recordWalletChanges(db, changes, new Date())).toEqual([false, false, false]);
  const again = await db.select().from(paymentEvents).where(inArray(paymentEvents.orderId, ids));
  expect(again).toHaveLength(3);
});

test('a change that cannot be written does not hold back the others of its pass', async () => {
  const { db } = t.testDb.database;
  const [good1, bad, good2] = [
    await universalPayment(4),
    await universalPayment(5),
    await universalPayment(6),
  ];
  if (!good1 || !bad || !good2) throw new Error('no payments');
  // Note: a state this database refuses (its check), as a change from a newer version could be.
  const broken = {
    ...bad,
    after: { ...bad.after, exception: 'no-such-exception' as unknown as 'none' },
  };
  await expect(recordWalletChanges(db, [good1, broken, good2], new Date())).rejects.toThrow();
  const rows = await db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(inArray(orders.id, [good1.orderId, bad.orderId, good2.orderId]));
  const status = new Map(rows.map((r) => [r.id, r.status]));
  expect(status.get(good1.orderId)).toBe('paid');
  expect(status.get(good2.orderId)).toBe('paid');
  expect(status.get(bad.orderId)).toBe('pending');
});

test('two orders paid together for the last unit: the one still holding it gets it', async () => {
  const { db } = t.testDb.database;
  const owner = await newMerchant(t.app, 'stock-owner');
  const store = (await owner.api.post('/api/stores', storeForm())).body;
  const product = (
    await owner.api.post('/api/products', {
      storeId: store.id,
      title: 'Last mug',
      priceUsdc: '10.00',
      inventory: 1,
    })
  ).body;
  const orderAndPay = async () => {
    const order = await t.shopper.post('/api/orders', {
      storeId: store.id,
      ...customer,
      items: [{ productId: product.id, title: 'Last mug', priceUsdc: '10.00', quantity: 1 }],
      subtotalUsdc: '10.00',
      shippingUsdc: '0.00',
      totalUsdc: '10.80',
      status: 'pending',
    });
    if (order.status !== 201) throw new Error(`order: ${JSON.stringify(order.body)}`);
    const assigned = await t.shopper.post(`/api/orders/${order.body.id}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    if (assigned.status !== 200) throw new Error(`wallet: ${JSON.stringify(assigned.body)}`);
    return order.body.id as string;
  };
  // Note: the first shopper's hold ended before they paid, so the second could hold the unit.
  const late = await orderAndPay();
  await db
    .update(orders)
    .set({ stockHeldUntil: new Date(Date.now() - 60_000) })
    .where(eq(orders.id, late));
  const holding = await orderAndPay();

  const changes = [
    await changeToPaid(late, 10_800_000n, 7),
    await changeToPaid(holding, 10_800_000n, 8),
  ];
  expect(await recordWalletChanges(db, changes, new Date())).toEqual([true, true]);

  const rows = await db
    .select({ id: orders.id, status: orders.status, shortfall: orders.stockShortfall })
    .from(orders)
    .where(inArray(orders.id, [late, holding]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(holding)?.status).toBe('paid');
  expect(byId.get(holding)?.shortfall ?? null).toBeNull();
  expect(byId.get(late)?.status).toBe('paid');
  expect(byId.get(late)?.shortfall).toEqual([
    { productId: product.id, title: 'Last mug', ordered: 1, available: 0 },
  ]);
  const [left] = await db
    .select({ inventory: products.inventory })
    .from(products)
    .where(eq(products.id, product.id));
  expect(left?.inventory).toBe(0);
});
