// Order creation (POST /api/orders), the API's hot path. An order of untracked products takes two
// statements: the first counts both rate limits, asks whether the Idempotency-Key was used before
// and reads the store's settings with the ordered products; the second writes the key with its
// response and the order together (the order only when the key was new). Every other case (a key
// used before, an order of tracked products, whose units other orders hold are counted, an error
// to store for replays) takes the general path: the key claimed like any route's
// (http/idempotency.ts), the response stored by the plugin.
import { type DiscountRule, parseUsdc, resolveStoreSettings } from '@store/shared';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import {
  claimKey,
  type KeyRow,
  type Replay,
  replayJson,
  requestKeyRow,
  settleKey,
  settleWithResponse,
} from '../../http/idempotency.ts';
import {
  type RateLimitCheck,
  type RateLimitRow,
  rateLimitColumns,
  rateLimitCtes,
  rateLimitParams,
  throwIfRefused,
} from '../../http/rate-limit.ts';
import { availableUnits, heldUnits } from '../../payments/stock.ts';
import { usableDiscount } from '../discounts/service.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';
import { type CreateOrderBody, ORDER_MESSAGES, type OrderView } from './model.ts';
import { type CatalogueProduct, priceOrder } from './pricing.ts';
import { type OrderRow, toOrderView } from './service.ts';

/** A created order as POST /api/orders answers it: with the buyer's review token. */
export type CreatedOrder = OrderView & { reviewToken: string };

/** What one POST /api/orders brings. */
export interface OrderRequest {
  body: CreateOrderBody;
  request: Request;
  /** Where a 429 puts its Retry-After. */
  set: { headers: Record<string, unknown> };
  /** The rate limits of the order (the client, then the store), counted in its first statement. */
  limits: readonly RateLimitCheck[];
  /** The Idempotency-Key's scope when the request is anonymous (`anonymousScope`). */
  anonymousScope: string;
}

/** The created order, or the stored response of the request that used the key first. */
export type OrderOutcome = { order: CreatedOrder } | { replay: Replay };

// Note: the store's settings and the ordered products, with the rate limits' columns and whether
// the key was used before. Parameters after the limits' (4 per check): scope, key, store id
// (null when not a UUID) and the product ids.
const openStatements = new Map<number, string>();
function openStatement(checks: number): string {
  const cached = openStatements.get(checks);
  if (cached) return cached;
  const p = (n: number) => `$${4 * checks + n}`;
  const limits = checks > 0 ? `with ${rateLimitCtes(checks)}` : '';
  const limitColumns = checks > 0 ? `${rateLimitColumns(checks)},` : '';
  const statement = `${limits}
    select ${limitColumns}
      exists (select 1 from idempotency_keys where scope = ${p(1)}::text and key = ${p(2)}::text)
        as key_used,
      s.id is not null as store_found, s.is_active, s.payment_address, s.tax_rate_bps,
      s.shipping_options, s.shipping_time, s.return_policy_days, s.shipping_zones,
      s.prices_include_tax, p.id as product_id, p.title,
      p.price_usdc, p.image_url, p.inventory, p.track_inventory
    from (select 1) as one
    left join stores s on s.id = ${p(3)}::uuid
    left join products p on p.store_id = s.id and p.is_published and p.id = any(${p(4)}::uuid[])`;
  openStatements.set(checks, statement);
  return statement;
}

type OpenRow = RateLimitRow & {
  key_used: boolean;
  store_found: boolean;
  is_active: boolean;
  payment_address: string | null;
  tax_rate_bps: number;
  shipping_options: unknown;
  shipping_time: string | null;
  return_policy_days: number | null;
  shipping_zones: unknown;
  prices_include_tax: boolean;
  product_id: string | null;
  title: string;
  price_usdc: string;
  image_url: string | null;
  inventory: number;
  track_inventory: boolean;
};

