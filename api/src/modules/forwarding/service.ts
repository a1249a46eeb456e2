// The merchant's view of where an order's money went: forwarding status, the last error of a
// failed attempt (never silent), every transaction of every round; and a manual retry (the
// store owner's here, the operator's for any order with `bun run forwarding:retry`).

import type { StorePermission } from '@store/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { forwardingTransfers, orders, paymentWallets, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { walletForwarded } from '../../payments/forwarded.ts';
import { authorizeStore, type Caller, memberStore } from '../team/access.ts';

/** Texts of the forwarding errors. */
export const FORWARDING_MESSAGES = {
  notFound: 'Order not found',
  noWallet: 'This order has no deposit address yet',
  notStopped: 'Forwarding of this order has not failed; nothing to retry',
} as const;

/**
 * Forwarding statuses a retry may reset: stopped for a person ('failed') or waiting for the
 * platform's relayer ('waiting_relayer': it resumes by itself; a retry only brings it forward).
 */
export const RETRYABLE_FORWARDING = ['failed', 'waiting_relayer'] as const;

/**
 * Resets the retry state of the given wallets, if they failed or wait for the relayer: attempt
 * count back to 0, due now (the worker picks them up on its next pass). Returns the ids reset.
 */
export async function resetForwardingRetry(
  db: Database,
  walletIds: readonly string[] | 'all',
): Promise<string[]> {
  if (walletIds !== 'all' && walletIds.length === 0) return [];
  const rows = await db
    .update(paymentWallets)
    .set({
      forwardingStatus: 'retrying',
      forwardingRetryCount: 0,
      forwardingNextAttemptAt: new Date(),
    })
    .where(
      and(
        inArray(paymentWallets.forwardingStatus, [...RETRYABLE_FORWARDING]),
        walletIds === 'all' ? undefined : inArray(paymentWallets.id, [...walletIds]),
      ),
    )
    .returning({ id: paymentWallets.id });
  return rows.map((row) => row.id);
}

/**
 * The order's wallet, if the caller is a member of the order's store whose role allows
 * `permission`; 404 otherwise (403 for a member whose role does not).
 */
async function ownWalletOrThrow(
  db: Database,
  caller: Caller,
  orderId: string,
  permission: StorePermission,
) {
  const [row] = isUuid(orderId)
    ? await db
        .select({ wallet: paymentWallets, storeId: stores.id })
        .from(orders)
        .innerJoin(stores, eq(stores.id, orders.storeId))
        .leftJoin(paymentWallets, eq(paymentWallets.orderId, orders.id))
        .where(and(eq(orders.id, orderId), memberStore(caller, sql`${stores.id}`)))
        .limit(1)
    : [];
  if (!row) throw new AppError('not_found', FORWARDING_MESSAGES.notFound);
  await authorizeStore(db, caller, row.storeId, permission);
  if (!row.wallet) throw new AppError('not_found', FORWARDING_MESSAGES.noWallet);
  return row.wallet;
}

/** GET /api/orders/{id}/forwarding. */
export async function getForwarding(db: Database, caller: Caller, orderId: string) {
  const wallet = await ownWalletOrThrow(db, caller, orderId, 'read');
  const transfers = await db
    .select()
    .from(forwardingTransfers)
    .where(eq(forwardingTransfers.walletId, wallet.id))
    .orderBy(asc(forwardingTransfers.round), asc(forwardingTransfers.createdAt));
  return {
    depositAddress: wallet.walletAddress,
    paymentStatus: wallet.status,
    paymentException: wallet.exception,
    status: wallet.forwardingStatus,
    completed: await walletForwarded(db, wallet),
    receivedAmount: wallet.receivedAmountUsdc,
    detectedAmount: wallet.detectedAmountUsdc,
    forwardedAmount: wallet.forwardedAmountUsdc,
    retryCount: wallet.forwardingRetryCount,
    lastError: wallet.forwardingError,
    nextAttemptAt: wallet.forwardingNextAttemptAt?.toISOString() ?? null,
    forwardedAt: wallet.forwardedAt?.toISOString() ?? null,
    gasFunded: wallet.gasFunded,
    gasAmountSent: wallet.gasAmountSent,
    actualGasUsed: wallet.actualGasUsed,
    transfers: transfers.map((t) => ({
      round: t.round,
      leg: t.leg,
      to: t.toAddress,
      value: t.value,
      status: t.status,
      txHash: t.txHash,
      confirmedAt: t.confirmedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * POST /api/orders/{id}/forwarding/retry: a stopped forwarding (or one waiting for the relayer)
 * gets one more attempt now.
 */
export async function retryForwarding(db: Database, caller: Caller, orderId: string) {
  const wallet = await ownWalletOrThrow(db, caller, orderId, 'operate');
  const updated = await db
    .update(paymentWallets)
    .set({ forwardingStatus: 'retrying', forwardingNextAttemptAt: new Date() })
    .where(
      and(
        eq(paymentWallets.id, wallet.id),
        inArray(paymentWallets.forwardingStatus, [...RETRYABLE_FORWARDING]),
      ),
    )
    .returning({ id: paymentWallets.id });
  if (updated.length === 0) throw new AppError('invalid_state', FORWARDING_MESSAGES.notStopped);
  return getForwarding(db, caller, orderId);
}
