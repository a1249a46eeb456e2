// Drizzle schema of the API's tables (docs/data.md describes them).
// Money columns are Postgres numerics, read and written as decimal strings (`"12.99"`); the
// shared money module turns them into bigint base units. No floating point touches them.

import {
  API_KEY_MODES,
  type ApiKeyMode,
  CHECKOUT_SESSION_STORED_STATUSES,
  type CheckoutSessionStoredStatus,
  type DiscountKind,
  EMAIL_STATUSES,
  type EmailStatus,
  FORWARDING_LEG_STATUSES,
  FORWARDING_STATUSES,
  type ForwardingLegStatus,
  type ForwardingStatus,
  ORDER_SOURCES,
  ORDER_STATUSES,
  type OrderItem,
  type OrderMetadata,
  type OrderSource,
  type OrderStatus,
  PAYMENT_EXCEPTIONS,
  PAYMENT_STATES,
  type PaymentException,
  type PaymentState,
  REFUND_SOURCES,
  REFUND_STATUSES,
  type RefundSource,
  type RefundStatus,
  type ShippingAddress,
  type ShippingZone,
  type StockShortfall,
  type StoreShippingOptions,
  type Theme,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDeliveryStatus,
} from '@store/shared';
import { STORE_ROLES, type StoreRole } from '@store/shared/team';
import { type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
// Note: the version an edit was made on; a stale one gets 409 (optimistic concurrency).
const updatedAt = () => timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow();

/**
 * The condition of a CHECK constraint that keeps a state column to the values of a shared list
 * (`"status" in ('pending', 'paid', ...)`). Note: built from the shared constants, so a new state
 * is one edit there and a generated migration here.
 */
export function oneOf(column: string, values: readonly string[]): SQL {
  const quoted = values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
  return sql.raw(`"${column}" in (${quoted})`);
}

/** Merchants who sign in; `password` holds an argon2id hash, never the password. */
export const users = pgTable('users', {
  id: uuid().primaryKey().defaultRandom(),
  username: text().notNull().unique(),
  password: text().notNull(),
  // Note: stored lowercased; null for accounts made before emails (asked at next sign-in).
  email: text().unique(),
  emailVerifiedAt: timestamp({ withTimezone: true }),
  // TOTP second factor: the base32 secret, set up first and enabled once a code proves it.
  totpSecret: text(),
  totpEnabledAt: timestamp({ withTimezone: true }),
  // The TOTP step of the last code used (a code works once, across every API process) and the
  // wrong codes since the last right one, which slow the account down.
  totpLastStep: bigint({ mode: 'number' }),
  totpFailures: integer().notNull().default(0),
  totpFailedAt: timestamp({ withTimezone: true }),
  passwordChangedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Single-use, time-limited links mailed to a merchant: email verification and password reset.
 * The table holds only the token's SHA-256.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // 'verify_email' or 'reset_password'
    purpose: text().notNull(),
    // the address the link was sent to (verify_email: the address it proves)
    email: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('account_tokens_user_id_idx').on(t.userId, t.purpose)],
);

/** One-time recovery codes of a TOTP second factor, stored as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/** Signed-in sessions; the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    // What the account page shows to tell sessions apart (the browser's User-Agent, cut short).
    userAgent: text(),
    lastSeenAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** First responses of mutations sent with an `Idempotency-Key`, replayed for 24 hours. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    // Note: the scope is the user id, or 'anonymous:' and the client's network address for
    // shopper calls, so keys never collide across merchants or clients.
    scope: text().notNull(),
    key: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    requestHash: text().notNull(),
    // null while the first request is still running
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Rate-limit counters shared by every API process: the hits of one key (a client's address
 * bucket, a store) in one bucket (a limited action) during its current window, which starts at
 * the key's first hit. Note: keys are stored as their SHA-256 (no client address is kept), rows
 * are pruned hourly once their window has ended, and the table is UNLOGGED (see its migration).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text().notNull(),
    key: text().notNull(),
    hits: integer().notNull(),
    windowEndsAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] })],
);

/** Merchant stores with their branding and payout address. */
export const stores = pgTable(
  'stores',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    slug: text().notNull().unique(),
    logoUrl: text(),
    description: text(),
    domain: text(),
    ownerId: text().notNull(),
    paymentAddress: text(),
    theme: text().$type<Theme>().notNull().default('dark'),
    primaryColor: text().notNull().default('#6366f1'),
    secondaryColor: text().notNull().default('#8b5cf6'),
    accentColor: text().notNull().default('#06b6d4'),
    isActive: boolean().notNull().default(true),
    // Outgoing webhooks of store orders (signed with the store's secret).
    webhookUrl: text(),
    webhookSecret: text(),
    // Note: kept for a day after a rotation and signed with too, so receivers can switch over.
    previousWebhookSecret: text(),
    webhookSecretRotatedAt: timestamp({ withTimezone: true }),
    // Where shoppers' replies to the store's receipts go (none: the platform's sender).
    replyToEmail: text(),
    // Store settings shown on the storefront and used by its checkout (null: the defaults).
    // tax rate in basis points (800 = 8%); a new store charges none until its merchant sets one
    taxRateBps: integer().notNull().default(0),
    // the shipping methods offered with their prices and delivery texts (a new store: free only)
    shippingOptions: jsonb().$type<StoreShippingOptions>(),
    // Zones of countries, each with its own tax rate and shipping methods (ShippingZonesSchema);
    // a country in none gets tax_rate_bps and shipping_options above: the rest of the world.
    shippingZones: jsonb().$type<ShippingZone[]>().notNull().default([]),
    // Whether the prices include the tax (shown at checkout, not added) or the tax is added.
    pricesIncludeTax: boolean().notNull().default(false),
    // e.g. "2-7 days"
    shippingTime: text(),
    // days within which returns are accepted; 0: no returns
    returnPolicyDays: integer(),
    // Whether the merchant gets an email for each paid order.
    notifyPaidOrders: boolean().notNull().default(true),
    // The seller on the store's invoices (docs/rules.md#invoices): legal name, postal address
    // (lines), tax id; null: the store's name alone, no address, no tax id.
    legalName: text(),
    legalAddress: text(),
    taxId: text(),
    // Whether the receipt mail carries the order's invoice as a PDF (off until the merchant turns it on).
    attachInvoiceToReceipt: boolean().notNull().default(false),
    // Months an order keeps its customer's personal data (name, email, phone, address) after it
    // was placed; null: kept until the merchant erases the customer (docs/rules.md#customer-data).
    customerRetentionMonths: integer(),
    // "Verified Store": the payout address that signed an EIP-4361 message, with the message and
    // signature. Note: valid only while it equals payment_address.
    verifiedAddress: text(),
    verifiedAt: timestamp({ withTimezone: true }),
    verificationMessage: text(),
    verificationSignature: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('stores_slug_idx').on(t.slug),
    index('stores_owner_id_idx').on(t.ownerId),
    check(
      'stores_customer_retention_months_check',
      sql`${t.customerRetentionMonths} is null or ${t.customerRetentionMonths} between 1 and 120`,
    ),
  ],
);

