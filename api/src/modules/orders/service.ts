// Orders: creation from a store checkout, the merchant's order list and status changes, and the
// inventory step the payment system runs when an order is paid.

import type { StorePermission } from '@store/shared';
import {
  canTransitionOrder,
  formatUsdcFull,
  isOrderStatus,
  ORDER_LIST_LIMITS,
} from '@store/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { nextVersion } from '../../db/row-version.ts';
import { orders } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import { expectedVersion, staleEdit } from '../../http/versions.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import { authorizeStore, type Caller, memberStore } from '../team/access.ts';
import { decodeCursor, encodeCursor, orderListConditions } from './list-filters.ts';
import {
  type ListOrdersQuery,
  ORDER_MESSAGES,
  type OrderView,
  type UpdateOrderBody,
} from './model.ts';

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
  stockShortfall: orders.stockShortfall,
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
 * id is no secret: its merchant, a page's referrer know it. Nor the store's stock (a shortfall). Note: a link's webhook URL is a
 * column no view selects.
 */
export function anonymousOrderView(order: OrderView): OrderView {
  return { ...order, customerEmail: '', shippingAddress: null, stockShortfall: null };
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
/** Orders of the stores the caller is a member of (a condition on `orders`). */
export const ownedBy = (caller: Caller): SQL => memberStore(caller, sql`${orders}.store_id`);

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
  caller: Caller,
  query: ListOrdersQuery,
): Promise<OrderPage> {
  if (query.storeId !== undefined) await getOwnStoreOrThrow(db, caller, query.storeId, 'read');
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
        ownedBy(caller),
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

/**
 * One of the orders of the caller's stores when its role there allows `permission`; 404 for
 * anyone else's, 403 for a role that does not allow it.
 */
export async function getOwnOrderOrThrow(
  db: Database,
  caller: Caller,
  id: string,
  permission: StorePermission,
): Promise<OrderView> {
  const [order] = isUuid(id)
    ? await db
        .select(orderColumns)
        .from(orders)
        .where(and(eq(orders.id, id), ownedBy(caller)))
        .limit(1)
    : [];
  if (!order?.storeId) throw new AppError('not_found', ORDER_MESSAGES.notFound);
  await authorizeStore(db, caller, order.storeId, permission);
  return toOrderView(order);
}

/** Moves the merchant's order one step (paid, processing, shipped, completed); 422 otherwise. */
export async function updateOrderStatus(
  db: Database,
  caller: Caller,
  id: string,
  input: UpdateOrderBody,
): Promise<OrderView> {
  const current = await getOwnOrderOrThrow(db, caller, id, 'operate');
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
  if (!updated) throw staleEdit('order', await getOwnOrderOrThrow(db, caller, id, 'operate'));
  return toOrderView(updated);
}
