// Checkout session schemas: the body an integrator's server sends to POST /api/checkout-sessions,
// the owner's and the hosted page's views, and the shopper's submission of the hosted checkout.
import * as v from 'valibot';
import { isHexColor, isHttpUrl } from '../address.ts';
import { COUNTRY_CODES } from '../countries.ts';
import { DiscountCodeSchema } from '../discounts.ts';
import { LIMIT_MESSAGES, MAX_ORDER_LINES, maxChars, TEXT_LIMITS } from '../limits.ts';
import { tryParseUsdc } from '../money.ts';
import { PAYMENT_STATES } from '../payment-state.ts';
import { CHECKOUT_SESSION_STATUSES } from '../stored-states.ts';
import { ZERO_TOTAL_MESSAGE } from '../totals.ts';
import { MoneyStringSchema, TimestampSchema } from './common.ts';
import { addressFormSchema, EmailSchema } from './order.ts';

/** Least, default and longest life of a checkout session, in seconds. */
export const CHECKOUT_SESSION_EXPIRY = {
  min: 5 * 60,
  default: 24 * 60 * 60,
  max: 7 * 24 * 60 * 60,
} as const;
/** Most shipping options one session may offer. */
export const MAX_SHIPPING_OPTIONS = 10;
/** Most metadata entries, and the longest key and value. */
export const SESSION_METADATA_LIMITS = { entries: 20, key: 40, value: 500 } as const;
/** Largest quantity of one line. */
export const MAX_SESSION_QUANTITY = 10_000;

/** Texts of the checkout session errors and pages. */
export const CHECKOUT_SESSION_MESSAGES = {
  storeRequired: 'storeId is required',
  storeNotFound: 'Store not found',
  noPayoutAddress:
    'This store has no payout address; set one in Admin → Stores before creating checkout sessions',
  storeClosed: 'This store is not taking orders right now',
  itemsRequired: 'items must hold at least one item',
  itemTitle: 'Each item needs a title',
  price: 'priceUsdc must be a decimal above 0 with at most 2 decimals',
  amount: 'Amount must be a decimal with at most 2 decimals',
  quantity: `quantity must be a whole number from 1 to ${MAX_SESSION_QUANTITY.toLocaleString('en-US')}`,
  imageUrl: 'imageUrl must be an https URL',
  url: (name: string) => `${name} must be an http(s) URL`,
  currency: 'currency must be USDC',
  color: (name: string) => `theme.${name} must be a hex color (#abc or #aabbcc)`,
  shippingId: 'Each shipping option needs an id of letters, numbers, hyphens or underscores',
  shippingLabel: 'Each shipping option needs a label',
  shippingDuplicate: 'Shipping option ids must be unique',
  tooManyShipping: `A session can offer at most ${MAX_SHIPPING_OPTIONS} shipping options`,
  expires: `expiresInSeconds must be a whole number from ${CHECKOUT_SESSION_EXPIRY.min} (5 minutes) to ${CHECKOUT_SESSION_EXPIRY.max} (7 days)`,
  metadata: `metadata holds at most ${SESSION_METADATA_LIMITS.entries} string values (keys up to ${SESSION_METADATA_LIMITS.key} characters, values up to ${SESSION_METADATA_LIMITS.value})`,
  totalTooLarge: 'The session total must be below 100,000,000 USDC',
  zeroTotal: ZERO_TOTAL_MESSAGE,
  notFound: 'Checkout session not found',
  expired: 'This checkout has expired',
  shippingRequired: 'Choose a shipping option',
  shippingUnknown: 'That shipping option is not offered by this checkout',
  country: (name: string) => `${name} must be an ISO 3166-1 alpha-2 country code such as US or DE`,
} as const;
const M = CHECKOUT_SESSION_MESSAGES;