/**
 * Every slug a store has had, with the merchant it belongs to. Note: a slug a store gives up stays
 * its owner's for good: nobody else may take it (the store's old links and QR codes never sell for
 * someone else), and its owner may take it back. A store takes a slug by inserting its row here
 * first, so two merchants racing for a slug never both get it.
 */
export const storeSlugs = pgTable('store_slugs', {
  slug: text().primaryKey(),
  ownerId: text().notNull(),
  createdAt: createdAt(),
});

/**
 * A store's team: each member's role (shared/src/team.ts). The store's owner (`stores.owner_id`) is
 * its one `owner` member, added by a trigger when the store is made and never removed or demoted;
 * admins, staff and viewers join by invitation. `refund_limit_usdc` is a staff member's refund cap
 * per order (null: staff may not refund); the owner sets it per member.
 */
export const storeMembers = pgTable(
  'store_members',
  {
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().$type<StoreRole>().notNull(),
    refundLimitUsdc: numeric({ precision: 10, scale: 2 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.storeId, t.userId] }),
    index('store_members_user_id_idx').on(t.userId),
    uniqueIndex('store_members_one_owner_idx').on(t.storeId).where(sql`${t.role} = 'owner'`),
    check('store_members_role_check', oneOf('role', STORE_ROLES)),
    check(
      'store_members_refund_limit_check',
      sql`${t.refundLimitUsdc} is null or ${t.refundLimitUsdc} >= 0`,
    ),
  ],
);

/**
 * Invitations to a store's team: mailed to `email` as a single-use link (only the SHA-256 of its
 * token is kept), valid until `expires_at`, ended by being accepted or revoked.
 */
export const storeInvitations = pgTable(
  'store_invitations',
  {
    id: uuid().primaryKey().defaultRandom(),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    // stored lowercased
    email: text().notNull(),
    role: text().$type<StoreRole>().notNull(),
    refundLimitUsdc: numeric({ precision: 10, scale: 2 }),
    tokenHash: text().notNull().unique(),
    invitedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    acceptedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('store_invitations_store_id_idx').on(t.storeId, t.createdAt),
    check('store_invitations_role_check', sql`${t.role} in ('admin', 'staff', 'viewer')`),
  ],
);

