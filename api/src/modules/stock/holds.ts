// An order's stock hold, taken in the transaction that makes its deposit address (the rules of
// stock: payments/stock.ts).
import type { OrderItem } from '@store/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { orders, products } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { availableUnits, heldUnits } from '../../payments/stock.ts';
import { ORDER_MESSAGES } from '../orders/model.ts';

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
