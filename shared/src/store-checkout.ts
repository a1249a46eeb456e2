// The store checkout's pre-submit checks and order body (SPEC §5, §7): empty cart, totals that
// cannot be computed, and a missing store id stop the order before any request is sent.
import { CHECKOUT_MESSAGES } from './messages.ts';
import { err, ok, type Result } from './result.ts';
import type { ShippingMethod } from './schemas/common.ts';
import {
  type CreateOrder,
  type StoreCheckoutForm,
  shippingAddressFromForm,
} from './schemas/order.ts';
import { shippingFor, storeCheckoutTotals } from './totals.ts';

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

/** Checks the cart, totals and store in SPEC order and builds the order body. */
export function prepareStoreOrder(
  lines: readonly CheckoutCartLine[],
  storeId: string | null | undefined,
  form: StoreCheckoutForm,
): Result<StoreOrderBody, CheckoutStop> {
  if (lines.length === 0) return err({ title: CHECKOUT_MESSAGES.cartEmpty });
  let totals: ReturnType<typeof storeCheckoutTotals>;
  try {
    totals = storeCheckoutTotals(lines, shippingFor(form.shippingMethod));
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
  });
}