/** Products of a store, priced in USDC. */
export const products = pgTable(
  'products',
  {
    id: uuid().primaryKey().defaultRandom(),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text(),
    imageUrl: text(),
    // amount in USDC, 2 decimals
    priceUsdc: numeric({ precision: 10, scale: 2 }).notNull(),
    isPublished: boolean().notNull().default(true),
    inventory: integer().notNull().default(0),
    // Note: whether `inventory` counts units. Before this column, inventory 0 meant "not tracked",
    // so a sold-out product became unlimited when published again; now 0 with tracking is sold out.
    trackInventory: boolean().notNull().default(false),
    // A digital product: 'api' (the merchant's API at `upstream_url`, reached with the secret
    // header we add, sold per request over HTTP 402) or 'file' (a file the merchant uploaded, kept
    // in the object store under `file_key`, delivered once paid); null for a physical product.
    digitalKind: text(),
    upstreamUrl: text(),
    upstreamSecretHeader: text(),
    // Note: write-only for the merchant: never part of a response, replay or log.
    upstreamSecretValue: text(),
    // a file product's file: its object store key, the name and type it is delivered with, size
    fileKey: text(),
    fileName: text(),
    fileType: text(),
    fileBytes: integer(),
    // Note: the merchant's own ceiling on the price (a sanity check against a mistyped price).
    maxPriceUsdc: numeric({ precision: 10, scale: 2 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('products_store_id_idx').on(t.storeId),
    check(
      'products_digital_kind_check',
      sql`${t.digitalKind} is null or ${t.digitalKind} in ('api', 'file')`,
    ),
    check(
      'products_upstream_url_check',
      sql`(${t.digitalKind} is not distinct from 'api') = (${t.upstreamUrl} is not null)`,
    ),
    check(
      'products_file_check',
      sql`(${t.digitalKind} is not distinct from 'file') = (${t.fileKey} is not null and ${t.fileName} is not null and ${t.fileType} is not null and ${t.fileBytes} is not null)`,
    ),
    check(
      'products_max_price_check',
      sql`${t.maxPriceUsdc} is null or ${t.priceUsdc} <= ${t.maxPriceUsdc}`,
    ),
  ],
);

/**
 * Product reviews by shoppers with a paid order of the product (one per order and product). The
 * merchant can hide a review, never edit it.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid().primaryKey().defaultRandom(),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    // 1 to 5 stars
    rating: integer().notNull(),
    title: text(),
    body: text().notNull(),
    authorName: text().notNull(),
    hiddenAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reviews_order_product_idx').on(t.orderId, t.productId),
    index('reviews_product_id_idx').on(t.productId, t.createdAt),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * A store's discount codes: percentage (basis points) or a fixed USDC amount off the subtotal of
 * the products named (null: every product), from a minimum subtotal, until an expiry, for at most
 * `max_uses` orders in all and `max_uses_per_customer` per customer email. A use is an order placed
 * with the code that is paid (or later) or pending within DISCOUNT_HOLD_MINUTES of being placed;
 * the code's row is locked while its uses are counted and the order written.
 */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    // upper-case: codes are case-insensitive
    code: text().notNull(),
    kind: text().$type<DiscountKind>().notNull(),
    percentBps: integer(),
    amountUsdc: numeric({ precision: 10, scale: 2 }),
    minimumSubtotalUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    productIds: uuid().array(),
    expiresAt: timestamp({ withTimezone: true }),
    maxUses: integer(),
    maxUsesPerCustomer: integer(),
    isActive: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('discount_codes_store_code_idx').on(t.storeId, t.code),
    check('discount_codes_code_check', sql`${t.code} = upper(${t.code})`),
    check(
      'discount_codes_kind_check',
      sql`(${t.kind} = 'percent' and ${t.percentBps} between 1 and 10000 and ${t.amountUsdc} is null) or (${t.kind} = 'fixed' and ${t.amountUsdc} > 0 and ${t.percentBps} is null)`,
    ),
  ],
);

