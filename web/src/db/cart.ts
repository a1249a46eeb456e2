// Cart rules (docs/rules.md#cart-rules) on IndexedDB: adding an existing line adds to its quantity,
// a quantity of 0 or less removes the line, remove and clear work per store, clearing with no store
// known empties every cart, and lines without a storeId are outdated.
import {
  type CartItem,
  clampQuantity,
  formatUsdc,
  isOutdatedCartItem,
  maxQuantity,
  multiplyUsdc,
  parseUsdc,
  subtotalOf,
} from '@store/shared';
import type { CartRow, StorefrontDb } from './db.ts';
import { cartKey } from './keys.ts';
import { openDb, useDbQuery } from './open.ts';

/** What a product page or card adds: a cart line without its quantity, plus known stock. */
export interface CartProduct extends Omit<CartItem, 'quantity' | 'storeId'> {
  storeId: string;
  inventory?: number;
}

/** What an add did: the line as saved and how many units were really added. */
export interface CartAddition {
  row: CartRow;
  /** Units added: less than asked when the line reached the product's limit (0 when it was full). */
  added: number;
  /** The line's limit: the stock, or 99 when untracked. */
  limit: number;
}

/** Adds `quantity` of a product to its store's cart; the line never exceeds the stock limit. */
export async function addToCart(product: CartProduct, quantity = 1): Promise<CartAddition> {
  const key = cartKey(product.storeId, product.productId);
  const db = await openDb();
  return db.transaction('rw', db.cartItems, db.settings, async () => {
    const existing = await db.cartItems.get(key);
    const inventory = product.inventory ?? existing?.inventory;
    const total = (existing?.quantity ?? 0) + quantity;
    const row: CartRow = {
      key,
      productId: product.productId,
      storeId: product.storeId,
      title: product.title,
      priceUsdc: product.priceUsdc,
      imageUrl: product.imageUrl ?? null,
      quantity: clampQuantity(total, inventory),
      addedAt: existing?.addedAt ?? Date.now(),
      ...(inventory === undefined ? {} : { inventory }),
    };
    await db.cartItems.put(row);
    await db.settings.put({ key: 'currentStoreId', value: product.storeId });
    return {
      row,
      added: Math.max(row.quantity - (existing?.quantity ?? 0), 0),
      limit: maxQuantity(inventory),
    };
  });
}

/**
 * Sets a line's quantity; 0 or less removes it, more than the stock limit is capped. `inventory`,
 * when known (a fresher catalogue copy), becomes the line's stock limit. Resolves to the quantity
 * saved: 0 when the line is gone, below `quantity` when capped.
 */
export async function setCartQuantity(
  storeId: string | undefined,
  productId: string,
  quantity: number,
  inventory?: number,
): Promise<number> {
  const key = cartKey(storeId, productId);
  const db = await openDb();
  return db.transaction('rw', db.cartItems, async () => {
    if (!(quantity > 0)) {
      await db.cartItems.delete(key);
      return 0;
    }
    const row = await db.cartItems.get(key);
    if (!row) return 0;
    const limit = inventory ?? row.inventory;
    const saved = clampQuantity(quantity, limit);
    await db.cartItems.update(key, {
      quantity: saved,
      ...(limit === undefined ? {} : { inventory: limit }),
    });
    return saved;
  });
}

/** Removes one line from a store's cart (or an outdated line, with storeId undefined). */
export async function removeFromCart(
  storeId: string | undefined,
  productId: string,
): Promise<void> {
  const db = await openDb();
  await db.cartItems.delete(cartKey(storeId, productId));
}

/** Empties one store's cart, or every cart when no store is known. */
export async function clearCart(storeId?: string | null): Promise<void> {
  const db = await openDb();
  if (storeId) await db.cartItems.where('storeId').equals(storeId).delete();
  else await db.cartItems.clear();
}

/** One store's cart with its figures. */
export interface CartView {
  items: CartRow[];
  /** Σ quantities. */
  count: number;
  /** Σ price × quantity, 2 decimals; undefined when a price cannot be read. */
  subtotalUsdc: string | undefined;
}

/** Figures of a list of lines. */
export function cartView(items: CartRow[]): CartView {
  let subtotalUsdc: string | undefined;
  try {
    subtotalUsdc = formatUsdc(subtotalOf(items));
  } catch {
    subtotalUsdc = undefined;
  }
  return { items, count: items.reduce((sum, item) => sum + item.quantity, 0), subtotalUsdc };
}

/** A line's price × quantity, 2 decimals; undefined when its price cannot be read. */
export function lineTotalOf(line: Pick<CartItem, 'priceUsdc' | 'quantity'>): string | undefined {
  try {
    return formatUsdc(multiplyUsdc(parseUsdc(line.priceUsdc), line.quantity));
  } catch {
    return undefined;
  }
}

/** Lines of one store's cart, oldest first. */
export async function readCart(storeId: string): Promise<CartRow[]> {
  return cartOf(await openDb(), storeId);
}

function cartOf(db: StorefrontDb, storeId: string): Promise<CartRow[]> {
  return db.cartItems.where('storeId').equals(storeId).sortBy('addedAt');
}

/** Lines saved before carts were per store. */
export async function readOutdatedItems(): Promise<CartRow[]> {
  return outdatedOf(await openDb());
}

async function outdatedOf(db: StorefrontDb): Promise<CartRow[]> {
  const all = await db.cartItems.orderBy('addedAt').toArray();
  return all.filter(isOutdatedCartItem);
}

/**
 * A store's cart, live; undefined while IndexedDB answers. `deferred` where the cart is not the
 * page's content (the summary on a store page): it then waits for the page (db/open.ts).
 */
export function useCart(
  storeId: string | undefined,
  options: { deferred?: boolean } = {},
): CartView | undefined {
  return useDbQuery(
    async (db) => cartView(storeId ? await cartOf(db, storeId) : []),
    [storeId],
    options,
  );
}

/** Outdated lines (no storeId), live. */
export function useOutdatedItems(): CartRow[] {
  return useDbQuery(outdatedOf, [], { deferred: true }) ?? [];
}

/** Largest quantity the cart accepts for a product (its stock, or 99 when untracked). */
export function cartLimit(inventory?: number): number {
  return maxQuantity(inventory);
}
