// What the API answers, route by route: the response schemas of the OpenAPI document (and, through
// the types generated from it, of the web app). Timestamps are ISO strings as JSON carries them.
import * as v from 'valibot';
import { ShipmentSchema } from '../fulfilment.ts';
import { InvoiceSettingsResponseEntries } from '../invoices.ts';
import { PAYMENT_EXCEPTIONS, PAYMENT_STATES } from '../payment-state.ts';
import { ORDER_SOURCES, ORDER_STATUSES } from '../status.ts';
import { ShippingZonesSchema, StoreShippingOptionsSchema } from '../store-settings.ts';
import { FORWARDING_LEG_STATUSES, FORWARDING_STATUSES } from '../stored-states.ts';
import { STORE_ROLES } from '../team.ts';
import { MoneyStringSchema, ThemeSchema, UsdcAmountStringSchema } from './common.ts';
import {
  OrderItemSchema,
  OrderMetadataSchema,
  ShippingAddressSchema,
  StockShortfallSchema,
} from './order.ts';
import { PaymentWalletResponseSchema } from './payment.ts';
import { DigitalProductSchema } from './product.ts';
import { WEBHOOK_EVENT_TYPES } from './webhook.ts';

const timestamp = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The signed-in merchant. */
export const AccountUserSchema = v.object({ id: v.string(), username: v.string() });
/** Answer of sign-up, sign-in and GET /api/auth/me. */
export const AccountResponseSchema = v.object({ user: AccountUserSchema });
/** Answer of POST /api/auth/sign-out. */
export const SignedOutResponseSchema = v.object({ signedOut: v.literal(true) });

/**
 * A store as the API answers it to its team (GET /api/stores?mine=true, GET /api/stores/{id}, a
 * new or edited store): the one shape of a store on the wire, with its payout address, reply-to
 * and webhook URL (never the secret). The public view is derived from it (PublicStoreSchema).
 */
export const StoreSchema = v.object({
  id: v.string(),
  name: v.string(),
  slug: v.string(),
  description: v.nullable(v.string()),
  domain: v.nullable(v.string()),
  logoUrl: v.nullable(v.string()),
  theme: ThemeSchema,
  primaryColor: v.string(),
  secondaryColor: v.string(),
  accentColor: v.string(),
  isActive: v.boolean(),
  createdAt: timestamp,
  /** The version an edit must carry (`updatedAt` of PUT). */
  updatedAt: timestamp,
  /** Published products for the public; all products in the owner's view. */
  productCount: count,
  /** Tax rate in basis points (800 = 8%). */
  taxRateBps: count,
  /** The shipping methods offered, with prices and delivery texts (null: the defaults). */
  shippingOptions: v.nullable(StoreShippingOptionsSchema),
  /** Zones of countries with their own tax rate and shipping methods; other countries: the above. */
  shippingZones: ShippingZonesSchema,
  /** Whether the prices include the tax (shown at checkout, not added) or the tax is added. */
  pricesIncludeTax: v.boolean(),
  /** Shipping time shown on the product page (null: the defaults). */
  shippingTime: v.nullable(v.string()),
  /** Days within which returns are accepted, 0 none (null: the default 30). */
  returnPolicyDays: v.nullable(count),
  /** "Verified Store": the payout address signed (EIP-4361) and is still the payout address. */
  verified: v.boolean(),
  ownerId: v.string(),
  /** The role the reader acts with in the store's team (owner, admin, staff or viewer). */
  role: v.picklist(STORE_ROLES),
  /** A staff reader's limit per refund (USDC; null: none set, or another role). */
  refundLimitUsdc: v.nullable(v.string()),
  paymentAddress: v.nullable(v.string()),
  replyToEmail: v.nullable(v.string()),
  webhookUrl: v.nullable(v.string()),
  /** The address that signed the verification message (cleared when the payout address changes). */
  verifiedAddress: v.nullable(v.string()),
  verifiedAt: v.nullable(timestamp),
  /** The seller on the invoices, the receipt's invoice and customer data retention (owner view). */
  ...InvoiceSettingsResponseEntries,
});
/** A store as its team reads it. */
export type Store = v.InferOutput<typeof StoreSchema>;

