// An oversold order (paid after its stock hold ended, with the stock gone: `orders.stock_shortfall`)
// offers its payer a refund at once: what the missing units cost is held on the deposit address as
// a refund awaiting the payer's address, before the merchant's round, so it never reaches the
// merchant. Everything missing: the whole total (shipping too); part: those units with their share
// of the tax (none when the prices included it).
import {
  type OrderItem,
  orderTaxIncluded,
  parseUsdc,
  type StockShortfall,
  type Usdc,
} from '@store/shared';

/** What an order owes its payer for the units it could not supply (base units of USDC). */
export function oversoldRefundAmount(order: {
  items: readonly OrderItem[];
  stockShortfall: StockShortfall[] | null;
  subtotalUsdc: string;
  discountUsdc?: string;
  shippingUsdc?: string;
  taxUsdc: string;
  totalUsdc: string;
}): Usdc {
  const shortfall = order.stockShortfall ?? [];
  if (shortfall.length === 0) return 0n;
  const missing = new Map(
    shortfall.map((s) => [s.productId, Math.max(s.ordered - Math.max(s.available, 0), 0)]),
  );
  let value = 0n;
  for (const item of order.items) {
    const left = missing.get(item.productId) ?? 0;
    if (left <= 0) continue;
    const units = Math.min(left, item.quantity);
    missing.set(item.productId, left - units);
    value += parseUsdc(item.priceUsdc) * BigInt(units);
  }
  const subtotal = parseUsdc(order.subtotalUsdc);
  if (value <= 0n) return 0n;
  if (value >= subtotal) return parseUsdc(order.totalUsdc);
  // Note: tax-inclusive prices already hold those units' tax.
  if (
    order.shippingUsdc !== undefined &&
    orderTaxIncluded({ ...order, shippingUsdc: order.shippingUsdc })
  )
    return value;
  // Note: the tax of those units, rounded down to the base unit (never more than was paid).
  return value + (parseUsdc(order.taxUsdc) * value) / subtotal;
}