/**
 * Orders of store checkouts, checkout sessions and universal-checkout links. Every order that pays
 * one of our stores names it (a signed link's and a session's included), so it is in that store's
 * orders, figures, notices and books; only an unsigned link's order has no store.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    // the store the order pays; null: an unsigned universal link's order (no store of ours)
    storeId: uuid().references(() => stores.id, { onDelete: 'restrict' }),
    // storefront, checkout_session, signed_link or unsigned_link: ORDER_SOURCES
    source: text().$type<OrderSource>().notNull().default('storefront'),
    // A universal link's payee and webhook URL (null for storefront and session orders, whose
    // payee is the store's payout address and whose events go to the store's webhook URL).
    payeeAddress: text(),
    webhookUrl: text(),
    customerEmail: text().notNull(),
    shippingAddress: jsonb().$type<ShippingAddress>(),
    items: jsonb().$type<OrderItem[]>().notNull(),
    // amounts in USDC, 2 decimals
    subtotalUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    shippingUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    // Note: stored so subtotal - discount + shipping + tax = total wherever the order is shown or sent.
    taxUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    totalUsdc: numeric({ precision: 10, scale: 2 }).notNull(),
    // The discount code applied at checkout (as typed then, upper-case) and what it took off the
    // subtotal; the code's row is kept for its use counts (null once the merchant deletes it).
    discountCode: text(),
    discountUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    discountCodeId: uuid().references(() => discountCodes.id, { onDelete: 'set null' }),
    status: text().$type<OrderStatus>().notNull().default('pending'),
    paymentChain: text(),
    paymentTxHash: text(),
    paymentAddress: text(),
    metadata: jsonb().$type<OrderMetadata>(),
    // Note: set once when a paid order's quantities leave the stock, so a retried settlement
    // never decrements inventory twice.
    inventoryCommittedAt: timestamp({ withTimezone: true }),
    // Until when the order's quantities are held out of the stock (none: nothing held).
    stockHeldUntil: timestamp({ withTimezone: true }),
    // An oversold order's lines short of stock when it was paid (payments/stock.ts); null when
    // every unit was there.
    stockShortfall: jsonb().$type<StockShortfall[]>(),
    // A reversed order: the status it had before its payment left the chain, given back if the
    // payment returns (so a shipped order is never shipped twice); null otherwise.
    statusBeforeReversal: text().$type<OrderStatus>(),
    // Fulfilment: set when the merchant marks the order shipped.
    shippedAt: timestamp({ withTimezone: true }),
    shippingCarrier: text(),
    trackingNumber: text(),
    trackingUrl: text(),
    // Note: the buyer's proof of purchase for reviews (244 random bits from Postgres): given only
    // to the browser that placed the order and in its receipt, never to the merchant.
    reviewToken: text()
      .notNull()
      .default(
        sql`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`,
      ),
    // Note: when the customer's personal data left the order (erased on request or by the store's
    // retention); the order keeps its lines and amounts, its email is '' and its address null.
    customerErasedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_store_id_idx').on(t.storeId),
    index('orders_status_idx').on(t.status),
    index('orders_created_at_idx').on(t.createdAt),
    // A code's uses are counted from its orders (discounts/service.ts).
    index('orders_discount_code_id_idx')
      .on(t.discountCodeId)
      .where(sql`${t.discountCodeId} is not null`),
    // Orders still holding stock (counted whenever a tracked product is ordered or shown).
    index('orders_stock_held_idx')
      .on(t.stockHeldUntil)
      .where(sql`${t.inventoryCommittedAt} is null and ${t.stockHeldUntil} is not null`),
    check('orders_status_check', oneOf('status', ORDER_STATUSES)),
    check(
      'orders_status_before_reversal_check',
      sql`${t.statusBeforeReversal} is null or ${oneOf('status_before_reversal', ORDER_STATUSES)}`,
    ),
    check('orders_source_check', oneOf('source', ORDER_SOURCES)),
    // Note: only an unsigned link's order has no store, and only a link's order names its payee.
    check(
      'orders_source_store_check',
      sql`(${t.storeId} is null) = (${t.source} = 'unsigned_link') and (${t.payeeAddress} is null) = (${t.source} in ('storefront', 'checkout_session'))`,
    ),
  ],
);

/**
 * The invoice of a paid store order: its number in the store's sequence (1, 2, 3 … without gaps)
 * and when it was issued. Note: written by the trigger `orders_issue_invoice` in the transaction
 * that makes the order paid (whatever path does it), numbered from `invoice_counters` under that
 * store's row lock: a rolled-back payment rolls its number back, so numbers never skip.
 */
export const invoices = pgTable(
  'invoices',
  {
    orderId: uuid()
      .primaryKey()
      .references(() => orders.id, { onDelete: 'restrict' }),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'restrict' }),
    number: integer().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invoices_store_number_idx').on(t.storeId, t.number)],
);

/** The last invoice number of each store (see `invoices`). */
export const invoiceCounters = pgTable('invoice_counters', {
  storeId: uuid()
    .primaryKey()
    .references(() => stores.id, { onDelete: 'cascade' }),
  lastNumber: integer().notNull(),
});

/**
 * Each erasure of a customer's personal data from a store's orders: when, why (`request`: the
 * merchant erased them; `retention`: the store's retention) and how many orders. Note: it keeps no
 * trace of the person (no email, no hash of it).
 */
export const customerErasures = pgTable(
  'customer_erasures',
  {
    id: uuid().primaryKey().defaultRandom(),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    orders: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('customer_erasures_store_idx').on(t.storeId, t.createdAt),
    check('customer_erasures_reason_check', sql`${t.reason} in ('request', 'retention')`),
  ],
);

/**
 * Derivation indexes of deposit addresses. Note: a sequence, not max()+1, so concurrent wallet
 * assignments never derive the same address; an index burned by a lost race is simply skipped.
 */
export const paymentDerivationIndexSeq = pgSequence('payment_derivation_index_seq', {
  startWith: 0,
  minValue: 0,
  // BIP-32 non-hardened child indexes end at 2^31 - 1 (and so does the integer column).
  maxValue: 2_147_483_647,
});

