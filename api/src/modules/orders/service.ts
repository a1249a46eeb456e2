// Orders: creation from a store checkout, the merchant's order list and status changes, and the
// inventory step the payment system runs when an order is paid.
import {
  canTransitionOrder,
  formatUsdcFull,
  isOrderStatus,
  ORDER_LIST_LIMITS,
  type OrderMetadata,
} from '@store/shared';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { orders, products, stores } from '../../db/schema.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import { expectedVersion, nextVersion, staleEdit } from '../../http/versions.ts';
import { availableUnits, heldUnits } from '../stock/holds.ts';
import { getOwnStoreOrThrow, isUuid } from '../stores/service.ts';
import { decodeCursor, encodeCursor, orderListConditions } from './list-filters.ts';
import {
  type ListOrdersQuery,
  ORDER_MESSAGES,
  type OrderView,
  type UpdateOrderBody,
} from './model.ts';

type StockShortfall = NonNullable<OrderMetadata['stockShortfall']>[number];

const orderColumns = {
  id: orders.id,
  storeId: orders.storeId,
  source: orders.source,
  payeeAddress: orders.payeeAddress,
  customerEmail: orders.customerEmail,
  shippingAddress: orders.shippingAddress,
  items: orders.items,
  subtotalUsdc: orders.subtotalUsdc,
  discountCode: orders.discountCode,
  discountUsdc: orders.discountUsdc,
  shippingUsdc: orders.shippingUsdc,
  taxUsdc: orders.taxUsdc,
  totalUsdc: orders.totalUsdc,
  status: orders.status,
  paymentChain: orders.paymentChain,
  paymentTxHash: orders.paymentTxHash,
  paymentAddress: orders.paymentAddress,
  metadata: orders.metadata,
  shippedAt: orders.shippedAt,
  shippingCarrier: orders.shippingCarrier,
  trackingNumber: orders.trackingNumber,
  trackingUrl: orders.trackingUrl,
  stockHeldUntil: orders.stockHeldUntil,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
};
/** An order row as `orderColumns` selects it. */
export type OrderRow = Omit<OrderView, 'shipment'> & {
  shippedAt: Date | null;
  shippingCarrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
};

/** The API's view of an order row: the fulfilment columns as one `shipment` (null until shipped). */
export function toOrderView(row: OrderRow): OrderView {
  const { shippedAt, shippingCarrier, trackingNumber, trackingUrl, ...order } = row;
  const shipment =
    shippedAt && shippingCarrier && trackingNumber
      ? {
          carrier: shippingCarrier,
          trackingNumber,
          trackingUrl,
          shippedAt: shippedAt.toISOString(),
        }
      : null;
  return { ...order, shipment };
}
export { orderColumns };

/**
 * An order as anyone who knows its id reads it (the payment pages, a receipt's link): what it is
 * and where it stands, with no personal data (no email, no name, phone or address). The order's
 * id is no secret: its merchant, a page's referrer know it. Note: a link's webhook URL is a
 * column no view selects.
 */
export function anonymousOrderView(order: OrderView): OrderView {
  return { ...order, customerEmail: '', shippingAddress: null };
}

/**
 * An order by its id, for the shopper's payment and thank-you pages: in full with its buyer token
 * (the browser that placed it), else its anonymous view.
 */
export async function getOrder(
  db: Database,
  id: string,
  buyerToken?: string | null,
): Promise<OrderView> {
  const [order] = isUuid(id)
    ? await db
        .select({ ...orderColumns, buyerToken: orders.reviewToken })
        .from(orders)
        .where(eq(orders.id, id))
        .limit(1)
    : [];
  if (!order) throw new AppError('not_found', ORDER_MESSAGES.notFound);
  const { buyerToken: stored, ...row } = order;
  const view = toOrderView(row);
  return isBuyerToken(stored, buyerToken) ? view : anonymousOrderView(view);
}

// Note: qualified by hand, as drizzle leaves columns unqualified in a one-table query.
/** Orders of the merchant's stores (a condition on `orders`). */
export const ownedBy = (ownerId: string): SQL =>
  sql`${orders}.store_id in (select s.id from ${stores} s where s.owner_id = ${ownerId})`;

/** One page of the merchant's orders and the cursor of the next (null on the last page). */
export interface OrderPage {
  orders: OrderView[];
  nextCursor: string | null;
}

/**
 * The merchant's orders across its stores, newest first: searched (email, order id or number,
 * external order id), filtered (store, status, payment exception, days) and paged by cursor.
 */
