// Detection on the real chain: Postgres, anvil (200 ms blocks) with Circle's USDC, the Ponder
// indexer and the worker's detection loop; shoppers pay from anvil test accounts and every state
// is asserted through GET /api/check-payment-status, the worker's records through the database.
import { describe, expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import { eq, sql } from 'drizzle-orm';
import { type Address, createPublicClient, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { orders, paymentEvents, products } from '../src/db/schema.ts';
import { startDetectionLoop } from '../src/worker/detection-loop.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import {
  orderOneMug,
  transitionsOf,
  waitForPayment,
  waitForWalletState,
} from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const CONFIRMATIONS = 4; // 800 ms at 200 ms blocks: long enough to see `detected` by polling
const usdc = (amount: string) => parseUnits(amount, 6);

const workerLog: string[] = [];
const t = useChainApi({
  confirmations: CONFIRMATIONS,
  poolSize: 5,
  worker: ({ database, config }) =>
    startDetectionLoop({
      db: database.db,
      chainId: config.chain.chainId,
      confirmations: CONFIRMATIONS,
      intervalMs: 100,
      log: (line) => workerLog.push(line),
    }),
});

/** A universal order of `total` USDC with its deposit address (the payment page's one call). */
async function universalOrder(total: string, client = t.shopper) {
  const item = {
    productId: `universal-${Date.now()}`,
    title: 'Item',
    priceUsdc: total,
    quantity: 1,
  };
  const { status, body } = await client.post('/api/universal-orders', {
    storeName: 'Corner Shop',
    storePaymentAddress: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    ...customer,
    items: [item],
    subtotalUsdc: total,
    shippingUsdc: '0.00',
    totalUsdc: total,
    paymentChain: 'base',
  });
  if (status !== 201) throw new Error(`universal order: ${JSON.stringify(body)}`);
  return { orderId: body.order.id as string, address: body.paymentWallet.address as Address };
}

const pay = (from: number, to: Address, amount: string) =>
  payUsdc(t.stack.env, from, to, usdc(amount));
const isFinal = (s: { status: string }) => s.status === 'received';

describe('a store order paid with the exact amount', () => {
  test('is detected, then received at depth; the order is paid and stock taken', async () => {
    const owner = await newMerchant(t.app, 'seller');
    const store = (await owner.api.post('/api/stores', storeForm())).body;
    const { orderId, productId } = await orderOneMug(owner, t.shopper, store.id);
    const { paymentWallet } = (
      await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' })
    ).body;

    // Note: polling starts before the transfer, so the first answer is always `waiting`.
    const watching = waitForPayment(t.shopper, orderId, isFinal);
    const { hash } = await pay(1, paymentWallet.address, '10.80');
    const { last, seen } = await watching;
    // Note: on a busy machine the first answer may already come after the transfer was mined.
    expect(seen.filter((status) => status !== 'waiting')).toEqual([
      'detected_pending_processing',
      'received',
    ]);
    expect(seen.indexOf('waiting')).toBeLessThanOrEqual(0);
    expect(last).toMatchObject({
      paymentDetected: true,
      receivedAmount: '10.800000',
      expectedAmount: '10.80',
      exception: 'none',
    });
    const wallet = await waitForWalletState(t.database.db, orderId, 'received');
    expect(wallet).toMatchObject({ depositTxHash: hash, exception: 'none' });
    expect(wallet.paymentReceivedAt).toBeInstanceOf(Date);
    expect(wallet.detectedAt).toBeInstanceOf(Date);
    const [paid] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(paid).toMatchObject({ status: 'paid', paymentTxHash: hash });
    const [mug] = await t.database.db.select().from(products).where(eq(products.id, productId));
    expect(mug?.inventory).toBe(4);
    expect(await transitionsOf(t.database.db, orderId)).toEqual([
      'waiting -> detected',
      'detected -> received',
    ]);
  }, 30_000);
});

describe('amounts other than the exact one', () => {
  test('two partial transfers that add up are received; the second is the payment tx', async () => {
    const { orderId, address } = await universalOrder('10.00');
    await pay(2, address, '4.00');
    const { hash } = await pay(2, address, '6.00');
    const { last } = await waitForPayment(t.shopper, orderId, isFinal);
    expect(last.receivedAmount).toBe('10.000000');
    const wallet = await waitForWalletState(t.database.db, orderId, 'received');
    expect(wallet.depositTxHash).toBe(hash);
  }, 30_000);

  test('too little is underpaid until a top-up completes it', async () => {
    const { orderId, address } = await universalOrder('10.00');
    await pay(3, address, '3.00');
    const { last } = await waitForPayment(t.shopper, orderId, (s) => s.status === 'underpaid');
    expect(last).toMatchObject({
      paymentDetected: false,
      receivedAmount: '3.000000',
      exception: 'underpaid',
    });
    await waitForWalletState(t.database.db, orderId, 'underpaid');
    await pay(3, address, '7.00');
    await waitForPayment(t.shopper, orderId, isFinal);
    await waitForWalletState(t.database.db, orderId, 'received');
    expect(await transitionsOf(t.database.db, orderId)).toEqual([
      'waiting -> underpaid',
      'underpaid -> detected',
      'detected -> received',
    ]);
  }, 30_000);

  test('too much is overpaid: received for the shopper, the order paid', async () => {
    const { orderId, address } = await universalOrder('10.00');
    // Every answer's status with its exception, from before the transfer to the end.
    const answers = new Set<string>();
    const watching = waitForPayment(t.shopper, orderId, (s) => {
      answers.add(`${s.status} ${s.exception}`);
      return isFinal(s);
    });
    await pay(4, address, '12.50');
    const { last } = await watching;
    expect(last.receivedAmount).toBe('12.500000');
    // Note: the excess is reported from detection on, though stored only at depth.
    expect([...answers].filter((a) => !a.startsWith('waiting'))).toEqual([
      'detected_pending_processing overpaid',
      'received overpaid',
    ]);
    const wallet = await waitForWalletState(t.database.db, orderId, 'overpaid');
    expect(wallet.receivedAmountUsdc).toBe('12.500000');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('paid');
  }, 30_000);
});

describe('the payment window', () => {
  test('nothing by expiry: expired', async () => {
    const { orderId } = await universalOrder('5.00', t.appWithWindow(1));
    const { last } = await waitForPayment(t.shopper, orderId, (s) => s.status === 'expired');
    expect(last.paymentDetected).toBe(false);
    await waitForWalletState(t.database.db, orderId, 'expired');
    expect(await transitionsOf(t.database.db, orderId)).toEqual(['waiting -> expired']);
  }, 30_000);

  test('paid after expiry: still honoured, as paid late', async () => {
    const { orderId, address } = await universalOrder('5.00', t.appWithWindow(1));
    const expired = await waitForWalletState(t.database.db, orderId, 'expired');
    // Note: late is decided by the block's timestamp (whole seconds), not the clock: wait until
    // the chain's latest block is past the window, so the payment's block is too (however loaded
    // the machine, and however the chain's clock lags).
    const chain = createPublicClient({ transport: http(t.config.chain.rpcUrl) });
    const windowEnd = expired.expiredAt ? new Date(expired.expiredAt).getTime() : Number.NaN;
    await waitUntil(
      async () => Number((await chain.getBlock()).timestamp) * 1000 > windowEnd,
      'a block after the payment window',
      20_000,
    );
    await pay(5, address, '5.00');
    await waitForPayment(t.shopper, orderId, isFinal);
    await waitForWalletState(t.database.db, orderId, 'paid_late');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('paid');
    expect(await transitionsOf(t.database.db, orderId)).toEqual([
      'waiting -> expired',
      'expired -> detected',
      'detected -> paid_late',
    ]);
  }, 30_000);
});

describe('transfers that belong to no order', () => {
  test('are ignored', async () => {
    const count = async () =>
      (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(paymentEvents))[0]?.n;
    const before = await count();
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await pay(6, stranger, '1.00');
    await Bun.sleep(CONFIRMATIONS * 200 + 600); // past the depth and a few passes
    expect(await count()).toBe(before);
    expect(workerLog.filter((line) => line.includes('failed'))).toEqual([]);
  }, 30_000);
});
