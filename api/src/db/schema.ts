// Drizzle schema of the API's tables: users, stores, products, orders, payment_wallets (SPEC §3).
// Money columns are Postgres numerics, read and written as decimal strings (`"12.99"`); the
// shared money module turns them into bigint base units. No floating point touches them.

import type { OrderItem, OrderMetadata, ShippingAddress } from '@store/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
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

/** Merchants who sign in; `password` holds an argon2id hash, never the password. */
export const users = pgTable('users', {
  id: uuid().primaryKey().defaultRandom(),
  username: text().notNull().unique(),
  password: text().notNull(),
  createdAt: createdAt(),
});

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
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** First responses of mutations sent with an `Idempotency-Key`, replayed for 24 hours. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    // Note: the scope is the user id, or 'anonymous' for shopper calls, so keys never collide
    // across merchants.
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
    theme: text().notNull().default('dark'),
    primaryColor: text().notNull().default('#6366f1'),
    secondaryColor: text().notNull().default('#8b5cf6'),
    accentColor: text().notNull().default('#06b6d4'),
    isActive: boolean().notNull().default(true),
    // Outgoing webhooks of store orders (signed with the store's secret).
    webhookUrl: text(),
    webhookSecret: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('stores_slug_idx').on(t.slug), index('stores_owner_id_idx').on(t.ownerId)],
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('products_store_id_idx').on(t.storeId)],
);

/** Orders of store checkouts and universal (external store) checkouts. */
export const orders = pgTable(
  'orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    // Note: text, not a foreign key: universal orders belong to no store of ours.
    storeId: text().notNull(),
    customerEmail: text().notNull(),
    shippingAddress: jsonb().$type<ShippingAddress>(),
    items: jsonb().$type<OrderItem[]>().notNull(),
    // amounts in USDC, 2 decimals
    subtotalUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    shippingUsdc: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    totalUsdc: numeric({ precision: 10, scale: 2 }).notNull(),
    status: text().notNull().default('pending'),
    paymentChain: text(),
    paymentTxHash: text(),
    paymentAddress: text(),
    metadata: jsonb().$type<OrderMetadata>(),
    // Note: set once when a paid order's quantities leave the stock, so a retried settlement
    // never decrements inventory twice.
    inventoryCommittedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_store_id_idx').on(t.storeId),
    index('orders_status_idx').on(t.status),
    index('orders_created_at_idx').on(t.createdAt),
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
    // Payment state (waiting, detected, received, underpaid, overpaid, paid_late, expired, ...).
    status: text().notNull().default('waiting'),
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
    paymentReceived: boolean().notNull().default(false),
    expiredAt: timestamp({ withTimezone: true }),
    gasFunded: boolean().notNull().default(false),
    // amounts in ETH, 18 decimals
    gasAmountSent: numeric({ precision: 30, scale: 18 }).notNull().default('0'),
    forwardingCompleted: boolean().notNull().default(false),
    forwardingRetryCount: integer().notNull().default(0),
    actualGasUsed: numeric({ precision: 30, scale: 18 }).notNull().default('0'),
    paymentChain: text().notNull(),
    isUniversal: boolean().notNull().default(false),
    externalOrderId: text(),
    webhookUrl: text(),
    createdAt: createdAt(),
    paymentReceivedAt: timestamp({ withTimezone: true }),
    forwardedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('payment_wallets_wallet_address_idx').on(t.walletAddress),
    // Note: unique, so that one order can never get two deposit addresses.
    uniqueIndex('payment_wallets_order_id_idx').on(t.orderId),
    index('payment_wallets_external_order_id_idx').on(t.externalOrderId),
    index('payment_wallets_forwarding_idx').on(t.forwardingCompleted, t.expiredAt),
    index('payment_wallets_created_at_idx').on(t.createdAt),
    index('payment_wallets_status_idx').on(t.status),
    // Note: the indexer stores addresses in lowercase; detection joins its rows on this.
    uniqueIndex('payment_wallets_wallet_address_lower_idx').on(sql`lower(${t.walletAddress})`),
    // Waiting wallets whose window has closed (the expiry sweep of each detection pass).
    index('payment_wallets_status_expired_at_idx').on(t.status, t.expiredAt),
    // Wallets with transfers still below the confirmation depth (re-checked every pass).
    index('payment_wallets_awaiting_depth_idx').on(t.id).where(sql`${t.awaitingDepth}`),
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
    // amount in USDC, 6 decimals: what the wallet had received when the state changed
    receivedAmountUsdc: numeric({ precision: 20, scale: 6 }).notNull(),
    details: jsonb(),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_events_wallet_id_idx').on(t.walletId),
    index('payment_events_order_id_idx').on(t.orderId),
  ],
);
