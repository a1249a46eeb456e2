// The body of POST /api/universal-orders from the universal checkout form
// (docs/api.md#shopper-routes): lines with generated product ids, totals, the chosen shipping and
// the link's settings, and metadata.
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

/** Builds the order body; throws InvalidAmountError when a price cannot be read. */
export function buildUniversalOrderBody(
  params: CheckoutParams,
  form: UniversalCheckoutForm,
  now: number,
  random: RandomSource,
): CreateUniversalOrder {
  const options = shippingOptionsOf(params);
  const method = params.shipping ? form.shippingMethod : undefined;
  const totals = universalCheckoutTotals(params.items, method, options);
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
