// The webhook outbox: events are inserted in the transaction that changes the state they report,
// so a webhook exists if and only if the change was committed; the dispatcher sends them later.
// Every event of an order (paid, forwarded, shipped, refunded, ...) enters through
// `enqueueOrderEvents`, with one set of rules for where it goes and how it is signed.

import type { WebhookRefund } from '@store/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { orders, paymentWallets, stores, webhookDeliveries } from '../db/schema.ts';
import {
  type ForwardingSummary,
  type ShipmentEvent,
  serializePayload,
  type WebhookEventType,
} from './events.ts';

/** How long a delivery is retried before it is given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;

/** The Standard Webhooks message id of a delivery (the same on every attempt). */
export const messageIdOf = (deliveryId: string) => `msg_${deliveryId.replaceAll('-', '')}`;

/** `webhook_deliveries.store_id` of a delivery signed with the platform's Ed25519 key (v1a). */
export const PLATFORM_SIGNED = 'universal';

/**
 * Inserts one delivery per event of the order of a deposit wallet, inside the transaction of the
 * change, after the wallet and order rows were updated. The rules, the same for every event:
 * it goes to the order's own webhook URL (a universal link's) or else to its store's, and nowhere
 * when neither is set; it is signed with the store's secret (v1) when the order pays a store of
 * ours, else with the platform's key (v1a: an unsigned link's order).
 */
export async function enqueueOrderEvents(
  tx: Executor,
  walletId: string,
  events: readonly WebhookEventType[],
  at: Date,
  forwarding?: ForwardingSummary,
  refund?: WebhookRefund,
  shipment?: ShipmentEvent,
): Promise<number> {
  if (events.length === 0) return 0;
  const [row] = await tx
    .select({ wallet: paymentWallets, order: orders, storeUrl: stores.webhookUrl })
    .from(paymentWallets)
    .innerJoin(orders, eq(orders.id, paymentWallets.orderId))
    .leftJoin(stores, eq(stores.id, orders.storeId))
    .where(eq(paymentWallets.id, walletId))
    .limit(1);
  if (!row) return 0;
  const url = row.order.webhookUrl ?? row.storeUrl;
  if (!url) return 0;
  await tx.insert(webhookDeliveries).values(
    events.map((type) => ({
      orderId: row.order.id,
      storeId: row.order.storeId ?? PLATFORM_SIGNED,
      eventType: type,
      url,
      payload: serializePayload(type, at, row.order, row.wallet, forwarding, shipment, refund),
      nextAttemptAt: at,
      retryUntil: new Date(at.getTime() + WEBHOOK_RETRY_WINDOW_MS),
      createdAt: at,
    })),
  );
  return events.length;
}
