// A worker that was down while a paid (and already forwarded) deposit address received more:
// after the restart the extra USDC is seen and held for the payer (an excess refund awaiting
// their address), never forwarded to the merchant beyond the order's total.
import { expect, test } from 'bun:test';
import { splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { refunds } from '../src/db/schema.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient } from './support/client.ts';
import { walletOf } from './support/payments.ts';
import { balancesOf, waitUntil } from './support/settlement.ts';

const t = useChainApi({ confirmations: 2, poolSize: 4 });

async function universalOrder(payout: Address) {
  const { status, body } = await apiClient(t.app).post('/api/universal-orders', {
    storeName: 'Restart Shop',
    storePaymentAddress: payout,
    ...customer,
    items: [{ productId: 'universal-1-r', title: 'Item', priceUsdc: '5.00', quantity: 1 }],
    subtotalUsdc: '5.00',
    shippingUsdc: '0.00',
    totalUsdc: '5.00',
    paymentChain: 'base',
  });
  if (status !== 201) throw new Error(JSON.stringify(body));
  return {
    orderId: body.order.id as string,
    buyerToken: body.order.reviewToken as string,
    address: body.paymentWallet.address as Address,
  };
}

test('a top-up that arrived while the worker was down is held for the payer after the restart', async () => {
  const workerConfig = loadWorkerConfig({ ...t.stack.env, CONFIRMATIONS: '2' });
  const payout = privateKeyToAccount(generatePrivateKey()).address;
  const { orderId, buyerToken, address } = await universalOrder(payout);
  const quiet = () => {};
  let settlement = startSettlement(workerConfig, t.database.db, { log: quiet });
  await payUsdc(t.stack.env, 7, address, parseUnits('5', 6));
  await waitUntil(
    async () => walletForwarded(t.database.db, await walletOf(t.database.db, orderId)),
    'forwarded',
  );
  await settlement.stop();

  // The worker is down: 1 USDC more arrives and is indexed at depth.
  await payUsdc(t.stack.env, 7, address, parseUnits('1', 6));
  await Bun.sleep(1500);
  settlement = startSettlement(workerConfig, t.database.db, { log: quiet });
  try {
    // Note: the database is polled, the claims route (rate-limited) read once.
    await waitUntil(async () => {
      const held = await t.database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
      return held.length === 1;
    }, 'the top-up held for the payer');
    const claims = (
      await apiClient(t.app).get(`/api/orders/${orderId}/refund-claims`, {
        headers: { 'x-buyer-token': buyerToken },
      })
    ).body;
    expect(claims).toMatchObject([{ amount: '1.000000', reason: 'excess' }]);
  } finally {
    await settlement.stop();
  }
  expect((await walletOf(t.database.db, orderId)).forwardedAmountUsdc).toBe('5.000000');
  const deposit = await balancesOf(t.stack.env, address);
  expect(deposit.usdc).toBe(1_000_000n);
  const { merchant: first } = splitFee(5_000_000n);
  expect((await balancesOf(t.stack.env, payout)).usdc).toBe(first);
}, 120_000);