/** One deposit address per order, derived from the payment xpub. */
export const paymentWallets = pgTable(
  'payment_wallets',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    walletAddress: text().notNull().unique(),
    derivationPath: text().notNull(),
    // Note: unique, so that no two orders ever share a deposit key.
    derivationIndex: integer().notNull().unique(),
    // Where the payment is (waiting, detected, received, expired, reversed): PAYMENT_STATES.
    status: text().$type<PaymentState>().notNull().default('waiting'),
    // What went wrong, apart from the state (none, underpaid, overpaid, paid_late,
    // accepted_underpaid): PAYMENT_EXCEPTIONS, written with the state by payments/record.ts.
    exception: text().$type<PaymentException>().notNull().default('none'),
    // What the merchant accepted as the whole payment of an underpaid order (6 decimals): from
    // then on the amount the payment is held to (null: the order's total, expected below).
    acceptedAmountUsdc: numeric({ precision: 20, scale: 6 }),
    // amount in USDC, 2 decimals
    expectedAmountUsdc: numeric({ precision: 10, scale: 2 }).notNull(),
    // Note: 6 decimals, not 2: shoppers may send any number of base units and every one counts.
    // amount in USDC at the confirmation depth
    receivedAmountUsdc: numeric({ precision: 20, scale: 6 }).notNull().default('0'),
    // amount in USDC seen at any depth (>= received; the difference still waits for depth)
    detectedAmountUsdc: numeric({ precision: 20, scale: 6 }).notNull().default('0'),
    // The shopper's transfer that completed the expected amount (copied to orders.paymentTxHash).
    depositTxHash: text(),
    // When the full amount was first seen (before depth): what paymentDetected reports.
    detectedAt: timestamp({ withTimezone: true }),
    // Note: generated, so that Postgres keeps statistics on it and the detection pass can find
    // the few wallets with transfers below the confirmation depth through a partial index.
    awaitingDepth: boolean()
      .notNull()
      .generatedAlwaysAs(sql`detected_amount_usdc <> received_amount_usdc`),
    storePaymentAddress: text().notNull(),
    expiredAt: timestamp({ withTimezone: true }),
    gasFunded: boolean().notNull().default(false),
    // amounts in ETH, 18 decimals
    gasAmountSent: numeric({ precision: 30, scale: 18 }).notNull().default('0'),
    forwardingRetryCount: integer().notNull().default(0),
    actualGasUsed: numeric({ precision: 30, scale: 18 }).notNull().default('0'),
    // amount in USDC, 6 decimals: every confirmed forwarding round (merchant share + fee)
    forwardedAmountUsdc: numeric({ precision: 20, scale: 6 }).notNull().default('0'),
    // none, forwarding, completed, retrying (a failure that will be retried), waiting_relayer,
    // failed (stopped) or canceled (the payment left the chain): FORWARDING_STATUSES
    forwardingStatus: text().$type<ForwardingStatus>().notNull().default('none'),
    forwardingError: text(),
    forwardingNextAttemptAt: timestamp({ withTimezone: true }),
    // Note: generated and partially indexed, so the forwarding loop finds the wallets holding
    // unforwarded funds without scanning every settled one.
    forwardingDue: boolean()
      .notNull()
      .generatedAlwaysAs(sql`received_amount_usdc > forwarded_amount_usdc`),
    paymentChain: text().notNull(),
    externalOrderId: text(),
    createdAt: createdAt(),
    paymentReceivedAt: timestamp({ withTimezone: true }),
    forwardedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('payment_wallets_wallet_address_idx').on(t.walletAddress),
    // Note: unique, so that one order can never get two deposit addresses.
    uniqueIndex('payment_wallets_order_id_idx').on(t.orderId),
    index('payment_wallets_external_order_id_idx').on(t.externalOrderId),
    index('payment_wallets_created_at_idx').on(t.createdAt),
    index('payment_wallets_status_idx').on(t.status),
    // Note: the indexer stores addresses in lowercase; detection joins its rows on this.
    uniqueIndex('payment_wallets_wallet_address_lower_idx').on(sql`lower(${t.walletAddress})`),
    // Waiting wallets whose window has closed (the expiry sweep of each detection pass).
    index('payment_wallets_status_expired_at_idx').on(t.status, t.expiredAt),
    // Wallets with transfers still below the confirmation depth (re-checked every pass).
    index('payment_wallets_awaiting_depth_idx').on(t.id).where(sql`${t.awaitingDepth}`),
    // Wallets holding funds that are not forwarded yet (the forwarding loop's work).
    index('payment_wallets_forwarding_due_idx').on(t.id).where(sql`${t.forwardingDue}`),
    check('payment_wallets_status_check', oneOf('status', PAYMENT_STATES)),
    check('payment_wallets_exception_check', oneOf('exception', PAYMENT_EXCEPTIONS)),
    check(
      'payment_wallets_forwarding_status_check',
      oneOf('forwarding_status', FORWARDING_STATUSES),
    ),
  ],
);

/** Every payment state change, appended with its time (the order's payment history). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    walletId: uuid()
      .notNull()
      .references(() => paymentWallets.id, { onDelete: 'cascade' }),
    orderId: uuid().notNull(),
    fromStatus: text(),
    toStatus: text().notNull(),
    // The payment's exception after the change (PAYMENT_EXCEPTIONS), beside its state.
    exception: text().$type<PaymentException>().notNull().default('none'),
    // amount in USDC, 6 decimals: what the wallet had received when the state changed
    receivedAmountUsdc: numeric({ precision: 20, scale: 6 }).notNull(),
    details: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_events_wallet_id_idx').on(t.walletId),
    index('payment_events_order_id_idx').on(t.orderId),
    // The detection's full pass keeps wallets whose state changed lately, however old.
    index('payment_events_created_at_idx').on(t.createdAt),
    check('payment_events_exception_check', oneOf('exception', PAYMENT_EXCEPTIONS)),
  ],
);

/**
 * A signed transaction as broadcast (the relayer's, or a deposit key's in gas-funded mode), kept
 * to send the same bytes again: once for every leg it carries (a batch carries up to 64).
 */