/** What only a store's team reads: who owns it, where its sales go, its reply-to, its proof, its seller details. */
export const STORE_OWNER_FIELDS = [
  'ownerId',
  'role',
  'refundLimitUsdc',
  'paymentAddress',
  'replyToEmail',
  'webhookUrl',
  'verifiedAddress',
  'verifiedAt',
  'legalName',
  'legalAddress',
  'taxId',
  'attachInvoiceToReceipt',
  'customerRetentionMonths',
] as const;

/**
 * A store as anyone may see it (GET /api/stores, GET /api/stores/{slug} for a visitor): the store
 * without its team's fields (no owner id and no payout address: a shopper pays a deposit address
 * made for the order, never this one).
 */
export const PublicStoreSchema = v.omit(StoreSchema, STORE_OWNER_FIELDS);
/** A store as the public sees it. */
export type PublicStore = v.InferOutput<typeof PublicStoreSchema>;

/**
 * A product as the API answers it (its owner also reads unpublished ones): the one shape of a
 * product on the wire, declared and checked by its routes and parsed by the web app.
 */
export const ProductSchema = v.object({
  id: v.string(),
  storeId: v.string(),
  title: v.string(),
  description: v.nullable(v.string()),
  imageUrl: v.nullable(v.string()),
  priceUsdc: MoneyStringSchema,
  isPublished: v.boolean(),
  /**
   * Units left when `trackInventory` (for shoppers: less what other orders hold for now); 0 with
   * tracking off: not counted (up to 99 a line).
   */
  inventory: count,
  trackInventory: v.boolean(),
  /** Tracked and nothing left to buy (for shoppers: held by other orders counts as gone). */
  soldOut: v.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** A digital product's settings (never its secret header's value); null: a physical product. */
  digital: v.nullable(DigitalProductSchema),
  /** A digital product's payable URL (HTTP 402, x402 v2); null for a physical product. */
  x402Url: v.nullable(v.string()),
  /** The merchant's ceiling on the price (a sanity check against a mistyped price); null: none. */
  maxPriceUsdc: v.nullable(MoneyStringSchema),
});
/** A product. */
export type Product = v.InferOutput<typeof ProductSchema>;
/** Answer of DELETE /api/products/{id}. */
export const DeletedResponseSchema = v.object({ id: v.string(), deleted: v.literal(true) });

/**
 * An order as the API answers it (GET /api/orders/{id}, the merchant's list, a new order): the one
 * shape of an order on the wire; the shopper's pages and the merchant's list read the same view.
 */
