// Order schemas: shipping address, items, metadata, the order read model, the checkout forms
// and the body of POST /api/orders.
import * as v from 'valibot';
import {
  LIMIT_MESSAGES,
  MAX_ORDER_LINES,
  maxChars,
  optionalCappedText,
  TEXT_LIMITS,
} from '../limits.ts';
import { CHECKOUT_MESSAGES, CUSTOMER_FORM_MESSAGES as M } from '../messages.ts';
import { ORDER_STATUSES } from '../status.ts';
import { US_STATE_CODES } from '../us-states.ts';
import {
  MoneyStringSchema,
  missingAsEmpty,
  OptionalText,
  requiredCappedText,
  ShippingMethodSchema,
  ThemeSchema,
  TimestampSchema,
} from './common.ts';

/** Customer email: 'Invalid email address' whether missing, empty or malformed. */
export const EmailSchema = v.pipe(
  missingAsEmpty(M.email),
  v.trim(),
  v.email(M.email),
  maxChars('Email', TEXT_LIMITS.email),
);

/** US state: required, then one of the 51 codes. */
export const StateSchema = v.pipe(
  missingAsEmpty(M.state),
  v.trim(),
  v.nonEmpty(M.state),
  maxChars('State', TEXT_LIMITS.addressField),
  v.picklist(US_STATE_CODES, M.stateUnknown),
);

// Shipping fields in the order the checkout form shows them (first failing field wins).
const addressEntries = {
  phone: requiredCappedText(M.phone, 'Phone', TEXT_LIMITS.addressField),
  firstName: requiredCappedText(M.firstName, 'First name', TEXT_LIMITS.addressField),
  lastName: requiredCappedText(M.lastName, 'Last name', TEXT_LIMITS.addressField),
  street: requiredCappedText(M.street, 'Street address', TEXT_LIMITS.addressField),
  city: requiredCappedText(M.city, 'City', TEXT_LIMITS.addressField),
  state: StateSchema,
  zipCode: requiredCappedText(M.zipCode, 'ZIP code', TEXT_LIMITS.addressField),
};

/** Shipping address of an order (SPEC §3). */
export const ShippingAddressSchema = v.object({
  firstName: addressEntries.firstName,
  lastName: addressEntries.lastName,
  email: EmailSchema,
  phone: addressEntries.phone,
  street: addressEntries.street,
  city: addressEntries.city,
  state: addressEntries.state,
  zipCode: addressEntries.zipCode,
});
/** A shipping address. */
export type ShippingAddress = v.InferOutput<typeof ShippingAddressSchema>;

/** Store checkout form: customer, address and shipping method (default free). */
export const StoreCheckoutFormSchema = v.object({
  customerEmail: EmailSchema,
  ...addressEntries,
  shippingMethod: v.optional(ShippingMethodSchema, 'free'),
});
/** A validated store checkout form. */
export type StoreCheckoutForm = v.InferOutput<typeof StoreCheckoutFormSchema>;

/** Universal checkout form: same fields, shipping method optional (shown only when shipping is on). */
export const UniversalCheckoutFormSchema = v.object({
  customerEmail: EmailSchema,
  ...addressEntries,
  shippingMethod: v.optional(ShippingMethodSchema),
});
/** A validated universal checkout form. */
export type UniversalCheckoutForm = v.InferOutput<typeof UniversalCheckoutFormSchema>;

/** Builds the order's shipping address from a validated checkout form. */
export function shippingAddressFromForm(
  form: StoreCheckoutForm | UniversalCheckoutForm,
): ShippingAddress {
  const { customerEmail, phone, firstName, lastName, street, city, state, zipCode } = form;
  return { firstName, lastName, email: customerEmail, phone, street, city, state, zipCode };
}

/** Quantity of an order line: an integer of at least 1. */
export const LineQuantitySchema = v.pipe(v.number(), v.safeInteger(), v.minValue(1));

