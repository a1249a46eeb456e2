// Universal checkout schemas: the decoded checkout URL parameters, both POST /api/universal-orders
// bodies, their order response and the outgoing webhook payload.
import * as v from 'valibot';
import { isHttpUrl } from '../address.ts';
import { DiscountCodeSchema } from '../discounts.ts';
import {
  LIMIT_MESSAGES,
  MAX_ORDER_LINES,
  maxChars,
  optionalCappedText,
  TEXT_LIMITS,
} from '../limits.ts';
import { CHECKOUT_URL_MESSAGES } from '../messages.ts';
import {
  ethereumAddress,
  hexColor,
  MoneyStringSchema,
  payoutAddress,
  requiredCappedText,
  ShippingMethodSchema,
  ThemeSchema,
} from './common.ts';
import {
  EmailSchema,
  LineQuantitySchema,
  OrderLinesSchema,
  ShippingAddressSchema,
} from './order.ts';
import { PaymentChainSchema } from './payment.ts';

const PARSE_FAILED = CHECKOUT_URL_MESSAGES.parseFailed;

/** One item of the `items` URL parameter: title, priceUsdc as a string amount, quantity as a number. */
export const CheckoutItemSchema = v.object({
  title: v.pipe(v.string(), v.trim(), v.nonEmpty(), maxChars('Item title', TEXT_LIMITS.name)),
  priceUsdc: MoneyStringSchema,
  quantity: LineQuantitySchema,
  imageUrl: v.optional(cappedString('Image URL', TEXT_LIMITS.url)),
});
/** An item of a universal checkout link. */
export type CheckoutItem = v.InferOutput<typeof CheckoutItemSchema>;

const optionalUrl = v.optional(
  v.pipe(v.string(), maxChars('URL', TEXT_LIMITS.url), v.check(isHttpUrl)),
);

/** A string of at most `max` characters. */
function cappedString(label: string, max: number) {
  return v.pipe(v.string(), maxChars(label, max));
}
const addressText = (label: string) => v.optional(cappedString(label, TEXT_LIMITS.addressField));

/** Universal checkout parameters after URL decoding (items JSON-decoded, booleans decoded). */
export const CheckoutParamsSchema = v.object({
  storeName: v.pipe(v.string(), v.trim(), v.nonEmpty(), maxChars('Store name', TEXT_LIMITS.name)),
  items: v.pipe(
    v.array(CheckoutItemSchema),
    v.minLength(1),
    v.maxLength(MAX_ORDER_LINES, LIMIT_MESSAGES.tooManyLines),
  ),
  paymentAddress: ethereumAddress(CHECKOUT_URL_MESSAGES.invalidPaymentAddress),
  theme: v.optional(ThemeSchema),
  primaryColor: v.optional(hexColor(PARSE_FAILED)),
  secondaryColor: v.optional(hexColor(PARSE_FAILED)),
  accentColor: v.optional(hexColor(PARSE_FAILED)),
  logoUrl: v.optional(cappedString('Logo URL', TEXT_LIMITS.url)),
  customerEmail: v.optional(cappedString('Email', TEXT_LIMITS.email)),
  phone: addressText('Phone'),
  firstName: addressText('First name'),
  lastName: addressText('Last name'),
  street: addressText('Street address'),
  city: addressText('City'),
  state: addressText('State'),
  zipCode: addressText('ZIP code'),
  /** ISO 3166-1 alpha-2; the form starts on the United States when absent or unknown. */
  country: addressText('Country'),
  shipping: v.boolean(),
  freeShipping: v.boolean(),
  standardShipping: v.optional(MoneyStringSchema),
  expressShipping: v.optional(MoneyStringSchema),
  returnUrl: optionalUrl,
  externalOrderId: v.optional(cappedString('External order id', TEXT_LIMITS.externalOrderId)),
  webhookUrl: optionalUrl,
  /** One of the store's discount codes: honoured on a link its store signed only. */
  discountCode: v.optional(DiscountCodeSchema),
});
/** Decoded universal checkout parameters. */
export type CheckoutParams = v.InferOutput<typeof CheckoutParamsSchema>;

