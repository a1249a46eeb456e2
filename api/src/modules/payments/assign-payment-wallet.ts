// Assigns an order its deposit address: derived from the xpub at the next index of a sequence,
// stored once per order (the unique order_id index settles concurrent calls).
import { isLinkOrder, type PaymentChain, parseUsdc } from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, paymentWallets, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { holdsStock } from '../../payments/stock.ts';
import { ORDER_MESSAGES } from '../orders/model.ts';
import { holdOrderStock } from '../stock/holds.ts';
import { PAYMENT_API_MESSAGES as M, type PaymentDeps, type PaymentWalletView } from './model.ts';

type OrderRow = typeof orders.$inferSelect;
type WalletRow = typeof paymentWallets.$inferSelect;

/** An order by id, or 404 (also for ids that are not UUIDs). */
export async function getOrderOrThrow(db: Database, orderId: string): Promise<OrderRow> {
  const [order] = isUuid(orderId)
    ? await db.select().from(orders).where(eq(orders.id, orderId)).limit(1)
    : [];
  if (!order) throw new AppError('not_found', ORDER_MESSAGES.notFound);
  return order;
}

/** The order's wallet, if it has one. */
export async function findWallet(db: Database, orderId: string): Promise<WalletRow | undefined> {
  const [wallet] = await db
    .select()
    .from(paymentWallets)
    .where(eq(paymentWallets.orderId, orderId))
    .limit(1);
  return wallet;
}

/** The wallet as the payment pages receive it. */
export function walletView(wallet: WalletRow, stockHeldUntil: Date | null): PaymentWalletView {
  return {
    address: wallet.walletAddress,
    expectedAmount: wallet.expectedAmountUsdc,
    chain: wallet.paymentChain,
    expiredAt: wallet.expiredAt?.toISOString() ?? null,
    stockHeldUntil: stockHeldUntil?.toISOString() ?? null,
  };
}

/** Where the order's money settles: the universal link's payee, or the store's payout address. */
async function payoutAddressOf(db: Database, order: OrderRow): Promise<string> {
  if (isLinkOrder(order.source)) {
    if (!order.payeeAddress) throw new AppError('validation_failed', M.noUniversalPaymentAddress);
    return order.payeeAddress;
  }
  const [store] = order.storeId
    ? await db
        .select({ paymentAddress: stores.paymentAddress })
        .from(stores)
        .where(eq(stores.id, order.storeId))
        .limit(1)
    : [];
  if (!store?.paymentAddress) throw new AppError('validation_failed', M.noPaymentAddress);
  return store.paymentAddress;
}

/**
 * Returns the order's wallet, creating it on the first call (idempotent and race-safe). The first
 * call also holds the order's units of tracked products (the shopper asks to pay): `beforeHold`
 * runs first (the client's limit on holds), and 409 when they are no longer there.
 */
export async function assignPaymentWallet(
  deps: PaymentDeps,
  orderId: string,
  paymentChain: PaymentChain,
  beforeHold?: () => Promise<void>,
): Promise<{ paymentWallet: PaymentWalletView }> {
  const { db } = deps;
  const order = await getOrderOrThrow(db, orderId);
  const existing = await findWallet(db, orderId);
  if (existing) return { paymentWallet: walletView(existing, order.stockHeldUntil) };
  if (order.status !== 'pending') throw new AppError('invalid_state', M.notPending(order.status));
  if (parseUsdc(order.totalUsdc) <= 0n) throw new AppError('validation_failed', M.zeroTotal);
  const storePaymentAddress = await payoutAddressOf(db, order);
  const holds = holdsStock(order.items);
  if (holds) await beforeHold?.();

  // Note: nextval is never rolled back, so a concurrent call (or a failed insert) only skips an
  // index; two orders can never derive the same address.
  const [next] = await db.execute<{ index: number }>(
    sql`select nextval('payment_derivation_index_seq')::int as index`,
  );
  const { index, address, path } = deps.derive(Number(next?.index));
  let heldUntil: Date | null = null;
  const created = await db.transaction(async (tx) => {
    const [wallet] = await tx
      .insert(paymentWallets)
      .values({
        orderId,
        walletAddress: address,
        derivationPath: path,
        derivationIndex: index,
        expectedAmountUsdc: order.totalUsdc,
        storePaymentAddress,
        expiredAt: new Date(Date.now() + deps.windowMs),
        paymentChain,
        externalOrderId: order.metadata?.externalOrderId ?? null,
      })
      .onConflictDoNothing({ target: paymentWallets.orderId })
      .returning();
    if (wallet) {
      if (holds) heldUntil = await holdOrderStock(tx, order, deps.holdMinutes);
      await tx
        .update(orders)
        .set({ paymentAddress: address, paymentChain })
        .where(eq(orders.id, orderId));
    }
    return wallet;
  });
  if (created) return { paymentWallet: walletView(created, heldUntil) };
  // Note: another request made it meanwhile (and held the stock, if any): read both again.
  const wallet = await findWallet(db, orderId);
  if (!wallet) throw new Error(`wallet of order ${orderId} vanished after a conflicting insert`);
  return { paymentWallet: walletView(wallet, (await getOrderOrThrow(db, orderId)).stockHeldUntil) };
}