/** A positive price: decimal(10,2) above 0. */
const PositivePriceSchema = v.pipe(
  v.string(M.price),
  v.check((s) => /^\d{1,8}(?:\.\d{1,2})?$/.test(s) && (tryParseUsdc(s) ?? 0n) > 0n, M.price),
);
/** A non-negative amount: decimal(10,2). */
const AmountSchema = v.pipe(
  v.string(M.amount),
  v.check((s) => /^\d{1,8}(?:\.\d{1,2})?$/.test(s), M.amount),
);
const optionalHttpUrl = (name: string) =>
  v.optional(
    v.pipe(v.string(M.url(name)), maxChars(name, TEXT_LIMITS.url), v.check(isHttpUrl, M.url(name))),
  );
const isHttpsUrl = (s: string) => isHttpUrl(s) && s.startsWith('https:');
const optionalText = (label: string, max: number) =>
  v.optional(v.pipe(v.string(), v.trim(), maxChars(label, max)));
const optionalColor = (name: string) =>
  v.optional(v.pipe(v.string(M.color(name)), v.check(isHexColor, M.color(name))));

/** One line of a session: what the shopper sees and pays, fixed by the integrator. */
export const SessionItemSchema = v.object({
  title: v.pipe(
    v.optional(v.string(M.itemTitle), ''),
    v.trim(),
    v.nonEmpty(M.itemTitle),
    maxChars('Item title', TEXT_LIMITS.name),
  ),
  priceUsdc: PositivePriceSchema,
  quantity: v.pipe(
    v.number(M.quantity),
    v.safeInteger(M.quantity),
    v.minValue(1, M.quantity),
    v.maxValue(MAX_SESSION_QUANTITY, M.quantity),
  ),
  imageUrl: v.optional(
    v.pipe(
      v.string(M.imageUrl),
      maxChars('imageUrl', TEXT_LIMITS.url),
      v.check(isHttpsUrl, M.imageUrl),
    ),
  ),
  /** The integrator's own product id (shown in the order and the webhook's items). */
  productId: optionalText('productId', TEXT_LIMITS.externalOrderId),
});
/** A session line. */
export type SessionItem = v.InferOutput<typeof SessionItemSchema>;

/** One shipping choice the integrator offers, with its price. */
export const SessionShippingOptionSchema = v.object({
  id: v.pipe(v.string(M.shippingId), v.regex(/^[A-Za-z0-9_-]{1,64}$/, M.shippingId)),
  label: v.pipe(
    v.optional(v.string(M.shippingLabel), ''),
    v.trim(),
    v.nonEmpty(M.shippingLabel),
    maxChars('Shipping label', TEXT_LIMITS.name),
  ),
  priceUsdc: AmountSchema,
});
/** A session's shipping choice. */
export type SessionShippingOption = v.InferOutput<typeof SessionShippingOptionSchema>;

/** The checkout form's pre-fill: any of the shopper's details the integrator already knows. */
export const SessionCustomerSchema = v.object({
  email: optionalText('customer.email', TEXT_LIMITS.email),
  name: optionalText('customer.name', TEXT_LIMITS.addressField),
  firstName: optionalText('customer.firstName', TEXT_LIMITS.addressField),
  lastName: optionalText('customer.lastName', TEXT_LIMITS.addressField),
  phone: optionalText('customer.phone', TEXT_LIMITS.addressField),
  street: optionalText('customer.street', TEXT_LIMITS.addressField),
  city: optionalText('customer.city', TEXT_LIMITS.addressField),
  state: optionalText('customer.state', TEXT_LIMITS.addressField),
  zipCode: optionalText('customer.zipCode', TEXT_LIMITS.addressField),
  /** ISO 3166-1 alpha-2 (absent: the United States). */
  country: v.optional(v.picklist(COUNTRY_CODES, M.country('customer.country'))),
});
/** A session's pre-fill. */
export type SessionCustomer = v.InferOutput<typeof SessionCustomerSchema>;

/** The hosted checkout's look; unset fields fall back to the store's. */
export const SessionThemeSchema = v.object({
  mode: v.optional(v.picklist(['light', 'dark'], 'theme.mode must be light or dark')),
  primaryColor: optionalColor('primaryColor'),
  secondaryColor: optionalColor('secondaryColor'),
  accentColor: optionalColor('accentColor'),
  logoUrl: v.optional(
    v.pipe(
      v.string(M.url('theme.logoUrl')),
      maxChars('theme.logoUrl', TEXT_LIMITS.url),
      v.check(isHttpsUrl, 'theme.logoUrl must be an https URL'),
    ),
  ),
});
/** A session's theme. */
export type SessionTheme = v.InferOutput<typeof SessionThemeSchema>;

