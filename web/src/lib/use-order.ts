// Loads one order for the payment and thank-you pages; orders are never cached on the device.
import type { Order } from '@store/shared';
import { useEffect, useState } from 'react';
import { isNotFound } from './api.ts';
import { fetchOrder } from './shop-api.ts';

/** An order request's state. */
export type OrderState =
  | { state: 'loading' }
  | { state: 'ready'; order: Order }
  | { state: 'not-found' }
  | { state: 'failed'; error: unknown };

/** GET /api/orders/{id} once per id (with `buyerToken` when a link gave one). */
export function useOrder(orderId: string, buyerToken?: string): OrderState {
  const [result, setResult] = useState<OrderState & { id?: string }>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setResult({ state: 'loading', id: orderId });
    fetchOrder(orderId, buyerToken).then(
      (order) => live && setResult({ state: 'ready', order, id: orderId }),
      (error: unknown) => {
        if (!live) return;
        setResult(
          isNotFound(error)
            ? { state: 'not-found', id: orderId }
            : { state: 'failed', error, id: orderId },
        );
      },
    );
    return () => {
      live = false;
    };
  }, [orderId, buyerToken]);
  return result.id === orderId ? result : { state: 'loading' };
}