export const signedTransactions = pgTable('signed_transactions', {
  hash: text().primaryKey(),
  raw: text().notNull(),
  createdAt: createdAt(),
});

/**
 * One transaction of a forwarding round: the merchant share, the fee, or (gas-funded mode) the
 * ETH sent to the deposit address. Note: written BEFORE anything is signed or sent, and the
 * signed transaction and its hash before it is broadcast, so a restarted worker knows every
 * transaction that may exist on chain. EIP-3009 legs carry a nonce derived from (wallet, round,
 * leg): the token refuses a second use, so no leg can ever pay twice.
 */
export const forwardingTransfers = pgTable(
  'forwarding_transfers',
  {
    id: uuid().primaryKey().defaultRandom(),
    walletId: uuid()
      .notNull()
      .references(() => paymentWallets.id, { onDelete: 'cascade' }),
    round: integer().notNull(),
    // merchant, fee or gas
    leg: text().notNull(),
    // eip3009 or gas-funded
    mode: text().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    // amount in base units of the token (USDC legs) or wei (the gas leg)
    value: numeric({ precision: 78, scale: 0 }).notNull(),
    // EIP-3009: the authorization's nonce (bytes32 hex), its validBefore and signature
    authorizationNonce: text().unique(),
    validBefore: numeric({ precision: 78, scale: 0 }),
    signature: text(),
    // The hash of the signed transaction (relayer's or deposit key's) that carries the leg, its
    // bytes in signed_transactions, stored before broadcast (one row for all the legs of a batch).
    txHash: text(),
    txNonce: integer(),
    // planned, signed, sent, mined, confirmed; reverted, canceling, canceled: FORWARDING_LEG_STATUSES
    status: text().$type<ForwardingLegStatus>().notNull().default('planned'),
    blockNumber: numeric({ precision: 78, scale: 0 }),
    // amount in wei: gasUsed × effectiveGasPrice (+ the L1 fee on Base)
    gasCostWei: numeric({ precision: 78, scale: 0 }),
    createdAt: createdAt(),
    confirmedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('forwarding_transfers_wallet_round_leg_idx').on(t.walletId, t.round, t.leg),
    index('forwarding_transfers_tx_hash_idx').on(t.txHash),
    // Rounds not yet recorded as complete (a restarted worker resumes them first).
    index('forwarding_transfers_open_idx')
      .on(t.walletId)
      .where(sql`${t.status} not in ('confirmed', 'canceled')`),
    check('forwarding_transfers_status_check', oneOf('status', FORWARDING_LEG_STATUSES)),
  ],
);

