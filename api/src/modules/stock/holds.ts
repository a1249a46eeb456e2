// Stock that never oversells: an order holds its units of tracked products from its creation until
// `orders.stock_held_until` (STOCK_HOLD_MINUTES, 30 by default), unless paid before (then the units
// leave the stock for good). What a shopper can buy is the stock minus what other orders hold.
// Note: the products of an order being created are locked (FOR UPDATE) while their holds are
// counted and the order inserted, so two shoppers racing for the last unit are served one by one.
import { sql } from 'drizzle-orm';
import type { Executor } from '../orders/service.ts';

/** Units of each product held by pending orders whose hold has not ended. */
export async function heldUnits(
  tx: Executor,
  productIds: readonly string[],
  /** An order whose own hold is not counted (the one being paid). */
  exceptOrderId?: string,
): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = await tx.execute<{ product_id: string; held: string }>(sql`
    select item->>'productId' as product_id, sum((item->>'quantity')::int)::text as held
    from orders, jsonb_array_elements(orders.items) as item
    where orders.stock_held_until > now()
      and orders.inventory_committed_at is null
      and orders.status = 'pending'
      ${exceptOrderId ? sql`and orders.id <> ${exceptOrderId}::uuid` : sql``}
      and item->>'productId' in (${sql.join(
        productIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    group by 1`);
  return new Map([...rows].map((row) => [row.product_id, Number(row.held)]));
}

/** What a shopper sees of a tracked product's stock: units left after other orders' holds. */
export function availableUnits(inventory: number, held: number): number {
  return Math.max(inventory - held, 0);
}