/** Shipping settings of the checkout link, sent along so the server prices shipping itself. */
export const UniversalShippingOptionsSchema = v.object({
  shipping: v.optional(v.boolean(), false),
  freeShipping: v.optional(v.boolean(), false),
  standardShipping: v.optional(MoneyStringSchema),
  expressShipping: v.optional(MoneyStringSchema),
});

// Fields both universal-orders bodies share.
/**
 * The branding a checkout form may send in `metadata` (the rest of the order's metadata,
 * docs/data.md#order-metadata, is built on the server, so any other key is dropped).
 */
export const UniversalBrandingSchema = v.object({
  returnUrl: optionalCappedText('Return URL', TEXT_LIMITS.url),
  theme: v.nullish(ThemeSchema),
  colors: v.nullish(
    v.object({
      primary: optionalCappedText('Colour', 16),
      secondary: optionalCappedText('Colour', 16),
      accent: optionalCappedText('Colour', 16),
    }),
  ),
  logoUrl: optionalCappedText('Logo URL', TEXT_LIMITS.url),
});

const universalEntries = {
  externalOrderId: optionalCappedText('External order id', TEXT_LIMITS.externalOrderId),
  storeName: requiredCappedText('Store name is required', 'Store name', TEXT_LIMITS.name),
  storePaymentAddress: payoutAddress(CHECKOUT_URL_MESSAGES.invalidPaymentAddress),
  webhookUrl: v.nullish(
    v.pipe(
      v.string(),
      maxChars('Webhook URL', TEXT_LIMITS.url),
      v.check(isHttpUrl, 'Webhook URL must be an http(s) URL'),
    ),
  ),
  customerEmail: EmailSchema,
  shippingAddress: ShippingAddressSchema,
  items: OrderLinesSchema('At least one item is required'),
  subtotalUsdc: MoneyStringSchema,
  shippingUsdc: MoneyStringSchema,
  totalUsdc: MoneyStringSchema,
  // The chosen method and the link's shipping settings. With them the server
  // prices shipping; without them it takes shippingUsdc as the link's claim.
  shippingMethod: v.optional(ShippingMethodSchema),
  shippingOptions: v.optional(UniversalShippingOptionsSchema),
  /**
   * The query of the checkout link when it is signed (`storeId`, `sig`, `sigv`).
   * The server verifies it and that the order is the link's; without it the order is unsigned.
   */
  signedLink: v.optional(v.pipe(v.string(), maxChars('Signed link', TEXT_LIMITS.linkQuery))),
  /**
   * The signed link's discount code (it must be the link's): the server checks it under its lock
   * and takes its amount off; `discountUsdc`, when sent, must be that amount.
   */
  discountCode: v.optional(DiscountCodeSchema),
  discountUsdc: v.optional(MoneyStringSchema),
};

/** Body of POST /api/universal-orders from the checkout form; response {order:{id}}. */
export const CreateUniversalOrderSchema = v.object({
  ...universalEntries,
  status: v.optional(v.literal('pending'), 'pending'),
  metadata: v.nullish(UniversalBrandingSchema),
});
/** A validated universal order body. */
export type CreateUniversalOrder = v.InferOutput<typeof CreateUniversalOrderSchema>;

/** Response of POST /api/universal-orders from the checkout form. */
export const UniversalOrderResponseSchema = v.object({
  order: v.object({ id: v.string(), reviewToken: v.string() }),
});
/** Response carrying the created universal order's id. */
export type UniversalOrderResponse = v.InferOutput<typeof UniversalOrderResponseSchema>;

/** Body of POST /api/universal-orders from the universal payment page; response {paymentWallet}. */
export const CreateUniversalWalletSchema = v.object({
  ...universalEntries,
  paymentChain: v.optional(PaymentChainSchema, 'base'),
});
/** A validated universal wallet creation body. */
export type CreateUniversalWallet = v.InferOutput<typeof CreateUniversalWalletSchema>;