/** An order line (SPEC §3); universal lines carry productId universal-{timestamp}-{random}. */
export const OrderItemSchema = v.object({
  productId: v.pipe(v.string(), v.nonEmpty(), maxChars('Product id', TEXT_LIMITS.externalOrderId)),
  title: v.pipe(v.string(), v.nonEmpty(), maxChars('Item title', TEXT_LIMITS.name)),
  priceUsdc: MoneyStringSchema,
  quantity: LineQuantitySchema,
  imageUrl: optionalCappedText('Image URL', TEXT_LIMITS.url),
  /** Set by the server: the product's stock was counted when the order was placed. */
  stockTracked: v.optional(v.boolean()),
});
/** An order line. */
export type OrderItem = v.InferOutput<typeof OrderItemSchema>;

/** The lines of an order a client sends: at least one (`emptyMessage`), at most MAX_ORDER_LINES. */
export function OrderLinesSchema(emptyMessage: string) {
  return v.pipe(
    v.array(OrderItemSchema),
    v.minLength(1, emptyMessage),
    v.maxLength(MAX_ORDER_LINES, LIMIT_MESSAGES.tooManyLines),
  );
}

/** Metadata of universal orders (SPEC §3). */
export const OrderMetadataSchema = v.object({
  isUniversal: v.optional(v.boolean()),
  externalStoreName: OptionalText,
  externalPaymentAddress: OptionalText,
  returnUrl: OptionalText,
  theme: v.nullish(ThemeSchema),
  colors: v.nullish(
    v.object({ primary: OptionalText, secondary: OptionalText, accent: OptionalText }),
  ),
  logoUrl: OptionalText,
  externalOrderId: OptionalText,
  /** Orders of a checkout session (cs_…): the session the integrator's server created. */
  checkoutSessionId: OptionalText,
  storeName: OptionalText,
  storePaymentAddress: OptionalText,
  webhookUrl: OptionalText,
  /**
   * Universal orders: whether the merchant signed the link's terms (price, payee). False for a
   * hand-made link, which anyone can make or edit: it proves only that a payment reached its address.
   */
  signed: v.optional(v.boolean()),
  /** Signed universal orders: the store whose link secret signed the link (its webhook secret signs). */
  linkStoreId: v.optional(v.string()),
  /** A reversed order: the status it had before its payment was reversed (restored if it returns). */
  reversedFrom: v.optional(v.string()),
  /**
   * Store orders: lines whose stock ran out before the order was paid (another order took the
   * last units first). The payment stands; the merchant must refund or restock these.
   */
  stockShortfall: v.optional(
    v.array(
      v.object({
        productId: v.string(),
        title: v.string(),
        ordered: v.number(),
        available: v.number(),
      }),
    ),
  ),
});
/** Universal order metadata. */
export type OrderMetadata = v.InferOutput<typeof OrderMetadataSchema>;

/** Order status picklist. */
export const OrderStatusSchema = v.picklist(ORDER_STATUSES);

/** An order as the API returns it (GET /api/orders/{id}; the list has a subset). */
export const OrderSchema = v.object({
  id: v.string(),
  storeId: v.string(),
  customerEmail: v.string(),
  shippingAddress: v.nullish(ShippingAddressSchema),
  items: v.array(OrderItemSchema),
  subtotalUsdc: MoneyStringSchema,
  shippingUsdc: MoneyStringSchema,
  totalUsdc: MoneyStringSchema,
  status: OrderStatusSchema,
  paymentChain: OptionalText,
  paymentTxHash: OptionalText,
  paymentAddress: OptionalText,
  metadata: v.nullish(OrderMetadataSchema),
  createdAt: v.optional(TimestampSchema),
});
/** An order read model. */
export type Order = v.InferOutput<typeof OrderSchema>;

/** Body of POST /api/orders (store checkout). The server recomputes the totals. */
export const CreateOrderSchema = v.object({
  storeId: v.pipe(v.string(), v.nonEmpty(), maxChars('Store', TEXT_LIMITS.slug)),
  customerEmail: EmailSchema,
  shippingAddress: ShippingAddressSchema,
  items: OrderLinesSchema(CHECKOUT_MESSAGES.cartEmpty),
  subtotalUsdc: MoneyStringSchema,
  shippingUsdc: MoneyStringSchema,
  totalUsdc: MoneyStringSchema,
  status: v.optional(v.literal('pending'), 'pending'),
});
/** A validated store order body. */
export type CreateOrder = v.InferOutput<typeof CreateOrderSchema>;
