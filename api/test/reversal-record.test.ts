// A reversal and a payment that comes back, as the worker records them: the merchant's progress on
// the order (processing, shipped…) is kept through the reversal and given back, never reset to
// `paid` (which would let an order be shipped twice).
import { expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { eq } from 'drizzle-orm';
import { orders, paymentWallets } from '../src/db/schema.ts';
import { recordWalletChange } from '../src/payments/record.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();

test('a shipped order reversed and paid again is shipped again, not paid', async () => {
  const { body } = await t.shopper.post('/api/universal-orders', {
    ...customer,
    storeName: 'Shop',
    storePaymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    items: [{ productId: 'universal-1', title: 'Pin', priceUsdc: '5.00', quantity: 1 }],
    subtotalUsdc: '5.00',
    shippingUsdc: '0.00',
    totalUsdc: '5.00',
    paymentChain: 'base',
  });
  const orderId: string = body.order.id;
  const { db } = t.testDb.database;
  const [wallet] = await db
    .update(paymentWallets)
    .set({ status: 'received', detectedAmountUsdc: '5', receivedAmountUsdc: '5' })
    .where(eq(paymentWallets.orderId, orderId))
    .returning();
  if (!wallet) throw new Error('no wallet');
  await db.update(orders).set({ status: 'shipped' }).where(eq(orders.id, orderId));
  const paid = {
    state: 'received' as const,
    exception: 'none' as const,
    detected: 5_000_000n,
    received: 5_000_000n,
  };
  const gone = {
    state: 'reversed' as const,
    exception: 'none' as const,
    detected: 0n,
    received: 0n,
    paymentTxHash: null,
  };
  const base = { walletId: wallet.id, orderId, headBlock: 100n };

  expect(
    await recordWalletChange(
      db,
      { ...base, before: { ...paid, paymentTxHash: '0xabc' }, after: gone },
      new Date(),
    ),
  ).toBe(true);
  const [reversed] = await db.select().from(orders).where(eq(orders.id, orderId));
  expect(reversed?.status).toBe('reversed');
  expect(reversed?.metadata?.reversedFrom).toBe('shipped');

  expect(
    await recordWalletChange(
      db,
      { ...base, before: gone, after: { ...paid, paymentTxHash: '0xdef' } },
      new Date(),
    ),
  ).toBe(true);
  const [back] = await db.select().from(orders).where(eq(orders.id, orderId));
  expect(back?.status).toBe('shipped');
  expect(back?.metadata?.reversedFrom).toBeUndefined();
  expect(back?.paymentTxHash).toBe('0xdef');
});