/** The open store's settings and its published ordered products; 404/422 when it cannot sell. */
function catalogueOf(rows: readonly OpenRow[]) {
  const store = rows[0];
  if (!store?.store_found) throw new AppError('not_found', STORE_NOT_FOUND);
  if (!store.is_active) throw new AppError('validation_failed', ORDER_MESSAGES.storeClosed);
  if (!store.payment_address)
    throw new AppError('validation_failed', ORDER_MESSAGES.noPaymentAddress);
  const settings = resolveStoreSettings({
    taxRateBps: store.tax_rate_bps,
    shippingOptions: store.shipping_options,
    shippingTime: store.shipping_time,
    returnPolicyDays: store.return_policy_days,
    shippingZones: store.shipping_zones,
    pricesIncludeTax: store.prices_include_tax,
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

const ORDER_RETURNING = `id, store_id, source, payee_address, customer_email, shipping_address, items, subtotal_usdc,
  discount_code, discount_usdc, shipping_usdc, tax_usdc, total_usdc, status, payment_chain, payment_tx_hash, payment_address,
  metadata, shipped_at, shipping_carrier, tracking_number, tracking_url, stock_held_until,
  created_at, updated_at, review_token`;
const ORDER_COLUMNS = `store_id, customer_email, shipping_address, items, subtotal_usdc,
  shipping_usdc, tax_usdc, total_usdc, status`;
const ORDER_VALUES = `$1::uuid, $2::text, $3::jsonb, $4::jsonb, $5::numeric, $6::numeric,
  $7::numeric, $8::numeric, 'pending'`;
// Note: an order of untracked products: id and review token from Postgres.
const INSERT_ORDER = `insert into orders (${ORDER_COLUMNS}) values (${ORDER_VALUES})
  returning ${ORDER_RETURNING}`;
// Note: the key and its response first, the order only when the key was new (a concurrent
// duplicate waits for the first one's row, then inserts nothing). The response's timestamps are
// the order's: both are now(), the transaction's start (updated_at keeps milliseconds, rounded). $9-$13: the key's scope, key, method,
// path and body hash; $14 the response without its timestamps; $15 the order id; $16 the review
// token.
const iso = (time: string) =>
  `to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const INSERT_KEY_AND_ORDER = `with k as (
    insert into idempotency_keys
      (scope, key, method, path, request_hash, response_status, response_body)
    values ($9::text, $10::text, $11::text, $12::text, $13::text, 201,
      $14::jsonb || jsonb_build_object('createdAt', ${iso('now()')}, 'updatedAt', ${iso('now()::timestamptz(3)')}))
    on conflict do nothing
    returning response_body ->> 'createdAt' as created_iso, response_body ->> 'updatedAt' as updated_iso)
  insert into orders (id, review_token, ${ORDER_COLUMNS})
  select $15::uuid, $16::text, ${ORDER_VALUES} from k
  returning ${ORDER_RETURNING}, (select created_iso from k), (select updated_iso from k)`;

type Timestamp = string | Date | null;
const dateOf = (value: Timestamp) =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/** An order row as the inserts return it (timestamps as the driver gives them). */
interface InsertedOrderRow {
  id: string;
  store_id: string;
  source: OrderRow['source'];
  payee_address: string | null;
  customer_email: string;
  shipping_address: OrderRow['shippingAddress'];
  items: OrderRow['items'];
  subtotal_usdc: string;
  discount_code: string | null;
  discount_usdc: string;
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

/** The created order as the route answers it, from an inserted row. */
function createdOrder(r: InsertedOrderRow): CreatedOrder {
  const row: OrderRow = {
    id: r.id,
    storeId: r.store_id,
    source: r.source,
    payeeAddress: r.payee_address,
    customerEmail: r.customer_email,
    shippingAddress: r.shipping_address,
    items: r.items,
    subtotalUsdc: r.subtotal_usdc,
    discountCode: r.discount_code,
    discountUsdc: r.discount_usdc,
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
    // Note: a new order is short of nothing (a shortfall is found when it is paid).
    stockShortfall: null,
    createdAt: dateOf(r.created_at) as Date,
    updatedAt: dateOf(r.updated_at) as Date,
  };
  return { ...toOrderView(row), reviewToken: r.review_token };
}

/** A review token as the column's default makes one: 244 random bits in 64 hex digits. */
function newReviewToken(): string {
  return crypto.randomUUID().replaceAll('-', '') + crypto.randomUUID().replaceAll('-', '');
}

type Priced = ReturnType<typeof priceOrder>;

/** The order's column values ($1-$8 of the inserts). */
function orderValues(body: CreateOrderBody, { items, totals }: Priced) {
  return [
    body.storeId.toLowerCase(),
    body.customerEmail,
    body.shippingAddress == null ? null : JSON.stringify(body.shippingAddress),
    JSON.stringify(items),
    totals.subtotalUsdc,
    totals.shippingUsdc,
    totals.taxUsdc,
    totals.totalUsdc,
  ];
}

async function insertOrder(db: Database, body: CreateOrderBody, priced: Priced) {
  const [created] = await db.$client.unsafe<InsertedOrderRow[]>(
    INSERT_ORDER,
    orderValues(body, priced),
    { prepare: true },
  );
  if (!created) throw new Error('the order insert returned no row');
  return createdOrder(created);
}

/**
 * The general path's claim of a key the fast path could not write: the stored outcome of the
 * request that used it first, or null when this request now holds it (the plugin stores its
 * response, error or not).
 */
async function claimForPlugin(db: Database, request: Request, key: KeyRow) {
  const outcome = await claimKey(db, key);
  if (!outcome.claimed) return outcome;
  settleWithResponse(request, key);
  return null;
}

/**
 * Creates a pending order priced from the store's published products (POST /api/orders), with
 * its rate limits and Idempotency-Key; refused when a tracked product has fewer units left than it
 * asks for. It holds them once its shopper asks to pay (modules/stock).
 */
export async function createOrder(db: Database, input: OrderRequest): Promise<OrderOutcome> {
  const { body, request, limits } = input;
  const key = await requestKeyRow(db, request, body, input.anonymousScope);
  const productIds = [...new Set(body.items.map((item) => item.productId).filter(isUuid))];
  const rows = await db.$client.unsafe<OpenRow[]>(
    openStatement(limits.length),
    [
      ...rateLimitParams(limits),
      key?.scope ?? null,
      key?.key ?? null,
      isUuid(body.storeId) ? body.storeId : null,
      productIds,
    ],
    { prepare: true },
  );
  // Note: a refused request leaves no key behind, so a retry with the same key runs once allowed.
  throwIfRefused(input.set, limits, rows[0]);
  if (!key) return { order: await placeOrder(db, body, catalogueOf(rows)) };
  if (!rows[0]?.key_used) {
    const priced = pricedWithoutStock(body, rows);
    if (priced) return writeKeyAndOrder(db, request, key, body, priced);
  }
  // The general path: the key claimed as for any route, the response (an error too) stored by
  // the plugin; the catalogue's or the pricing's error, if any, is thrown again here.
  const replay = await claimForPlugin(db, request, key);
  if (replay) return { replay };
  return { order: await placeOrder(db, body, catalogueOf(rows)) };
}

/**
 * The order priced when it has no tracked product, no discount code and nothing is refused; null
 * otherwise.
 */
function pricedWithoutStock(body: CreateOrderBody, rows: readonly OpenRow[]): Priced | null {
  // Note: a code's uses are counted under its row's lock, in the general path's transaction.
  if (body.discountCode !== undefined) return null;
  try {
    const { catalogue, settings } = catalogueOf(rows);
    if ([...catalogue.values()].some((p) => p.trackInventory)) return null;
    return priceOrder(body, catalogue, settings);
  } catch {
    return null;
  }
}

/** The key with its response and the order, in one statement. */
async function writeKeyAndOrder(
  db: Database,
  request: Request,
  key: KeyRow,
  body: CreateOrderBody,
  priced: Priced,
): Promise<OrderOutcome> {
  const id = crypto.randomUUID();
  const reviewToken = newReviewToken();
  const response: Omit<CreatedOrder, 'createdAt' | 'updatedAt'> = {
    id,
    storeId: body.storeId.toLowerCase(),
    source: 'storefront',
    payeeAddress: null,
    customerEmail: body.customerEmail,
    shippingAddress: body.shippingAddress ?? null,
    items: priced.items,
    subtotalUsdc: priced.totals.subtotalUsdc,
    discountCode: null,
    discountUsdc: '0.00',
    shippingUsdc: priced.totals.shippingUsdc,
    taxUsdc: priced.totals.taxUsdc,
    totalUsdc: priced.totals.totalUsdc,
    status: 'pending',
    paymentChain: null,
    paymentTxHash: null,
    paymentAddress: null,
    metadata: null,
    stockHeldUntil: null,
    stockShortfall: null,
    shipment: null,
    reviewToken,
  };
  const stored = replayJson(response);
  const [created] = await db.$client.unsafe<
    Array<InsertedOrderRow & { created_iso: string; updated_iso: string }>
  >(
    INSERT_KEY_AND_ORDER,
    [
      ...orderValues(body, priced),
      key.scope,
      key.key,
      key.method,
      key.path,
      key.requestHash,
      stored,
      id,
      reviewToken,
    ],
    { prepare: true },
  );
  if (!created) {
    // A concurrent request with the same key wrote it first: its response, or 409 while it runs.
    const replay = await claimForPlugin(db, request, key);
    if (replay) return { replay };
    return { order: await insertOrder(db, body, priced) };
  }
  const order = createdOrder(created);
  // Note: the stored response is the one sent; should the row read back otherwise (a column's
  // default or type), it is stored again from the row.
  const sent = JSON.parse(replayJson(order));
  const expected = {
    ...JSON.parse(stored),
    createdAt: created.created_iso,
    updatedAt: created.updated_iso,
  };
  if (!Bun.deepEquals(sent, expected)) await settleKey(db, key, 201, order);
  return { order };
}

/** The general path: the order placed, refused when other orders hold its tracked units. */
async function placeOrder(
  db: Database,
  body: CreateOrderBody,
  { settings, catalogue }: ReturnType<typeof catalogueOf>,
): Promise<CreatedOrder> {
  const tracked = [...catalogue.values()].filter((p) => p.trackInventory).map((p) => p.id);
  // Note: no lock for the stock: placing an order reserves none (its shopper's request for the
  // deposit address does, under the products' lock: stock/holds.ts).
  const held = await heldUnits(db, tracked);
  for (const product of catalogue.values())
    if (product.trackInventory)
      product.inventory = availableUnits(product.inventory, held.get(product.id) ?? 0);
  const code = body.discountCode;
  if (code === undefined) return insertOrder(db, body, priceOrder(body, catalogue, settings));
  // A code's use is one of this order from its insert on: the code's row stays locked from its
  // uses' count to the order's commit, so the last use goes to one order only.
  return db.transaction(async (tx) => {
    const discount = await usableDiscount(tx, body.storeId, code, body.customerEmail, true);
    const priced = priceOrder(body, catalogue, settings, discount.rule);
    // Note: a code that takes off everything of an order with free shipping and no tax leaves
    // nothing to pay, and a deposit address for 0.00 would never be paid: no such order is made.
    if (parseUsdc(priced.totals.totalUsdc) <= 0n)
      throw new AppError('validation_failed', ORDER_MESSAGES.zeroTotal);
    return insertDiscountedOrder(tx, body, priced, discount.id, discount.rule);
  });
}

/** An order placed with a discount code, in the transaction that holds the code's lock. */
async function insertDiscountedOrder(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  body: CreateOrderBody,
  priced: Priced,
  discountId: string,
  rule: DiscountRule,
): Promise<CreatedOrder> {
  const [storeId, email, address, items, subtotal, shipping, tax, total] = orderValues(
    body,
    priced,
  );
  const rows = await tx.execute<InsertedOrderRow & Record<string, unknown>>(sql`
    insert into orders (${sql.raw(ORDER_COLUMNS)}, discount_code, discount_usdc, discount_code_id)
    values (${storeId}::uuid, ${email}::text, ${address}::jsonb, ${items}::jsonb,
      ${subtotal}::numeric, ${shipping}::numeric, ${tax}::numeric, ${total}::numeric, 'pending',
      ${rule.code}::text, ${priced.totals.discountUsdc}::numeric, ${discountId}::uuid)
    returning ${sql.raw(ORDER_RETURNING)}`);
  const [created] = [...rows];
  if (!created) throw new Error('the order insert returned no row');
  return createdOrder(created);
}

/** The statements of an order's fast path, for bench/api/statements.ts. */
export const ORDER_STATEMENTS = {
  /** Rate limits ($1-$8 for two checks), key used ($9, $10), store and products ($11, $12). */
  open: () => openStatement(2),
  /** The order ($1-$8), the key ($9-$13), its response ($14), order id ($15), token ($16). */
  keyAndOrder: INSERT_KEY_AND_ORDER,
};