/** Body of POST /api/checkout-sessions. */
export const CreateCheckoutSessionSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string(M.storeRequired), ''),
    v.nonEmpty(M.storeRequired),
    maxChars('storeId', TEXT_LIMITS.slug),
  ),
  items: v.pipe(
    v.array(SessionItemSchema, M.itemsRequired),
    v.minLength(1, M.itemsRequired),
    v.maxLength(MAX_ORDER_LINES, LIMIT_MESSAGES.tooManyLines),
  ),
  taxUsdc: v.optional(AmountSchema),
  /**
   * One of the store's discount codes: checked now (unknown, inactive, expired, used up, below its
   * minimum or for none of these lines: 422 with the reason) and again when the shopper's order is
   * made, where it takes its amount off the subtotal (tax is the session's own, shipping is never
   * discounted).
   */
  discountCode: v.optional(DiscountCodeSchema),
  shippingOptions: v.optional(
    v.pipe(
      v.array(SessionShippingOptionSchema),
      v.maxLength(MAX_SHIPPING_OPTIONS, M.tooManyShipping),
      v.check(
        (options) => new Set(options.map((o) => o.id)).size === options.length,
        M.shippingDuplicate,
      ),
    ),
  ),
  currency: v.optional(v.literal('USDC', M.currency)),
  externalOrderId: optionalText('externalOrderId', TEXT_LIMITS.externalOrderId),
  returnUrl: optionalHttpUrl('returnUrl'),
  cancelUrl: optionalHttpUrl('cancelUrl'),
  customer: v.optional(SessionCustomerSchema),
  theme: v.optional(SessionThemeSchema),
  metadata: v.optional(
    v.pipe(
      v.record(
        v.pipe(v.string(), v.maxLength(SESSION_METADATA_LIMITS.key, M.metadata)),
        v.pipe(v.string(M.metadata), v.maxLength(SESSION_METADATA_LIMITS.value, M.metadata)),
        M.metadata,
      ),
      v.check(
        (record) => Object.keys(record).length <= SESSION_METADATA_LIMITS.entries,
        M.metadata,
      ),
    ),
  ),
  expiresInSeconds: v.optional(
    v.pipe(
      v.number(M.expires),
      v.safeInteger(M.expires),
      v.minValue(CHECKOUT_SESSION_EXPIRY.min, M.expires),
      v.maxValue(CHECKOUT_SESSION_EXPIRY.max, M.expires),
    ),
  ),
});
/** A validated session body. */
export type CreateCheckoutSession = v.InferOutput<typeof CreateCheckoutSessionSchema>;

/** Response of POST /api/checkout-sessions: the hosted checkout's URL to redirect the shopper to. */
export const CreatedCheckoutSessionSchema = v.object({
  id: v.string(),
  url: v.string(),
  expiresAt: TimestampSchema,
});
/** A created session. */
export type CreatedCheckoutSession = v.InferOutput<typeof CreatedCheckoutSessionSchema>;

/**
 * A session's status: open (not submitted), awaiting_payment (submitted, its order unpaid),
 * completed (its order is paid: fulfil on this, or on the order.paid webhook) or expired.
 */
export const CheckoutSessionStatusSchema = v.pipe(
  v.picklist(CHECKOUT_SESSION_STATUSES),
  v.description(
    'open: the shopper has not submitted the checkout yet. awaiting_payment: submitted; its order ' +
      'is not paid yet (or its payment left the chain): do not fulfil. completed: its order is ' +
      'paid (order.paid was sent): fulfil now. expired: no order before the session expired, or ' +
      "its order's payment window closed unpaid.",
  ),
);

