// Tells the shopper how long the order's items are kept for them (an order holds its units of
// tracked products for STOCK_HOLD_MINUTES once its shopper asks to pay, that is once the payment
// page gets its deposit address; after that they may sell to someone else).
import type { Order } from '@store/shared';
import { useEffect, useState } from 'react';

const time = (date: Date) => date.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

/** "Your items are reserved until 14:32", while the hold lasts and the order is unpaid. */
export function StockHoldNotice(props: {
  order: Order;
  /** The hold's end as the deposit address's answer gave it (the order was read before). */
  heldUntil?: string | null;
  paid: boolean;
}) {
  const end = props.order.stockHeldUntil ?? props.heldUntil;
  const until = end ? new Date(end) : null;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    const left = until.getTime() - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(left + 500, 2_147_483_647));
    return () => clearTimeout(timer);
  }, [until]);
  if (!until || props.paid || props.order.status !== 'pending') return null;
  return until.getTime() > now ? (
    <p className="notice" data-testid="stock-hold">
      Your items are reserved until {time(until)}. Pay before then to be sure of them.
    </p>
  ) : (
    <p className="notice notice-warning" data-testid="stock-hold">
      The reservation of your items ended at {time(until)}. You can still pay; if they sold out in
      the meantime, you will be offered a refund.
    </p>
  );
}