/**
 * Refunds of an order: money still on its deposit address (sent by the worker with EIP-3009, as a
 * forwarding leg 'refund' of the wallet) or already forwarded (sent by the merchant from the payout
 * wallet). The payer confirms the address through a claim link (`claim_token_hash`: the SHA-256 of
 * the link's token), prefilled with the paying address.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    // the deposit wallet the money is on (source 'deposit')
    walletId: uuid().references(() => paymentWallets.id, { onDelete: 'cascade' }),
    source: text().$type<RefundSource>().notNull(),
    // why: 'excess', 'underpaid', 'expired', 'oversold', 'merchant' (a merchant's full or partial refund)
    reason: text().notNull(),
    // amount in base units of USDC
    amount: numeric({ precision: 78, scale: 0 }).notNull(),
    status: text().$type<RefundStatus>().notNull().default('awaiting_address'),
    // the address that paid (prefilled on the claim page) and the one the payer confirmed
    suggestedAddress: text(),
    toAddress: text(),
    claimTokenHash: text().unique(),
    // the forwarding round of the wallet that carries the refund leg (source 'deposit')
    round: integer(),
    txHash: text(),
    blockNumber: numeric({ precision: 78, scale: 0 }),
    lastError: text(),
    createdAt: createdAt(),
    claimedAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('refunds_order_id_idx').on(t.orderId),
    index('refunds_wallet_id_idx').on(t.walletId),
    index('refunds_due_idx').on(t.createdAt).where(sql`${t.status} in ('ready', 'sending')`),
    check('refunds_status_check', oneOf('status', REFUND_STATUSES)),
    check('refunds_source_check', oneOf('source', REFUND_SOURCES)),
  ],
);

/**
 * The webhook outbox: one row per event and endpoint, inserted in the transaction of the state
 * change. Note: `payload` is text, not jsonb: those exact bytes are signed and sent on every
 * attempt (jsonb would reorder keys).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid().notNull(),
    // the order's store (signed with its webhook secret), or 'universal' for an unsigned link's
    // order (signed with the platform's Ed25519 key): PLATFORM_SIGNED
    storeId: text().notNull(),
    eventType: text().notNull(),
    url: text().notNull(),
    payload: text().notNull(),
    // pending, delivered or failed (given up, or a response that is not retried)
    status: text().$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    retryUntil: timestamp({ withTimezone: true }).notNull(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_store_id_idx').on(t.storeId, t.createdAt),
    index('webhook_deliveries_order_id_idx').on(t.orderId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // Each URL's due deliveries, earliest first (the dispatcher takes them URL by URL).
    index('webhook_deliveries_url_due_idx')
      .on(t.url, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check('webhook_deliveries_status_check', oneOf('status', WEBHOOK_DELIVERY_STATUSES)),
  ],
);

/** Every delivery attempt: status code (null without a response), latency and error. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp({ withTimezone: true }).notNull(),
    statusCode: integer(),
    latencyMs: integer().notNull(),
    error: text(),
    // the first 500 characters of the response body, for the merchant's debugging
    responseBody: text(),
  },
  (t) => [index('webhook_attempts_delivery_id_idx').on(t.deliveryId, t.attemptedAt)],
);

/**
 * The health of each webhook URL: failures in a row (network errors, timeouts, 408, 429, 5xx) and,
 * after WEBHOOK_PAUSE_AFTER_FAILURES of them, a pause: its deliveries wait (nothing is dropped or
 * sent to it) until `pausedUntil`, when one of them goes as a probe; an answer resumes it, another
 * failure pauses it twice as long. The store's owner is told once per pause (`notifiedAt`).
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  url: text().primaryKey(),
  consecutiveFailures: integer().notNull().default(0),
  // The first failure of the current run of failures; null while it answers. A URL failing for
  // WEBHOOK_PAUSE_AFTER_MS without a break is paused.
  failingSince: timestamp({ withTimezone: true }),
  lastError: text(),
  // Since when the endpoint is paused; null while it answers.
  pausedAt: timestamp({ withTimezone: true }),
  // When the next probe may go; null while it answers.
  pausedUntil: timestamp({ withTimezone: true }),
  notifiedAt: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Merchants' secret API keys (`Authorization: Bearer sk_test_…` / `sk_live_…`); the table holds
 * only the key's SHA-256 and the first characters the admin shows to tell keys apart.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    mode: text().$type<ApiKeyMode>().notNull(),
    keyHash: text().notNull().unique(),
    // e.g. "sk_test_Ab12": enough to recognise a key, far too little to use it
    keyPrefix: text().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    // The most the key may do: its member's role or less ('owner': whatever its member may).
    role: text().$type<StoreRole>().notNull().default('owner'),
    // The one store the key acts on (null: every store its user is a member of); revoked when its
    // user leaves that store's team.
    storeId: uuid().references(() => stores.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('api_keys_user_id_idx').on(t.userId, t.createdAt),
    check('api_keys_mode_check', oneOf('mode', API_KEY_MODES)),
    check('api_keys_role_check', oneOf('role', STORE_ROLES)),
  ],
);

/**
 * Checkout sessions an integrator's server creates with an API key: the items, prices and URLs of
 * one hosted checkout, fixed on the server so the shopper cannot edit them. Its order (once the
 * shopper submits the checkout) is a store order of `store_id`, paid to the store's payout address.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    // "cs_" + random base62: the capability in the hosted checkout's URL
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: uuid()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    status: text().$type<CheckoutSessionStoredStatus>().notNull().default('open'),
    // [{ title, priceUsdc, quantity, imageUrl?, productId? }]
    items: jsonb().$type<unknown[]>().notNull(),
    // [{ id, label, priceUsdc }]; empty: no shipping asked
    shippingOptions: jsonb().$type<unknown[]>().notNull().default([]),
    // amounts in USDC, 2 decimals
    subtotalUsdc: numeric({ precision: 10, scale: 2 }).notNull(),
    taxUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    // The store's discount code the integrator gave (checked when the session was made and again,
    // under the code's lock, when its order is made) and what it took off the subtotal then.
    discountCode: text(),
    discountUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    currency: text().notNull().default('USDC'),
    externalOrderId: text(),
    returnUrl: text(),
    cancelUrl: text(),
    // optional pre-fill of the checkout form: { email?, name?, address... }
    customer: jsonb().$type<Record<string, unknown>>(),
    // optional look of the hosted checkout: { primaryColor?, logoUrl?, storeName? ... }
    theme: jsonb().$type<Record<string, unknown>>(),
    metadata: jsonb().$type<Record<string, unknown>>(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    orderId: uuid().references(() => orders.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    // When the shopper submitted the form (the order was created); null before.
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('checkout_sessions_user_id_idx').on(t.userId, t.createdAt),
    index('checkout_sessions_store_id_idx').on(t.storeId),
    uniqueIndex('checkout_sessions_order_id_idx').on(t.orderId),
    check('checkout_sessions_status_check', oneOf('status', CHECKOUT_SESSION_STORED_STATUSES)),
  ],
);

/**
 * Per-store secrets that sign universal-checkout links (HMAC-SHA256). Note: a table of its own so
 * the worker role, which reads `stores`, is refused it (migration 0007); only the API verifies links.
 */
export const storeLinkSecrets = pgTable('store_link_secrets', {
  storeId: uuid()
    .primaryKey()
    .references(() => stores.id, { onDelete: 'cascade' }),
  secret: text().notNull(),
  createdAt: createdAt(),
  rotatedAt: timestamp({ withTimezone: true }),
});

