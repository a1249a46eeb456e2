// Stock that never oversells: an order holds its units of tracked products from when its shopper
// asks to pay (its deposit address is made) until `orders.stock_held_until` (STOCK_HOLD_MINUTES,
// 30 by default), unless paid before (then the units leave the stock for good). What a shopper can
// buy is the stock minus what other orders hold. An order that was only placed holds nothing: a
// stranger cannot make a product sold out for free.
// Note: the products are locked (FOR UPDATE) while their holds are counted and the hold written,
// so two shoppers racing for the last unit are served one by one.
// Here: the units other orders hold, what is left for a shopper, and the inventory commit of a
// paid order (in the transaction that records it paid); taking a hold when a shopper asks to pay
// is modules/stock/holds.ts.
import type { OrderItem, OrderMetadata } from '@store/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { nextVersion } from '../db/row-version.ts';
import { orders, products } from '../db/schema.ts';
import { isUuid } from '../db/uuid.ts';

type StockShortfall = NonNullable<OrderMetadata['stockShortfall']>[number];

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
 * Takes a paid order's quantities out of stock; call it in the transaction that marks the order
 * paid. Runs once per order (later calls return false). Untracked products are left alone; a
 * tracked one stays tracked (and published) at 0: sold out. Note: an order's units are held from
 * its creation, so this can fall short only for an order paid after its hold ended; the payment
 * stands, and what could not be taken from stock is written to the order's
 * `metadata.stockShortfall` (the order is oversold, for the merchant to refund or restock).
 */
export async function decrementInventoryForPaidOrder(
  tx: Executor,
  orderId: string,
): Promise<boolean> {
  const [order] = await tx
    .update(orders)
    .set({ inventoryCommittedAt: sql`now()`, updatedAt: nextVersion(orders.updatedAt) })
    .where(and(eq(orders.id, orderId), isNull(orders.inventoryCommittedAt)))
    .returning({
      storeId: orders.storeId,
      source: orders.source,
      items: orders.items,
      metadata: orders.metadata,
    });
  if (!order) return false;
  // Note: only a storefront's lines are our catalogue's; a link's or a session's item ids are the
  // integrator's (a link's could name any product), and they never take stock.
  const fromCatalogue = order.source === 'storefront' && order.storeId !== null;
  const lines = new Map<string, { quantity: number; title: string; tracked: boolean }>();
  for (const item of fromCatalogue ? order.items : []) {
    if (!isUuid(item.productId)) continue;
    const line = lines.get(item.productId);
    lines.set(item.productId, {
      quantity: (line?.quantity ?? 0) + item.quantity,
      title: item.title,
      // Note: orders placed before lines carried the flag count as tracked when stock is left.
      tracked: item.stockTracked ?? true,
    });
  }
  const shortfall: StockShortfall[] = [];
  // Note: sorted, so two orders paid at once lock their products in the same order (no deadlock).
  for (const [productId, line] of [...lines].sort(([a], [b]) => a.localeCompare(b))) {
    const storeId = order.storeId;
    if (!line.tracked || !storeId) continue;
    const [before] = await tx
      .select({ inventory: products.inventory })
      .from(products)
      .where(and(eq(products.id, productId), eq(products.storeId, storeId)))
      .for('update');
    if (!before) continue;
    // Note: units other orders hold right now are theirs: an order paid after its own hold ended
    // takes only what is left besides them (an order within its hold always finds its units).
    const othersHold = (await heldUnits(tx, [productId], orderId)).get(productId) ?? 0;
    const takable = availableUnits(before.inventory, othersHold);
    const taken = Math.min(line.quantity, takable);
    if (taken < line.quantity) {
      shortfall.push({
        productId,
        title: line.title,
        ordered: line.quantity,
        available: takable,
      });
    }
    if (taken === 0) continue;
    await tx
      .update(products)
      .set({
        inventory: sql`greatest(${products.inventory} - ${taken}, 0)`,
        updatedAt: nextVersion(products.updatedAt),
      })
      .where(eq(products.id, productId));
  }
  if (shortfall.length > 0) {
    await tx
      .update(orders)
      .set({ metadata: { ...order.metadata, stockShortfall: shortfall } })
      .where(eq(orders.id, orderId));
  }
  return true;
}