export const OrderSchema = v.object({
  id: v.string(),
  /** The store the order pays; null for an unsigned universal link's order (no store of ours). */
  storeId: v.nullable(v.string()),
  /** Where the order came from: a storefront, a checkout session, a signed or an unsigned link. */
  source: v.picklist(ORDER_SOURCES),
  /** A universal link's payee (its payout address); null for storefront and session orders. */
  payeeAddress: v.nullable(v.string()),
  customerEmail: v.string(),
  shippingAddress: v.nullable(ShippingAddressSchema),
  items: v.array(OrderItemSchema),
  subtotalUsdc: MoneyStringSchema,
  /** The discount code applied at checkout (upper-case); null: none. */
  discountCode: v.nullable(v.string()),
  /** What the code took off the subtotal (0.00 without one). */
  discountUsdc: MoneyStringSchema,
  shippingUsdc: MoneyStringSchema,
  /**
   * subtotalUsdc − discountUsdc + shippingUsdc + taxUsdc = totalUsdc; when the store's prices
   * include the tax, subtotalUsdc − discountUsdc + shippingUsdc = totalUsdc (the tax is inside).
   */
  taxUsdc: MoneyStringSchema,
  totalUsdc: MoneyStringSchema,
  status: v.picklist(ORDER_STATUSES),
  paymentChain: v.nullable(v.string()),
  paymentTxHash: v.nullable(v.string()),
  paymentAddress: v.nullable(v.string()),
  metadata: v.nullable(OrderMetadataSchema),
  /** Carrier and tracking once the merchant marked the order shipped; null before. */
  shipment: v.optional(v.nullable(ShipmentSchema)),
  /** Until when the order's units of tracked products are kept for it; null: nothing held. */
  stockHeldUntil: v.optional(v.nullable(timestamp)),
  /**
   * To its merchant, an oversold order's lines short of stock when it was paid (the payment
   * stands; the merchant refunds or restocks them); null when every unit was there.
   */
  stockShortfall: v.optional(v.nullable(v.array(StockShortfallSchema))),
  /**
   * In the merchant's order list: what the confirmed forwarding legs paid out (USDC, 6 decimals)
   * and their transactions; null before anything was forwarded.
   */
  forwarded: v.optional(
    v.nullable(
      v.object({
        merchantUsdc: v.string(),
        feeUsdc: v.string(),
        txHashes: v.array(v.string()),
      }),
    ),
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** An order. */
export type Order = v.InferOutput<typeof OrderSchema>;

/**
 * Answer of POST /api/orders: the order and its buyer's review token, the proof of purchase for
 * reviews that only the browser that placed the order (and the receipt) ever gets.
 */
export const CreatedOrderResponseSchema = v.object({
  ...OrderSchema.entries,
  reviewToken: v.string(),
});

/**
 * A new universal order: its id and its buyer token, which opens its refund links and its
 * personal data (kept by the browser that created it).
 */
const UniversalOrderRefSchema = v.object({ id: v.string(), reviewToken: v.string() });

/** Answer of POST /api/universal-orders: the checkout form's `{ order }`, or the payment page's. */
export const UniversalOrderCreatedSchema = v.union([
  v.object({ paymentWallet: PaymentWalletResponseSchema, order: UniversalOrderRefSchema }),
  v.object({ order: UniversalOrderRefSchema }),
]);

/**
 * A store's webhook settings, as its owner reads them: never the secret itself (it is read from
 * its own route, with the second factor where it is on), only its last 4 characters.
 */
export const WebhookSettingsResponseSchema = v.object({
  url: v.nullable(v.string()),
  /** The last 4 characters of the signing secret, to recognise it; null: none yet. */
  secretHint: v.nullable(v.string()),
  /** Until then webhooks also carry a signature made with the previous secret. */
  previousSecretValidUntil: v.nullable(timestamp),
  signatureScheme: v.literal('v1'),
  /**
   * Set while sending to the URL is paused (it failed without a break for WEBHOOK_PAUSE_AFTER_MS):
   * since when, since when it fails, how many times in a row, the last error and when the next try
   * goes (its webhooks wait; it resumes by itself once it answers).
   */
  paused: v.nullable(
    v.object({
      since: timestamp,
      failingSince: timestamp,
      failures: v.number(),
      lastError: v.nullable(v.string()),
      nextAttemptAt: v.nullable(timestamp),
    }),
  ),
});

/** A store's webhook signing secret, as its owner reads it (or gets it from a rotation). */
export const WebhookSecretResponseSchema = v.object({
  /** The `whsec_…` secret that signs this store's webhooks (Standard Webhooks, v1). */
  secret: v.string(),
  /** Until then webhooks also carry a signature made with the previous secret. */
  previousSecretValidUntil: v.nullable(timestamp),
  signatureScheme: v.literal('v1'),
});

/**
 * What a test webhook did: the sample of `eventType` signed with the store's secret and sent once
 * to its URL (nothing stored, nothing retried), and the receiver's answer.
 */
export const WebhookTestResponseSchema = v.object({
  eventType: v.picklist(WEBHOOK_EVENT_TYPES),
  url: v.string(),
  /** The `webhook-id` header it carried (`msg_test_…`, never an order's). */
  messageId: v.string(),
  /** True when the receiver answered 2xx. */
  delivered: v.boolean(),
  statusCode: v.nullable(v.number()),
  latencyMs: v.number(),
  error: v.nullable(v.string()),
  /** The first 500 characters of the answer. */
  responseBody: v.nullable(v.string()),
  /** The payload as sent. */
  payload: v.unknown(),
});

/** One delivery of a webhook with its attempts. */
export const WebhookDeliveryResponseSchema = v.object({
  id: v.string(),
  /** The `webhook-id` header (the same on every attempt). */
  messageId: v.string(),
  orderId: v.string(),
  eventType: v.picklist(WEBHOOK_EVENT_TYPES),
  url: v.string(),
  status: v.string(),
  attemptCount: count,
  nextAttemptAt: v.nullable(timestamp),
  lastStatusCode: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  createdAt: timestamp,
  deliveredAt: v.nullable(timestamp),
  /** The payload as sent (see the `webhooks` section). */
  payload: v.unknown(),
  attempts: v.array(
    v.object({
      attemptedAt: timestamp,
      statusCode: v.nullable(v.number()),
      latencyMs: v.number(),
      error: v.nullable(v.string()),
      responseBody: v.nullable(v.string()),
    }),
  ),
});

/** Where a paid order's money went: status, last error and the transfers of every round. */
export const ForwardingResponseSchema = v.object({
  depositAddress: v.string(),
  paymentStatus: v.picklist(PAYMENT_STATES),
  /** What went wrong with the payment, as stored with it (none when nothing did). */
  paymentException: v.picklist(PAYMENT_EXCEPTIONS),
  status: v.picklist(FORWARDING_STATUSES),
  completed: v.boolean(),
  /** What reached the confirmation depth. */
  receivedAmount: UsdcAmountStringSchema,
  /** Every transfer seen, confirmed or not (an underpaid payment is decided on it). */
  detectedAmount: UsdcAmountStringSchema,
  forwardedAmount: UsdcAmountStringSchema,
  retryCount: count,
  lastError: v.nullable(v.string()),
  nextAttemptAt: v.nullable(timestamp),
  forwardedAt: v.nullable(timestamp),
  gasFunded: v.boolean(),
  gasAmountSent: v.string(),
  actualGasUsed: v.string(),
  transfers: v.array(
    v.object({
      round: v.number(),
      leg: v.string(),
      to: v.string(),
      value: v.string(),
      status: v.picklist(FORWARDING_LEG_STATUSES),
      txHash: v.nullable(v.string()),
      confirmedAt: v.nullable(timestamp),
    }),
  ),
});

/** GET /api/health (503 with the same body when a part is down). */
export const HealthResponseSchema = v.object({
  ok: v.boolean(),
  database: v.boolean(),
  chain: v.object({ chainId: v.number(), usdc: v.string(), blockNumber: v.nullable(v.number()) }),
  indexer: v.object({ ready: v.boolean(), blockNumber: v.nullable(v.number()) }),
  settlement: v.object({
    relayer: v.looseObject({ address: v.string() }),
    treasury: v.string(),
    reversals: v.object({ open: count, lossUsdc: v.string() }),
    /** The worker's retention job on the indexer's data: its last run (null: none yet). */
    retention: v.nullable(
      v.object({
        windowMonths: count,
        lastRunAt: v.string(),
        finishedAt: v.nullable(v.string()),
        cutoff: v.nullable(v.string()),
        rowsDeleted: count,
        rowsDeletedTotal: count,
        lastError: v.nullable(v.string()),
      }),
    ),
  }),
  demo: v.object({ payoutAddress: v.nullable(v.string()) }),
  /** Whether shoppers get their receipt by email (the worker has a mail server). */
  receipts: v.object({ email: v.boolean() }),
  alerts: v.array(v.string()),
});

/** GET /.well-known/webhook-signing-key. */
export const WebhookSigningKeyResponseSchema = v.object({
  publicKey: v.string(),
  algorithm: v.literal('ed25519'),
  signatureVersion: v.literal('v1a'),
});

/** A store's link secret as its owner reads it (it signs their universal-checkout links). */
export const LinkSecretResponseSchema = v.object({
  storeId: v.string(),
  /** `lsk_` and 64 hex characters; the HMAC-SHA256 key is this whole text (UTF-8). */
  secret: v.string(),
  /** The scheme links carry as `sigv`. */
  version: v.literal('1'),
  createdAt: timestamp,
  rotatedAt: v.nullable(timestamp),
});

/** A signed universal-checkout link. */
export const SignedLinkResponseSchema = v.object({
  storeId: v.string(),
  /** The link's query: the parameters sent, `storeId`, `sig` and `sigv`. */
  query: v.string(),
  /** `/universal-checkout?{query}`. */
  path: v.string(),
  url: v.string(),
  signature: v.string(),
});

/** Answer of POST /api/universal-links/verify (an altered link gets 422 instead). */
export const VerifiedLinkResponseSchema = v.union([
  v.object({ signed: v.literal(true), storeId: v.string(), storeName: v.string() }),
  v.object({ signed: v.literal(false) }),
]);
