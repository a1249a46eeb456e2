// Stock that never oversells: an order holds its units of tracked products from when its shopper
// asks to pay (its deposit address is made) until `orders.stock_held_until` (STOCK_HOLD_MINUTES,
// 30 by default), unless paid before (then the units leave the stock for good). What a shopper can
// buy is the stock minus what other orders hold. An order that was only placed holds nothing: a
// stranger cannot make a product sold out for free.
// Note: the products are locked (FOR UPDATE) while their holds are counted and the hold written,
// so two shoppers racing for the last unit are served one by one.
import type { OrderItem } from '@store/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orders, products } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { ORDER_MESSAGES } from '../orders/model.ts';

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

/** Whether an order has units of tracked products, which it holds once its shopper asks to pay. */
export function holdsStock(items: readonly OrderItem[]): boolean {
  return items.some((item) => item.stockTracked);
}

/**
 * Holds an order's units of tracked products for `holdMinutes` from now, in the transaction that
 * makes its deposit address, and returns until when (null when it has none): 409 with the
 * product's sold-out (or units-left) message when other orders hold them or they were sold since
 * the order was placed.
 */
export async function holdOrderStock(
  tx: Executor,
  order: { id: string; items: readonly OrderItem[] },
  holdMinutes: number,
): Promise<Date | null> {
  const wanted = new Map<string, { title: string; quantity: number }>();
  for (const item of order.items) {
    if (!item.stockTracked) continue;
    const line = wanted.get(item.productId) ?? { title: item.title, quantity: 0 };
    line.quantity += item.quantity;
    wanted.set(item.productId, line);
  }
  if (wanted.size === 0) return null;
  const ids = [...wanted.keys()];
  const locked = await tx
    .select({ id: products.id, inventory: products.inventory })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(products.id)
    .for('update');
  const held = await heldUnits(tx, ids, order.id);
  for (const [id, line] of wanted) {
    const row = locked.find((product) => product.id === id);
    const left = availableUnits(row?.inventory ?? 0, held.get(id) ?? 0);
    if (line.quantity > left)
      throw new AppError(
        'invalid_state',
        left === 0
          ? ORDER_MESSAGES.soldOut(line.title)
          : ORDER_MESSAGES.outOfStock(line.title, left),
      );
  }
  const [holding] = await tx
    .update(orders)
    .set({ stockHeldUntil: sql`now() + ${`${holdMinutes} minutes`}::interval` })
    .where(eq(orders.id, order.id))
    .returning({ until: orders.stockHeldUntil });
  return holding?.until ?? null;
}
