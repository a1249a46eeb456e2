// Moves the cart that older versions kept in localStorage (one key, carts by store)
// into IndexedDB once. Lines saved before carts were per store have no storeId: they arrive
// flagged outdated, and the storefront offers to remove them.
import { CartStateSchema } from '@store/shared';
import type { Transaction } from 'dexie';
import * as v from 'valibot';

/** The localStorage key the cart used before IndexedDB. */
export const LEGACY_CART_STORAGE_KEY = 'usdc-storefront-cart';

function readLegacyState(raw: string | null) {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw) as { state?: unknown };
    // Note: persisted stores wrap their state as { state, version }.
    const state = parsed && typeof parsed === 'object' && 'state' in parsed ? parsed.state : parsed;
    const result = v.safeParse(CartStateSchema, state);
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

/** Copies the legacy cart into the new tables of `tx` and forgets the old key. */
export function importLegacyCart(tx: Transaction): void {
  if (typeof localStorage === 'undefined') return;
  const state = readLegacyState(localStorage.getItem(LEGACY_CART_STORAGE_KEY));
  localStorage.removeItem(LEGACY_CART_STORAGE_KEY);
  if (!state) return;
  const now = Date.now();
  let order = 0;
  for (const items of Object.values(state.carts)) {
    for (const item of items) {
      const key = `${item.storeId || '-'}/${item.productId}`;
      void tx.table('cartItems').put({ ...item, key, addedAt: now + order++ });
    }
  }
  const settings = tx.table('settings');
  if (state.shippingAddress)
    void settings.put({ key: 'shippingAddress', value: state.shippingAddress });
  void settings.put({ key: 'selectedChain', value: state.selectedChain });
  if (state.currentStoreId)
    void settings.put({ key: 'currentStoreId', value: state.currentStoreId });
}
