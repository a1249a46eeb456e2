// Order schemas: shipping address, items, metadata, the order read model, the checkout forms
// and the body of POST /api/orders.
import * as v from 'valibot';
import { DEFAULT_COUNTRY, NON_US_COUNTRY_CODES } from '../countries.ts';
import { DiscountCodeSchema } from '../discounts.ts';
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

/** The country of an address in the United States' variant: absent means the United States. */
const UsCountrySchema = v.optional(v.literal(DEFAULT_COUNTRY, M.country), DEFAULT_COUNTRY);

/** The country of an address outside the United States: an ISO 3166-1 alpha-2 code. */
const OtherCountrySchema = v.picklist(NON_US_COUNTRY_CODES, M.country);

/** A region outside the United States (state, province, county...): optional free text. */
const RegionSchema = v.pipe(
  v.optional(v.string(), ''),
  v.trim(),
  maxChars('State / Province / Region', TEXT_LIMITS.addressField),
);

/** A postal code outside the United States: optional; letters, digits, spaces and hyphens. */
const PostalCodeSchema = v.pipe(
  v.optional(v.string(), ''),
  v.trim(),
  maxChars('Postal code', TEXT_LIMITS.addressField),
  v.regex(/^[A-Za-z0-9 -]*$/, M.postalCode),
);

// Shipping fields in the order the checkout form shows them (first failing field wins).
const contactEntries = {
  phone: requiredCappedText(M.phone, 'Phone', TEXT_LIMITS.addressField),
};
const nameEntries = {
  firstName: requiredCappedText(M.firstName, 'First name', TEXT_LIMITS.addressField),
  lastName: requiredCappedText(M.lastName, 'Last name', TEXT_LIMITS.addressField),
  street: requiredCappedText(M.street, 'Street address', TEXT_LIMITS.addressField),
  city: requiredCappedText(M.city, 'City', TEXT_LIMITS.addressField),
};
/** The United States: the state list and a required ZIP code. */
const usRegionEntries = {
  state: StateSchema,
  zipCode: requiredCappedText(M.zipCode, 'ZIP code', TEXT_LIMITS.addressField),
};
/** Elsewhere: a free-text region and a postal code, both optional. */
const otherRegionEntries = { state: RegionSchema, zipCode: PostalCodeSchema };

/**
 * The checkout form's fields around the address, by country: `before` the country (the address
 * section starts with it) and `after` the ZIP code.
 * Note: a variant on `country` keeps one issue list in form order per country (the forms show the
 * first issue of each field, the API the first of all) and converts to JSON Schema as an anyOf;
 * a country outside the list is its only issue.
 */
export function addressFormSchema<
  const Before extends v.ObjectEntries,
  const After extends v.ObjectEntries,
>(before: Before, after: After) {
  return v.variant(
    'country',
    [
      v.object({
        ...before,
        ...contactEntries,
        country: UsCountrySchema,
        ...nameEntries,
        ...usRegionEntries,
        ...after,
      }),
      v.object({
        ...before,
        ...contactEntries,
        country: OtherCountrySchema,
        ...nameEntries,
        ...otherRegionEntries,
        ...after,
      }),
    ],
    M.country,
  );
}

/**
 * Shipping address of an order (docs/data.md#shipping-address), with its country (absent: the
 * United States).
 */
export const ShippingAddressSchema = v.variant(
  'country',
  [
    v.object({
      firstName: nameEntries.firstName,
      lastName: nameEntries.lastName,
      email: EmailSchema,
      phone: contactEntries.phone,
      street: nameEntries.street,
      city: nameEntries.city,
      country: UsCountrySchema,
      ...usRegionEntries,
    }),
    v.object({
      firstName: nameEntries.firstName,
      lastName: nameEntries.lastName,
      email: EmailSchema,
      phone: contactEntries.phone,
      street: nameEntries.street,
      city: nameEntries.city,
      country: OtherCountrySchema,
      ...otherRegionEntries,
    }),
  ],
  M.country,
);
/** A shipping address. */
export type ShippingAddress = v.InferOutput<typeof ShippingAddressSchema>;

/** An address with its country: one stored before addresses had countries is a US address. */
export function withCountry(address: ShippingAddress): ShippingAddress {
  // Note: the type says every address has a country; stored JSON from before may not.
  const country: string | undefined = address.country;
  return { ...address, country: country ?? DEFAULT_COUNTRY } as ShippingAddress;
}

/** Store checkout form: customer, address and shipping method (default free). */
export const StoreCheckoutFormSchema = addressFormSchema(
  { customerEmail: EmailSchema },
  { shippingMethod: v.optional(ShippingMethodSchema, 'free') },
);
/** A validated store checkout form. */
export type StoreCheckoutForm = v.InferOutput<typeof StoreCheckoutFormSchema>;

/** Universal checkout form: same fields, shipping method optional (shown only when shipping is on). */
export const UniversalCheckoutFormSchema = addressFormSchema(
  { customerEmail: EmailSchema },
  { shippingMethod: v.optional(ShippingMethodSchema) },
);
/** A validated universal checkout form. */
export type UniversalCheckoutForm = v.InferOutput<typeof UniversalCheckoutFormSchema>;

/** The customer and address of a validated checkout form. */
type AddressForm = Pick<
  StoreCheckoutForm | UniversalCheckoutForm,
  | 'customerEmail'
  | 'phone'
  | 'firstName'
  | 'lastName'
  | 'street'
  | 'city'
  | 'country'
  | 'state'
  | 'zipCode'
>;

/** Builds the order's shipping address from a validated checkout form. */
export function shippingAddressFromForm(form: AddressForm): ShippingAddress {
  const { customerEmail, phone, firstName, lastName, street, city, country, state, zipCode } = form;
  return {
    firstName,
    lastName,
    email: customerEmail,
    phone,
    street,
    city,
    country,
    state,
    zipCode,
  } as ShippingAddress;
}

/** Quantity of an order line: an integer of at least 1. */
export const LineQuantitySchema = v.pipe(v.number(), v.safeInteger(), v.minValue(1));

/**
 * An order line (docs/data.md#order-lines); universal lines carry productId
 * universal-{timestamp}-{random}.
 */
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

/** Metadata of universal orders (docs/data.md#order-metadata). */
export const OrderMetadataSchema = v.object({
  externalStoreName: OptionalText,
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
  /** An order paid over HTTP 402 (x402): the resource paid for and the payer (the signer). */
  x402: v.optional(
    v.object({
      resource: v.pipe(v.string(), maxChars('Resource', TEXT_LIMITS.url)),
      payer: v.nullish(v.string()),
    }),
  ),
});
/** Universal order metadata. */
export type OrderMetadata = v.InferOutput<typeof OrderMetadataSchema>;

/**
 * A line of a store order whose stock ran out before the order was paid (another order took the
 * last units first). The payment stands; the merchant must refund or restock it.
 */
export const StockShortfallSchema = v.object({
  productId: v.string(),
  title: v.string(),
  ordered: v.number(),
  available: v.number(),
});
/** A line short of stock. */
export type StockShortfall = v.InferOutput<typeof StockShortfallSchema>;

/** Order status picklist. */
export const OrderStatusSchema = v.picklist(ORDER_STATUSES);

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
  /** A discount code the shopper applied; the server checks it and prices the order with it. */
  discountCode: v.optional(DiscountCodeSchema),
  /** What the shopper's page took off for the code; checked like the other totals. */
  discountUsdc: v.optional(MoneyStringSchema),
});
/** A validated store order body. */
export type CreateOrder = v.InferOutput<typeof CreateOrderSchema>;
