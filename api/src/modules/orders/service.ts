// Orders: creation from a store checkout, the merchant's order list and status changes, and the
// inventory step the payment system runs when an order is paid.
import {
  canTransitionOrder,
  formatUsdcFull,
  isOrderStatus,
  ORDER_LIST_LIMITS,
  type OrderMetadata,
  resolveStoreSettings,
} from '@store/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, products, stores } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { expectedVersion, nextVersion, staleEdit } from '../../http/versions.ts';
import { availableUnits, heldUnits } from '../stock/holds.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';
import { getOwnStoreOrThrow, isUuid } from '../stores/service.ts';
import { decodeCursor, encodeCursor, orderListConditions } from './list-filters.ts';
import {
  type CreateOrderBody,
  type ListOrdersQuery,
  ORDER_MESSAGES,
  type OrderView,
  type UpdateOrderBody,
} from './model.ts';
import { type CatalogueProduct, priceOrder } from './pricing.ts';

/** How long an order holds its units of tracked products (STOCK_HOLD_MINUTES). */
export const DEFAULT_STOCK_HOLD_MINUTES = 30;

/** The database or a transaction on it. */
type StockShortfall = NonNullable<OrderMetadata['stockShortfall']>[number];

export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

const orderColumns = {
  id: orders.id,
  storeId: orders.storeId,
  customerEmail: orders.customerEmail,
  shippingAddress: orders.shippingAddress,
  items: orders.items,
  subtotalUsdc: orders.subtotalUsdc,
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

// Note: order creation is the hot path: its statements are prepared SQL on the pool's client (no
// query building per request), and an order without tracked products runs no transaction: the
// store, its settings and the ordered products in one query, then the order's insert.
const CATALOGUE = `select s.is_active, s.payment_address, s.tax_rate_bps, s.shipping_options,
    s.shipping_time, s.return_policy_days, p.id as product_id, p.title, p.price_usdc,
    p.image_url, p.inventory, p.track_inventory
  from stores s
  left join products p on p.store_id = s.id and p.is_published and p.id = any($2::uuid[])
  where s.id = $1::uuid`;

interface CatalogueRow {
  is_active: boolean;
  payment_address: string | null;
  tax_rate_bps: number;
  shipping_options: unknown;
  shipping_time: string | null;
  return_policy_days: number | null;
  product_id: string | null;
  title: string;
  price_usdc: string;
  image_url: string | null;
  inventory: number;
  track_inventory: boolean;
}

/**
 * The open store's settings and its published products among `productIds`; 404/422 when it
 * cannot take orders.
 */
async function loadCatalogue(db: Database, storeId: string, productIds: string[]) {
  if (!isUuid(storeId)) throw new AppError('not_found', STORE_NOT_FOUND);
  const ids = [...new Set(productIds.filter(isUuid))];
  const rows = await db.$client.unsafe<CatalogueRow[]>(CATALOGUE, [storeId, ids], {
    prepare: true,
  });
  const store = rows[0];
  if (!store) throw new AppError('not_found', STORE_NOT_FOUND);
  if (!store.is_active) throw new AppError('validation_failed', ORDER_MESSAGES.storeClosed);
  if (!store.payment_address)
    throw new AppError('validation_failed', ORDER_MESSAGES.noPaymentAddress);
  const settings = resolveStoreSettings({
    taxRateBps: store.tax_rate_bps,
    shippingOptions: store.shipping_options,
    shippingTime: store.shipping_time,
    returnPolicyDays: store.return_policy_days,
  });
  const catalogue = new Map<string, CatalogueProduct>();
  for (const row of rows) {
    if (row.product_id === null) continue;
    catalogue.set(row.product_id, {
      id: row.product_id,
      title: row.title,
      priceUsdc: row.price_usdc,
      imageUrl: row.image_url,
      inventory: row.inventory,
      trackInventory: row.track_inventory,
    });
  }
  return { settings, catalogue };
}

const ORDER_RETURNING = `id, store_id, customer_email, shipping_address, items, subtotal_usdc,
  shipping_usdc, tax_usdc, total_usdc, status, payment_chain, payment_tx_hash, payment_address,
  metadata, shipped_at, shipping_carrier, tracking_number, tracking_url, stock_held_until,
  created_at, updated_at, review_token`;
// Note: an order that holds no stock (no tracked product); those that do are placed under their
// products' lock (createOrder).
const INSERT_ORDER = `insert into orders (store_id, customer_email, shipping_address, items,
    subtotal_usdc, shipping_usdc, tax_usdc, total_usdc, status, stock_held_until)
  values ($1::text, $2::text, $3::jsonb, $4::jsonb, $5::numeric, $6::numeric, $7::numeric,
    $8::numeric, $9::text, $10::timestamptz)
  returning ${ORDER_RETURNING}`;

type Timestamp = string | Date | null;
const dateOf = (value: Timestamp) =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/** An order row as INSERT_ORDER returns it (timestamps as the driver gives them). */
interface InsertedOrderRow {
  id: string;
  store_id: string;
  customer_email: string;
  shipping_address: OrderRow['shippingAddress'];
  items: OrderRow['items'];
  subtotal_usdc: string;
  shipping_usdc: string;
  tax_usdc: string;
  total_usdc: string;
  status: OrderRow['status'];
  payment_chain: string | null;
  payment_tx_hash: string | null;
  payment_address: string | null;
  metadata: OrderRow['metadata'];
  shipped_at: Timestamp;
  shipping_carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  stock_held_until: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  review_token: string;
}

/** The row of INSERT_ORDER as `orderColumns` would select it, and the buyer's review token. */
function insertedOrder(r: InsertedOrderRow): { row: OrderRow; reviewToken: string } {
  return {
    row: {
      id: r.id,
      storeId: r.store_id,
      customerEmail: r.customer_email,
      shippingAddress: r.shipping_address,
      items: r.items,
      subtotalUsdc: r.subtotal_usdc,
      shippingUsdc: r.shipping_usdc,
      taxUsdc: r.tax_usdc,
      totalUsdc: r.total_usdc,
      status: r.status,
      paymentChain: r.payment_chain,
      paymentTxHash: r.payment_tx_hash,
      paymentAddress: r.payment_address,
      metadata: r.metadata,
      shippedAt: dateOf(r.shipped_at),
      shippingCarrier: r.shipping_carrier,
      trackingNumber: r.tracking_number,
      trackingUrl: r.tracking_url,
      stockHeldUntil: dateOf(r.stock_held_until),
      createdAt: dateOf(r.created_at) as Date,
      updatedAt: dateOf(r.updated_at) as Date,
    },
    reviewToken: r.review_token,
  };
}

/**
 * Creates a pending order priced from the store's published products (POST /api/orders); its
 * units of tracked products are held for `holdMinutes` (none is sold twice: see modules/stock).
 */
export async function createOrder(
  db: Database,
  body: CreateOrderBody,
  holdMinutes: number = DEFAULT_STOCK_HOLD_MINUTES,
  /** Runs before an order that holds stock is placed (the client's limit on holds). */
  beforeHold: () => Promise<void> = async () => {},
): Promise<OrderView & { reviewToken: string }> {
  const productIds = body.items.map((item) => item.productId);
  const { settings, catalogue } = await loadCatalogue(db, body.storeId, productIds);
  const tracked = [...catalogue.values()].filter((p) => p.trackInventory).map((p) => p.id);
  if (tracked.length === 0) {
    const { items, totals } = priceOrder(body, catalogue, settings);
    const [created] = await db.$client.unsafe<InsertedOrderRow[]>(
      INSERT_ORDER,
      [
        // Note: the canonical (lower-case) id, or the text comparisons of ownership, analytics
        // and stock would miss an order placed with an upper-case id.
        body.storeId.toLowerCase(),
        body.customerEmail,
        body.shippingAddress == null ? null : JSON.stringify(body.shippingAddress),
        JSON.stringify(items),
        totals.subtotalUsdc,
        totals.shippingUsdc,
        totals.taxUsdc,
        totals.totalUsdc,
        'pending',
        null,
      ],
      { prepare: true },
    );
    if (!created) throw new Error('the order insert returned no row');
    const { row, reviewToken } = insertedOrder(created);
    return { ...toOrderView(row), reviewToken };
  }
  return db.transaction(async (tx) => {
    await beforeHold();
    // Note: locked in id order (as the paid-order step does), then read again under the lock:
    // the units other orders hold are counted while no other order of them can be placed.
    const locked = await tx
      .select({ id: products.id, inventory: products.inventory })
      .from(products)
      .where(inArray(products.id, tracked))
      .orderBy(products.id)
      .for('update');
    const held = await heldUnits(tx, tracked);
    for (const row of locked) {
      const product = catalogue.get(row.id);
      if (product) product.inventory = availableUnits(row.inventory, held.get(row.id) ?? 0);
    }
    const { items, totals } = priceOrder(body, catalogue, settings);
    const [created] = await tx
      .insert(orders)
      .values({
        storeId: body.storeId.toLowerCase(),
        customerEmail: body.customerEmail,
        shippingAddress: body.shippingAddress,
        items,
        subtotalUsdc: totals.subtotalUsdc,
        shippingUsdc: totals.shippingUsdc,
        taxUsdc: totals.taxUsdc,
        totalUsdc: totals.totalUsdc,
        status: 'pending',
        stockHeldUntil: sql`now() + ${`${holdMinutes} minutes`}::interval`,
      })
      .returning({ ...orderColumns, reviewToken: orders.reviewToken });
    const { reviewToken, ...row } = created as OrderRow & { reviewToken: string };
    return { ...toOrderView(row), reviewToken };
  });
}

/** An order by its unguessable id, for the shopper's payment and thank-you pages. */
export async function getOrder(db: Database, id: string): Promise<OrderView> {
  const [order] = isUuid(id)
    ? await db.select(orderColumns).from(orders).where(eq(orders.id, id)).limit(1)
    : [];
  if (!order) throw new AppError('not_found', ORDER_MESSAGES.notFound);
  return toOrderView(order);
}

// Note: qualified by hand, as drizzle leaves columns unqualified in a one-table query.
/** Orders of the merchant's stores (a condition on `orders`). */
export const ownedBy = (ownerId: string): SQL =>
  sql`${orders}.store_id in (select s.id::text from ${stores} s where s.owner_id = ${ownerId})`;

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
    .returning({ storeId: orders.storeId, items: orders.items, metadata: orders.metadata });
  if (!order) return false;
  const lines = new Map<string, { quantity: number; title: string; tracked: boolean }>();
  for (const item of order.items) {
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
    if (!line.tracked) continue;
    const [before] = await tx
      .select({ inventory: products.inventory })
      .from(products)
      .where(and(eq(products.id, productId), sql`${products.storeId}::text = ${order.storeId}`))
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
