// The body of POST /api/universal-orders from the universal checkout form
// (docs/api.md#shopper-routes): lines with generated product ids, totals, the chosen shipping and
// the link's settings, and metadata.
import { type DiscountLine, type DiscountRule, discountAmount } from './discounts.ts';
import { formatUsdc, parseUsdc } from './money.ts';
import type { RandomSource } from './order-id.ts';
import { generateUniversalProductId } from './order-id.ts';
import type { ShippingMethod } from './schemas/common.ts';
import { shippingAddressFromForm, type UniversalCheckoutForm } from './schemas/order.ts';
import type { CheckoutParams, CreateUniversalOrder } from './schemas/universal.ts';
import { defaultUniversalShippingMethod, universalCheckoutTotals } from './totals.ts';

/** The link's shipping settings, as the totals and the server read them. */
export function shippingOptionsOf(params: CheckoutParams) {
  return {
    shipping: params.shipping,
    freeShipping: params.freeShipping,
    ...(params.standardShipping ? { standardShipping: params.standardShipping } : {}),
    ...(params.expressShipping ? { expressShipping: params.expressShipping } : {}),
  };
}

/**
 * The method selected at first: none without shipping, else the default of
 * docs/rules.md#shipping-methods.
 */
export function initialUniversalShipping(params: CheckoutParams): ShippingMethod | undefined {
  return defaultUniversalShippingMethod(shippingOptionsOf(params));
}

/** A link's items as a discount reads them: a link's lines name no catalogue product. */
export function linkLines(
  items: readonly { priceUsdc: string; quantity: number }[],
): DiscountLine[] {
  return items.map((item) => ({
    productId: '',
    priceUsdc: item.priceUsdc,
    quantity: item.quantity,
  }));
}

/**
 * A universal checkout's totals with a signed link's discount code (`rule`, as the store's API
 * answered it): subtotal − what the code takes off + shipping (the server prices it again).
 */
export function universalTotalsWithDiscount(
  params: CheckoutParams,
  method: ShippingMethod | undefined,
  rule?: DiscountRule,
) {
  const totals = universalCheckoutTotals(params.items, method, shippingOptionsOf(params));
  const off = rule ? discountAmount(linkLines(params.items), rule) : 0n;
  return {
    ...totals,
    discountUsdc: formatUsdc(off),
    totalUsdc: formatUsdc(parseUsdc(totals.totalUsdc) - off),
  };
}

/**
 * Builds the order body (with the signed link's code and its amount when `rule` is given); throws
 * InvalidAmountError when a price cannot be read.
 */
export function buildUniversalOrderBody(
  params: CheckoutParams,
  form: UniversalCheckoutForm,
  now: number,
  random: RandomSource,
  rule?: DiscountRule,
): CreateUniversalOrder {
  const options = shippingOptionsOf(params);
  const method = params.shipping ? form.shippingMethod : undefined;
  const totals = universalTotalsWithDiscount(params, method, rule);
  const colors = {
    primary: params.primaryColor ?? null,
    secondary: params.secondaryColor ?? null,
    accent: params.accentColor ?? null,
  };
  return {
    externalOrderId: params.externalOrderId ?? null,
    storeName: params.storeName,
    storePaymentAddress: params.paymentAddress,
    webhookUrl: params.webhookUrl ?? null,
    customerEmail: form.customerEmail,
    shippingAddress: shippingAddressFromForm(form),
    items: params.items.map((item) => ({
      productId: generateUniversalProductId(now, random),
      title: item.title,
      priceUsdc: item.priceUsdc,
      quantity: item.quantity,
      imageUrl: item.imageUrl ?? null,
    })),
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    ...(rule ? { discountCode: rule.code, discountUsdc: totals.discountUsdc } : {}),
    ...(method ? { shippingMethod: method } : {}),
    shippingOptions: options,
    status: 'pending',
    // Note: only the link's branding; the server builds the rest of the metadata
    // (docs/data.md#order-metadata).
    metadata: {
      returnUrl: params.returnUrl ?? null,
      theme: params.theme ?? null,
      colors,
      logoUrl: params.logoUrl ?? null,
    },
  };
}
