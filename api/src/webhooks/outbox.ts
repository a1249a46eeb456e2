// The webhook outbox: events are inserted in the transaction that changes the state they report,
// so a webhook exists if and only if the change was committed; the dispatcher sends them later.

import type { WebhookRefund } from '@store/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { orders, paymentWallets, stores, webhookDeliveries } from '../db/schema.ts';
import { type ForwardingSummary, serializePayload, type WebhookEventType } from './events.ts';

/** How long a delivery is retried before it is given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** The Standard Webhooks message id of a delivery (the same on every attempt). */
export const messageIdOf = (deliveryId: string) => `msg_${deliveryId.replaceAll('-', '')}`;

/** Where an order's events go: the store's URL, or the universal link's; null for none. */
async function destinationOf(
  tx: Executor,
  order: typeof orders.$inferSelect,
  wallet: typeof paymentWallets.$inferSelect,
): Promise<string | null> {
  if (wallet.isUniversal) return wallet.webhookUrl ?? order.metadata?.webhookUrl ?? null;
  const [store] = await tx
    .select({ url: stores.webhookUrl })
    .from(stores)
    .where(eq(stores.id, order.storeId))
    .limit(1);
  return store?.url ?? null;
}

/**
 * Inserts one delivery per event for the wallet's order (nothing when no URL is set). Call it
 * inside the transaction of the change, after the wallet and order rows were updated.
 */
export async function enqueueOrderEvents(
  tx: Executor,
  walletId: string,
  events: readonly WebhookEventType[],
  at: Date,
  forwarding?: ForwardingSummary,
  refund?: WebhookRefund,
): Promise<number> {
  if (events.length === 0) return 0;
  const [row] = await tx
    .select({ wallet: paymentWallets, order: orders })
    .from(paymentWallets)
    .innerJoin(orders, eq(orders.id, paymentWallets.orderId))
    .where(eq(paymentWallets.id, walletId))
    .limit(1);
  if (!row) return 0;
  const url = await destinationOf(tx, row.order, row.wallet);
  if (!url) return 0;
  await tx.insert(webhookDeliveries).values(
    events.map((type) => ({
      orderId: row.order.id,
      // Note: a signed link's events are signed like its store's (v1, the store's secret).
      storeId: row.wallet.isUniversal
        ? (row.order.metadata?.linkStoreId ?? 'universal')
        : row.order.storeId,
      eventType: type,
      url,
      payload: serializePayload(type, at, row.order, row.wallet, forwarding, undefined, refund),
      nextAttemptAt: at,
      retryUntil: new Date(at.getTime() + WEBHOOK_RETRY_WINDOW_MS),
      createdAt: at,
    })),
  );
  return events.length;
}