/**
 * The email outbox: a receipt is inserted in the transaction that marks its order paid, so a mail
 * server outage or a crash loses none; the worker renders and sends it, retrying with backoff.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    // Note: an order's mail (receipt, shipped, the merchant's paid-order notice) or an account's
    // (verify email, password reset): one of order_id and user_id is set.
    orderId: uuid().references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    // 'receipt' (one per order), 'shipped', 'merchant_paid', 'verify_email', 'reset_password',
    // 'refund_claim', and the account's notices (mail/notices.ts: 'store_created', 'payout_changed'…)
    kind: text().notNull(),
    // what the template needs beyond the order (an account mail's link); cleared once sent
    payload: jsonb().$type<Record<string, unknown>>(),
    toAddress: text().notNull(),
    status: text().$type<EmailStatus>().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull(),
    retryUntil: timestamp({ withTimezone: true }).notNull(),
    lastError: text(),
    // the SMTP server's message id once accepted
    messageId: text(),
    createdAt: createdAt(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // Note: one mail of each kind per order, but one refund claim mail per refund.
    uniqueIndex('email_outbox_order_kind_idx')
      .on(t.orderId, t.kind)
      .where(sql`${t.kind} <> 'refund_claim'`),
    index('email_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('email_outbox_status_check', oneOf('status', EMAIL_STATUSES)),
    check('email_outbox_subject_check', sql`${t.orderId} is not null or ${t.userId} is not null`),
  ],
);

/** Statuses of an x402 payment (see `x402Payments`). */
export const X402_PAYMENT_STATUSES = [
  'settling',
  'submitted',
  'settled',
  'failed',
  'serving',
  'served',
  'undelivered',
] as const;
/** An x402 payment's status. */
export type X402PaymentStatus = (typeof X402_PAYMENT_STATUSES)[number];

/**
 * Payments signed over HTTP 402 (x402 `exact` on EVM: an EIP-3009 authorization to an order's
 * deposit address), one per authorization: the API verifies and records it (`settling`), the
 * worker's relayer submits it (`submitted`, its transaction recorded before broadcast) and records
 * it in a block (`settled`) or not (`failed`); the API then serves the resource once (`serving`)
 * and keeps the answer (`served`) so the same authorization sent again gets the same answer, or
 * refunds the payer when the resource failed (`undelivered`).
 */
export const x402Payments = pgTable(
  'x402_payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    walletId: uuid()
      .notNull()
      .references(() => paymentWallets.id, { onDelete: 'cascade' }),
    productId: uuid(),
    // the authorization (EIP-3009 TransferWithAuthorization), addresses lowercase
    payer: text().notNull(),
    payTo: text().notNull(),
    value: numeric({ precision: 78, scale: 0 }).notNull(),
    validAfter: numeric({ precision: 78, scale: 0 }).notNull(),
    validBefore: numeric({ precision: 78, scale: 0 }).notNull(),
    authorizationNonce: text().notNull(),
    signature: text().notNull(),
    status: text().$type<X402PaymentStatus>().notNull().default('settling'),
    // the relayer's transaction (recorded before broadcast)
    rawTransaction: text(),
    txHash: text(),
    txNonce: integer(),
    blockNumber: numeric({ precision: 78, scale: 0 }),
    error: text(),
    // the answer served for it (status, content type, body as base64), kept for a replay
    responseStatus: integer(),
    responseType: text(),
    responseBody: text(),
    claimedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    settledAt: timestamp({ withTimezone: true }),
    servedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // Note: one row per authorization: a replayed or concurrent signature finds this one.
    uniqueIndex('x402_payments_authorization_idx').on(t.payer, t.authorizationNonce),
    index('x402_payments_order_id_idx').on(t.orderId),
    // Note: one live authorization per deposit address (an order is paid once); a failed one
    // leaves room for another.
    uniqueIndex('x402_payments_wallet_idx').on(t.walletId).where(sql`${t.status} <> 'failed'`),
    index('x402_payments_due_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('settling', 'submitted')`),
    check('x402_payments_status_check', oneOf('status', X402_PAYMENT_STATUSES)),
  ],
);

/**
 * The audit log (shared/src/audit.ts): every change to money or access, with who made it, when,
 * from where and what changed (never a secret). Append-only: the API's role may insert and read
 * it, never update or delete it (migration 0030); the worker has no right on it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid().primaryKey().defaultRandom(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    action: text().notNull(),
    // The store it concerns (null: the account's own, e.g. an API key or a sign-in).
    storeId: uuid().references(() => stores.id),
    // The account it concerns: the store's owner, or the account that acted on itself.
    accountId: uuid()
      .notNull()
      .references(() => users.id),
    // Who: the user (their username then), and the API key when one was used.
    actorUserId: uuid(),
    actorUsername: text(),
    actorApiKeyId: uuid(),
    actorApiKeyPrefix: text(),
    ip: text(),
    userAgent: text(),
    subjectId: text(),
    changes: jsonb()
      .$type<Record<string, { before: unknown; after: unknown }>>()
      .notNull()
      .default({}),
  },
  (t) => [
    index('audit_log_store_idx').on(t.storeId, t.at, t.id),
    index('audit_log_account_idx').on(t.accountId, t.at, t.id),
  ],
);

/** The browsers an account has signed in from (a `device` cookie's SHA-256): a new one is audited. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);
