// Lines saved before carts were per store (no storeId, docs/screens.md#storefront): flagged,
// removable one by one or all at once with 'Clear All Cart Items'.
import { SUCCESS_TOASTS } from '@store/shared';
import { clearCart, removeFromCart, useOutdatedItems } from '../../../../db/cart.ts';
import { usdc } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/toast.ts';

/** A warning listing the outdated cart lines, shown only when there are some. */
export function OutdatedItems() {
  const items = useOutdatedItems();
  if (items.length === 0) return null;
  const clearAll = async () => {
    await clearCart();
    toast(SUCCESS_TOASTS.cartCleared);
  };
  return (
    <section className="card notice notice-warning" aria-labelledby="outdated-title">
      <h2 id="outdated-title">Outdated cart items</h2>
      <p className="muted">
        These items were saved by an older version of the app and are not linked to a store. Remove
        them and add them again from their store.
      </p>
      <ul className="outdated-list">
        {items.map((item) => (
          <li key={item.key}>
            <span>
              {item.title} × {item.quantity} <span className="muted">({usdc(item.priceUsdc)})</span>
            </span>
            <button
              type="button"
              className="button button-quiet button-small"
              aria-label={`Remove ${item.title}`}
              onClick={() => void removeFromCart(undefined, item.productId)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="button button-danger" onClick={() => void clearAll()}>
        Clear All Cart Items
      </button>
    </section>
  );
}
