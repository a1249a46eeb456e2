// The store checkout's pre-submit checks and order body (docs/rules.md#customer-details): empty
// cart, totals that cannot be computed, and a missing store id stop the order before any request is
// sent.
import { type DiscountRule, discountAmount, discountRefusal } from './discounts.ts';
import { CHECKOUT_MESSAGES } from './messages.ts';
import { err, ok, type Result } from './result.ts';
import type { ShippingMethod } from './schemas/common.ts';
import {
  type CreateOrder,
  type StoreCheckoutForm,
  shippingAddressFromForm,
} from './schemas/order.ts';
import {
  offeredShippingPrice,
  type ResolvedStoreSettings,
  resolveStoreSettings,
  STORE_SETTINGS_MESSAGES,
  settingsForCountry,
} from './store-settings.ts';
import { storeCheckoutTotals } from './totals.ts';

/** A cart line as the checkout reads it. */
export interface CheckoutCartLine {
  productId: string;
  title: string;
  priceUsdc: string;
  quantity: number;
  imageUrl?: string | null;
}

/** A toast that stops the checkout: its title and optional description. */
export interface CheckoutStop {
  title: string;
  description?: string;
}

/** Body of POST /api/orders with the chosen shipping method. */
export type StoreOrderBody = CreateOrder & { shippingMethod: ShippingMethod };

/**
 * The store checkout's totals with the store's settings for the shipping country (settingsForCountry:
 * its zone's tax rate and the chosen method's price there, tax included or added) and the applied code's discount when it applies to the lines; undefined when the store
 * does not offer the method. Throws on a non-numeric line.
 */
export function storeOrderTotals(
  lines: readonly CheckoutCartLine[],
  method: ShippingMethod,
  settings: ResolvedStoreSettings,
  discount?: DiscountRule,
): ReturnType<typeof storeCheckoutTotals> | undefined {
  const shipping = offeredShippingPrice(settings, method);
  if (shipping === undefined) return undefined;
  const off =
    discount && discountRefusal(lines, discount) === undefined
      ? discountAmount(lines, discount)
      : 0n;
  return storeCheckoutTotals(lines, shipping, settings.taxRateBps, off, settings.pricesIncludeTax);
}

/** Why a method cannot be chosen: not offered by the store, or not to the shipping country's zone. */
export function methodOffMessage(settings: ResolvedStoreSettings, method: ShippingMethod): string {
  const label = settings.shipping[method].label;
  return settings.zones.length > 0
    ? STORE_SETTINGS_MESSAGES.zoneMethodOff(label, settings.zone)
    : STORE_SETTINGS_MESSAGES.methodOff(label);
}

/**
 * Checks the cart, totals and store in that order and builds the order body, priced with the
 * store's settings (the defaults when none are given) for the form's country.
 */
export function prepareStoreOrder(
  lines: readonly CheckoutCartLine[],
  storeId: string | null | undefined,
  form: StoreCheckoutForm,
  storeSettings: ResolvedStoreSettings = resolveStoreSettings({}),
  discount?: DiscountRule,
): Result<StoreOrderBody, CheckoutStop> {
  const settings = settingsForCountry(storeSettings, form.country);
  if (lines.length === 0) return err({ title: CHECKOUT_MESSAGES.cartEmpty });
  let totals: ReturnType<typeof storeCheckoutTotals> | undefined;
  try {
    totals = storeOrderTotals(lines, form.shippingMethod, settings, discount);
    if (!totals)
      return err({
        title: 'Shipping Method',
        description: methodOffMessage(settings, form.shippingMethod),
      });
  } catch {
    return err(CHECKOUT_MESSAGES.calculationError);
  }
  if (!storeId) return err(CHECKOUT_MESSAGES.storeError);
  return ok({
    storeId,
    customerEmail: form.customerEmail,
    shippingAddress: shippingAddressFromForm(form),
    items: lines.map((line) => ({
      productId: line.productId,
      title: line.title,
      priceUsdc: line.priceUsdc,
      quantity: line.quantity,
      imageUrl: line.imageUrl ?? null,
    })),
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    status: 'pending',
    shippingMethod: form.shippingMethod,
    ...(discount && totals.discount > 0n
      ? { discountCode: discount.code, discountUsdc: totals.discountUsdc }
      : {}),
  });
}