export async function listMerchantOrders(
  db: Database,
  ownerId: string,
  query: ListOrdersQuery,
): Promise<OrderPage> {
  if (query.storeId !== undefined) await getOwnStoreOrThrow(db, ownerId, query.storeId);
  const limit = query.limit ?? ORDER_LIST_LIMITS.defaultPage;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  // Note: per row of one page (at most ORDER_LIST_LIMITS), through the legs' wallet index.
  const forwarded = sql<{ merchant: string; fee: string; txs: string[] } | null>`(
    select case when count(*) = 0 then null else json_build_object(
      'merchant', coalesce(sum(ft.value) filter (where ft.leg = 'merchant'), 0)::text,
      'fee', coalesce(sum(ft.value) filter (where ft.leg = 'fee'), 0)::text,
      'txs', coalesce(json_agg(ft.tx_hash order by ft.round, ft.leg), '[]'::json)) end
    from forwarding_transfers ft join payment_wallets pw on pw.id = ft.wallet_id
    where pw.order_id = "orders"."id" and ft.status = 'confirmed' and ft.leg in ('merchant', 'fee'))`;
  const rows = await db
    .select({ ...orderColumns, cursorAt: sql<string>`${orders.createdAt}::text`, forwarded })
    .from(orders)
    .where(
      and(
        ownedBy(ownerId),
        ...orderListConditions(query),
        after &&
          sql`(${orders.createdAt}, ${orders.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    orders: page.map(({ cursorAt: _, forwarded: legs, ...row }) => ({
      ...toOrderView(row),
      forwarded: legs
        ? {
            merchantUsdc: formatUsdcFull(BigInt(legs.merchant)),
            feeUsdc: formatUsdcFull(BigInt(legs.fee)),
            txHashes: legs.txs.filter((hash): hash is string => typeof hash === 'string'),
          }
        : null,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursorAt, last.id) : null,
  };
}

/** One of the merchant's orders (its detail page); 404 for anyone else's. */
export async function getOwnOrderOrThrow(
  db: Database,
  ownerId: string,
  id: string,
): Promise<OrderView> {
  const [order] = isUuid(id)
    ? await db
        .select(orderColumns)
        .from(orders)
        .where(and(eq(orders.id, id), ownedBy(ownerId)))
        .limit(1)
    : [];
  if (!order) throw new AppError('not_found', ORDER_MESSAGES.notFound);
  return toOrderView(order);
}

/** Moves the merchant's order one step (paid, processing, shipped, completed); 422 otherwise. */
export async function updateOrderStatus(
  db: Database,
  ownerId: string,
  id: string,
  input: UpdateOrderBody,
): Promise<OrderView> {
  const current = await getOwnOrderOrThrow(db, ownerId, id);
  const expected = expectedVersion(input.updatedAt);
  if (expected && expected.getTime() !== current.updatedAt.getTime())
    throw staleEdit('order', current);
  const from = current.status;
  if (!isOrderStatus(from) || !canTransitionOrder(from, input.status))
    throw new AppError('validation_failed', ORDER_MESSAGES.transition(from, input.status));
  const [updated] = await db
    .update(orders)
    .set({ status: input.status, updatedAt: nextVersion(orders.updatedAt) })
    .where(
      and(
        eq(orders.id, id),
        eq(orders.status, from),
        expected ? eq(orders.updatedAt, expected) : undefined,
      ),
    )
    .returning(orderColumns);
  if (!updated) throw staleEdit('order', await getOwnOrderOrThrow(db, ownerId, id));
  return toOrderView(updated);
}

/**
 * Takes a paid order's quantities out of stock; call it in the transaction that marks the order
 * paid. Runs once per order (later calls return false). Untracked products are left alone; a
 * tracked one stays tracked (and published) at 0: sold out. Note: an order's units are held from
 * its creation, so this can fall short only for an order paid after its hold ended; the payment
 * stands, and what could not be taken from stock is written to the order's
 * `metadata.stockShortfall` (the order is oversold, for the merchant to refund or restock).
 */
export async function decrementInventoryForPaidOrder(
  tx: Executor,
  orderId: string,
): Promise<boolean> {
  const [order] = await tx
    .update(orders)
    .set({ inventoryCommittedAt: sql`now()`, updatedAt: nextVersion(orders.updatedAt) })
    .where(and(eq(orders.id, orderId), isNull(orders.inventoryCommittedAt)))
    .returning({
      storeId: orders.storeId,
      source: orders.source,
      items: orders.items,
      metadata: orders.metadata,
    });
  if (!order) return false;
  // Note: only a storefront's lines are our catalogue's; a link's or a session's item ids are the
  // integrator's (a link's could name any product), and they never take stock.
  const fromCatalogue = order.source === 'storefront' && order.storeId !== null;
  const lines = new Map<string, { quantity: number; title: string; tracked: boolean }>();
  for (const item of fromCatalogue ? order.items : []) {
    if (!isUuid(item.productId)) continue;
    const line = lines.get(item.productId);
    lines.set(item.productId, {
      quantity: (line?.quantity ?? 0) + item.quantity,
      title: item.title,
      // Note: orders placed before lines carried the flag count as tracked when stock is left.
      tracked: item.stockTracked ?? true,
    });
  }
  const shortfall: StockShortfall[] = [];
  // Note: sorted, so two orders paid at once lock their products in the same order (no deadlock).
  for (const [productId, line] of [...lines].sort(([a], [b]) => a.localeCompare(b))) {
    const storeId = order.storeId;
    if (!line.tracked || !storeId) continue;
    const [before] = await tx
      .select({ inventory: products.inventory })
      .from(products)
      .where(and(eq(products.id, productId), eq(products.storeId, storeId)))
      .for('update');
    if (!before) continue;
    // Note: units other orders hold right now are theirs: an order paid after its own hold ended
    // takes only what is left besides them (an order within its hold always finds its units).
    const othersHold = (await heldUnits(tx, [productId], orderId)).get(productId) ?? 0;
    const takable = availableUnits(before.inventory, othersHold);
    const taken = Math.min(line.quantity, takable);
    if (taken < line.quantity) {
      shortfall.push({
        productId,
        title: line.title,
        ordered: line.quantity,
        available: takable,
      });
    }
    if (taken === 0) continue;
    await tx
      .update(products)
      .set({
        inventory: sql`greatest(${products.inventory} - ${taken}, 0)`,
        updatedAt: nextVersion(products.updatedAt),
      })
      .where(eq(products.id, productId));
  }
  if (shortfall.length > 0) {
    await tx
      .update(orders)
      .set({ metadata: { ...order.metadata, stockShortfall: shortfall } })
      .where(eq(orders.id, orderId));
  }
  return true;
}
