// Payment helpers of the tests: poll the status API, read a wallet's row and events (paying from an
// anvil test account is payUsdc in @store/stack/usdc).
import {
  isPaymentState,
  type PaymentException,
  type PaymentPhase,
  paymentPhase,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import { asc, eq } from 'drizzle-orm';
import type { Address } from 'viem';
import type { Database } from '../../src/db/client.ts';
import { paymentEvents, paymentWallets } from '../../src/db/schema.ts';
import { walletForwarded } from '../../src/payments/forwarded.ts';
import type { ApiClient } from './client.ts';
import { waitUntil } from './settlement.ts';

/** The status API's answer. */
export interface PaymentStatus {
  paymentDetected: boolean;
  status: string;
  receivedAmount: string;
  expectedAmount: string;
  expiredAt: string | null;
  exception: string;
}

/** GET /api/check-payment-status/{orderId}. */
export async function paymentStatus(api: ApiClient, orderId: string): Promise<PaymentStatus> {
  const response = await api.get(`/api/check-payment-status/${orderId}`);
  if (response.status !== 200) throw new Error(`status ${response.status}: ${response.body}`);
  return response.body as PaymentStatus;
}

/**
 * Polls the status API every 20 ms until `done` holds; returns the last answer and every
 * distinct status seen on the way (to assert the order of states).
 */
export async function waitForPayment(
  api: ApiClient,
  orderId: string,
  done: (status: PaymentStatus) => boolean,
  timeoutMs = 15_000,
): Promise<{ last: PaymentStatus; seen: string[] }> {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  for (;;) {
    const last = await paymentStatus(api, orderId);
    if (seen.at(-1) !== last.status) seen.push(last.status);
    if (done(last)) return { last, seen };
    if (Date.now() > deadline) {
      throw new Error(`payment of ${orderId} still ${JSON.stringify(last)} (seen ${seen})`);
    }
    await Bun.sleep(20);
  }
}

/** The wallet row of an order. */
export async function walletOf(db: Database, orderId: string) {
  const [wallet] = await db
    .select()
    .from(paymentWallets)
    .where(eq(paymentWallets.orderId, orderId));
  if (!wallet) throw new Error(`order ${orderId} has no wallet`);
  return wallet;
}

/** The order's payment events, oldest first, as "from -> to" phases (state with exception). */
export async function transitionsOf(db: Database, orderId: string): Promise<string[]> {
  const events = await db
    .select()
    .from(paymentEvents)
    .where(eq(paymentEvents.orderId, orderId))
    .orderBy(asc(paymentEvents.createdAt));
  let exception: PaymentException = 'none';
  return events.map((event) => {
    const phase = (state: string | null, of: PaymentException) =>
      state && isPaymentState(state) ? paymentPhase(state, of) : state;
    const text = `${phase(event.fromStatus, exception)} -> ${phase(event.toStatus, event.exception)}`;
    exception = event.exception;
    return text;
  });
}

/** Waits until the worker has stored `state` for the order's wallet. */
export async function waitForWalletState(
  db: Database,
  orderId: string,
  phase: PaymentPhase,
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wallet = await walletOf(db, orderId);
    const now = paymentPhase(wallet.status, wallet.exception);
    if (now === phase) return wallet;
    if (Date.now() > deadline) throw new Error(`wallet of ${orderId} is ${now}`);
    await Bun.sleep(25);
  }
}

/**
 * A store order of one 10.00 USDC mug from a new product with 5 in stock: 10.80 with the 8% tax
 * and free shipping. Throws unless the API created it.
 */
export async function orderOneMug(
  owner: { api: ApiClient },
  shopper: ApiClient,
  storeId: string,
): Promise<{ orderId: string; productId: string; buyerToken: string }> {
  const product = (
    await owner.api.post('/api/products', {
      storeId,
      title: 'Mug',
      priceUsdc: '10.00',
      inventory: 5,
    })
  ).body;
  const order = await shopper.post('/api/orders', {
    storeId,
    ...customer,
    items: [{ productId: product.id, title: 'Mug', priceUsdc: '10.00', quantity: 1 }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.80',
    status: 'pending',
  });
  if (order.status !== 201) throw new Error(`order: ${JSON.stringify(order.body)}`);
  return {
    orderId: order.body.id as string,
    productId: product.id as string,
    buyerToken: order.body.reviewToken as string,
  };
}

/** The headers of the shopper's own order pages: the order's buyer token. */
export const buyer = (buyerToken: string) => ({ headers: { 'x-buyer-token': buyerToken } });

/** What a payable universal order needs: its total, payout address and optional webhook. */
export interface UniversalOrderOptions {
  total: string;
  payout: Address;
  webhookUrl?: string;
  storeName?: string;
}

/**
 * A universal order with its deposit address in one call (the payment page's form), as the
 * settlement tests pay them; throws unless the API answers 201.
 */
export async function payableUniversalOrder(api: ApiClient, options: UniversalOrderOptions) {
  const { total } = options;
  const { status, body } = await api.post('/api/universal-orders', {
    storeName: options.storeName ?? 'Corner Shop',
    storePaymentAddress: options.payout,
    externalOrderId: `ext-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
    ...customer,
    items: [{ productId: 'universal-1', title: 'Item', priceUsdc: total, quantity: 1 }],
    subtotalUsdc: total,
    shippingUsdc: '0.00',
    totalUsdc: total,
    paymentChain: 'base',
  });
  if (status !== 201) throw new Error(`universal order: ${JSON.stringify(body)}`);
  return {
    orderId: body.order.id as string,
    buyerToken: body.order.reviewToken as string,
    address: body.paymentWallet.address as Address,
  };
}

/** Waits until the order's forwarding is recorded as complete; returns its wallet row. */
export function waitForForwarded(db: Database, orderId: string, timeoutMs = 20_000) {
  return waitUntil(
    async () => {
      const wallet = await walletOf(db, orderId);
      return (
        wallet.forwardingStatus === 'completed' && (await walletForwarded(db, wallet)) && wallet
      );
    },
    `forwarding of ${orderId}`,
    timeoutMs,
  );
}
