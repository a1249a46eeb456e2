// Fulfilment: the merchant marks a paid order shipped with its carrier and tracking. In the same
// transaction the order changes, its `order.shipped` webhook enters the outbox and the shopper's
// "shipped" mail is queued, so none exists without the others.
import {
  FULFILMENT_MESSAGES,
  isLinkOrder,
  type MarkShippedInput,
  receiptIsEmailed,
  SHIPPABLE_STATUSES,
  type ShipmentOutcome,
} from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { nextVersion } from '../../db/row-version.ts';
import { emailOutbox, orders, paymentWallets, stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { orderPageUrl } from '../../mail/order-page.ts';
import { EMAIL_RETRY_WINDOW_MS, ONE_PER_ORDER } from '../../mail/outbox.ts';
import { enqueueOrderEvents } from '../../webhooks/outbox.ts';
import { ORDER_MESSAGES, type OrderView } from '../orders/model.ts';
import { getOwnOrderOrThrow, orderColumns, toOrderView } from '../orders/service.ts';
import type { Caller } from '../team/access.ts';

/** The answer of POST /api/orders/{id}/shipment. */
export interface ShipmentResult {
  order: OrderView;
  /** shipped: first marked; updated: the tracking changed; unchanged: the same tracking again. */
  outcome: ShipmentOutcome;
  message: string;
}

/**
 * Marks the merchant's paid order shipped (paid or processing become shipped; a shipped or
 * completed order keeps its status) with its carrier and tracking. Marking again with other
 * tracking updates it, sends `order.shipped` again and mails the shopper the new tracking.
 */
export async function markOrderShipped(
  db: Database,
  caller: Caller,
  orderId: string,
  input: MarkShippedInput,
  /** The origin of the order page linked from the shopper's mail; null: no link (see mailOriginOf). */
  origin: string | null,
): Promise<ShipmentResult> {
  const before = await getOwnOrderOrThrow(db, caller, orderId, 'operate');
  if (before.status === 'reversed')
    throw new AppError('invalid_state', FULFILMENT_MESSAGES.reversed);
  if (!(SHIPPABLE_STATUSES as readonly string[]).includes(before.status))
    throw new AppError('invalid_state', FULFILMENT_MESSAGES.notPaid);
  return db.transaction(async (tx) => {
    // Note: locked, so two marks at once are told apart (one ships, the other updates).
    const [locked] = await tx
      .select(orderColumns)
      .from(orders)
      .where(eq(orders.id, before.id))
      .for('update');
    if (!locked) throw new AppError('not_found', ORDER_MESSAGES.notFound);
    if (!(SHIPPABLE_STATUSES as readonly string[]).includes(locked.status))
      throw new AppError('invalid_state', FULFILMENT_MESSAGES.notPaid);
    const trackingUrl = input.trackingUrl ?? null;
    const wasShipped = locked.shippedAt !== null;
    const same =
      wasShipped &&
      locked.shippingCarrier === input.carrier &&
      locked.trackingNumber === input.trackingNumber &&
      locked.trackingUrl === trackingUrl;
    if (same)
      return {
        order: toOrderView(locked),
        outcome: 'unchanged',
        message: FULFILMENT_MESSAGES.unchanged,
      };
    const at = new Date();
    const [updated] = await tx
      .update(orders)
      .set({
        status: sql`case when ${orders.status} in ('paid', 'processing') then 'shipped' else ${orders.status} end`,
        // Note: the first shipping time stays; a corrected tracking number is the same parcel.
        shippedAt: sql`coalesce(${orders.shippedAt}, now())`,
        shippingCarrier: input.carrier,
        trackingNumber: input.trackingNumber,
        trackingUrl,
        updatedAt: nextVersion(orders.updatedAt),
      })
      .where(eq(orders.id, locked.id))
      .returning(orderColumns);
    if (!updated) throw new AppError('not_found', ORDER_MESSAGES.notFound);
    const slug = await enqueueShippedWebhook(tx, updated.id, at, wasShipped);
    await enqueueShippedMail(
      tx,
      updated.id,
      at,
      origin ? orderPageUrl(origin, slug, updated.id) : null,
      wasShipped,
    );
    return wasShipped
      ? { order: toOrderView(updated), outcome: 'updated', message: FULFILMENT_MESSAGES.updated }
      : { order: toOrderView(updated), outcome: 'shipped', message: FULFILMENT_MESSAGES.shipped };
  });
}

/**
 * Inserts the `order.shipped` event through the outbox (built from the rows as this transaction
 * left them); answers the store's slug for the shopper's link (none for a link's order, whose
 * shopper reads the universal page).
 */
async function enqueueShippedWebhook(
  tx: Executor,
  orderId: string,
  at: Date,
  updated: boolean,
): Promise<string | null> {
  const [row] = await tx
    .select({ walletId: paymentWallets.id, source: orders.source, slug: stores.slug })
    .from(orders)
    .leftJoin(paymentWallets, eq(paymentWallets.orderId, orders.id))
    .leftJoin(stores, eq(stores.id, orders.storeId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!row) return null;
  // Note: a paid order always has its deposit wallet; the payload reports it.
  if (row.walletId)
    await enqueueOrderEvents(tx, row.walletId, ['order.shipped'], at, undefined, undefined, {
      updated,
    });
  return isLinkOrder(row.source) ? null : (row.slug ?? null);
}

/**
 * Queues the shopper's "shipped" mail (one row per order). A new tracking re-queues the same row
 * (marked as an update once the first was sent); the template reads the tracking when it sends.
 * None for an unsigned universal link (see `receiptIsEmailed`).
 */
async function enqueueShippedMail(
  tx: Executor,
  orderId: string,
  at: Date,
  pageUrl: string | null,
  updated: boolean,
): Promise<void> {
  const [order] = await tx
    .select({ email: orders.customerEmail, source: orders.source })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || !receiptIsEmailed(order.source)) return;
  const retryUntil = new Date(at.getTime() + EMAIL_RETRY_WINDOW_MS);
  await tx
    .insert(emailOutbox)
    .values({
      orderId,
      kind: 'shipped',
      toAddress: order.email,
      payload: { orderPageUrl: pageUrl, updated },
      nextAttemptAt: at,
      retryUntil,
      createdAt: at,
    })
    .onConflictDoUpdate({
      target: ONE_PER_ORDER.target,
      targetWhere: ONE_PER_ORDER.where,
      set: {
        // Note: still pending, the first mail simply goes out with the new tracking.
        payload: sql`jsonb_build_object('orderPageUrl', ${pageUrl}::text, 'updated', ${emailOutbox.status} = 'sent' or coalesce((${emailOutbox.payload}->>'updated')::boolean, false))`,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: at,
        retryUntil,
        lastError: null,
        messageId: null,
        sentAt: null,
      },
    });
}
