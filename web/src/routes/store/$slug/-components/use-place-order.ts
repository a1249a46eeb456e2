// Submitting the store checkout: pre-submit checks, POST /api/orders with an Idempotency-Key that
// stays the same while the same order is re-sent, cart cleared on success, and the details kept
// for the next checkout only when the shopper asked for it.
import {
  type DiscountRule,
  FAILURE_TOASTS,
  type ResolvedStoreSettings,
  type StoreCheckoutForm,
  SUCCESS_TOASTS,
} from '@store/shared';
import { prepareStoreOrder } from '@store/shared/store-checkout';
import { useRef } from 'react';
import { clearCart } from '../../../../db/cart.ts';
import type { CartRow } from '../../../../db/db.ts';
import { saveShippingAddress } from '../../../../db/settings.ts';
import { errorText, newIdempotencyKey } from '../../../../lib/api.ts';
import { createOrder } from '../../../../lib/shop-api.ts';
import { toast, toastError } from '../../../../lib/toast.ts';

/** Returns `placeOrder`: true once the order exists (`onCreated` ran), false after a failure toast. */
export function usePlaceOrder() {
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined);

  return async function placeOrder(
    lines: readonly CartRow[],
    storeId: string | undefined,
    form: StoreCheckoutForm,
    onCreated: (orderId: string) => void,
    settings?: ResolvedStoreSettings,
    /** Whether the shopper asked this device to remember the details. */
    remember = false,
    /** The discount code the shopper applied (the server checks and prices it again). */
    discount?: DiscountRule,
  ): Promise<boolean> {
    const prepared = prepareStoreOrder(lines, storeId, form, settings, discount);
    if (!prepared.ok) {
      toastError(prepared.error.title, prepared.error.description);
      return false;
    }
    const body = JSON.stringify(prepared.value);
    // Note: a re-sent identical order replays the first answer instead of creating a second one.
    if (attempt.current?.body !== body) attempt.current = { body, key: newIdempotencyKey() };
    try {
      const order = await createOrder(prepared.value, attempt.current.key);
      // Note: before the cart empties, so the page never flashes 'Your cart is empty'.
      onCreated(order.id);
      await clearCart(prepared.value.storeId);
      if (remember) await saveShippingAddress({ ...prepared.value.shippingAddress });
      toast(SUCCESS_TOASTS.orderCreated);
      return true;
    } catch (error) {
      toastError(FAILURE_TOASTS.createOrder, errorText(error));
      return false;
    }
  };
}