/** The order a submitted session created, as its owner reads it. */
export const CheckoutSessionOrderSchema = v.object({
  id: v.string(),
  status: v.string(),
  totalUsdc: MoneyStringSchema,
  /** Where its payment is (PAYMENT_STATES), null before the shopper opened the payment page. */
  paymentStatus: v.nullable(v.picklist(PAYMENT_STATES)),
  paymentTxHash: v.nullable(v.string()),
});

/** GET /api/checkout-sessions/{id}: the session as its owner reads it. */
export const CheckoutSessionSchema = v.object({
  id: v.string(),
  url: v.string(),
  status: CheckoutSessionStatusSchema,
  storeId: v.string(),
  items: v.array(SessionItemSchema),
  shippingOptions: v.array(SessionShippingOptionSchema),
  subtotalUsdc: MoneyStringSchema,
  /** The store's discount code the session carries, or null. */
  discountCode: v.nullable(v.string()),
  /** What it takes off the subtotal (0.00 without a code). */
  discountUsdc: MoneyStringSchema,
  taxUsdc: MoneyStringSchema,
  currency: v.literal('USDC'),
  externalOrderId: v.nullable(v.string()),
  returnUrl: v.nullable(v.string()),
  cancelUrl: v.nullable(v.string()),
  customer: v.nullable(SessionCustomerSchema),
  theme: v.nullable(SessionThemeSchema),
  metadata: v.nullable(v.record(v.string(), v.string())),
  expiresAt: TimestampSchema,
  createdAt: TimestampSchema,
  /** When the shopper submitted the form and its order was created; null before. */
  submittedAt: v.nullable(TimestampSchema),
  /** When its order was paid (the status is then completed); null before. */
  completedAt: v.nullable(TimestampSchema),
  order: v.nullable(CheckoutSessionOrderSchema),
});
/** A session as its owner reads it. */
export type CheckoutSession = v.InferOutput<typeof CheckoutSessionSchema>;

/** GET /api/checkout-sessions/{id}/public: what the hosted checkout shows (no owner data). */
export const PublicCheckoutSessionSchema = v.object({
  id: v.string(),
  status: CheckoutSessionStatusSchema,
  store: v.object({
    name: v.string(),
    logoUrl: v.nullable(v.string()),
    theme: v.picklist(['light', 'dark']),
    primaryColor: v.string(),
    secondaryColor: v.string(),
    accentColor: v.string(),
  }),
  items: v.array(SessionItemSchema),
  shippingOptions: v.array(SessionShippingOptionSchema),
  subtotalUsdc: MoneyStringSchema,
  /** The store's discount code the session carries, or null. */
  discountCode: v.nullable(v.string()),
  /** What it takes off the subtotal (0.00 without a code). */
  discountUsdc: MoneyStringSchema,
  taxUsdc: MoneyStringSchema,
  currency: v.literal('USDC'),
  customer: v.nullable(SessionCustomerSchema),
  returnUrl: v.nullable(v.string()),
  cancelUrl: v.nullable(v.string()),
  expiresAt: TimestampSchema,
  /** The order once the shopper submitted the checkout (its payment page). */
  orderId: v.nullable(v.string()),
});
/** A session as the hosted checkout reads it. */
export type PublicCheckoutSession = v.InferOutput<typeof PublicCheckoutSessionSchema>;

/** Body of POST /api/checkout-sessions/{id}/complete: the shopper's details and shipping choice. */
export const CompleteCheckoutSessionSchema = addressFormSchema(
  { customerEmail: EmailSchema },
  { shippingOptionId: v.optional(v.pipe(v.string(), maxChars('shippingOptionId', 64))) },
);
/** A validated hosted checkout submission. */
export type CompleteCheckoutSession = v.InferOutput<typeof CompleteCheckoutSessionSchema>;

/** Response of the submission: the order to pay. */
export const CompletedCheckoutSessionSchema = v.object({
  orderId: v.string(),
  /**
   * The order's buyer token, to the submission that created the order only (not to a later one):
   * the shopper's browser keeps it to open its refund links and its own details on the order's
   * pages.
   */
  reviewToken: v.optional(v.string()),
});
