// Cart summary (docs/screens.md#cart-summary): item count and USDC total, linking to the store's
// cart page, and a Checkout button disabled while the cart is empty.
import { Link } from '@tanstack/react-router';
import { CartIcon } from '../../../../components/icons.tsx';
import { useCart } from '../../../../db/cart.ts';
import { usdc } from '../../../../lib/format.ts';

/** The store's cart at a glance: opens /store/{slug}/cart; Checkout goes to /store/{slug}/checkout. */
export function CartSummary(props: { storeId: string | undefined; slug: string }) {
  // Note: not the page's content: read once the page has shown it (db/open.ts).
  const cart = useCart(props.storeId, { deferred: true });
  const count = cart?.count ?? 0;
  return (
    <section className="cart-summary" aria-label="Cart">
      <Link to="/store/$slug/cart" params={{ slug: props.slug }} className="cart-summary-link">
        <span className="cart-summary-icon">
          <CartIcon size={22} aria-hidden="true" />
          {count > 0 && (
            <span className="cart-summary-badge" aria-hidden="true">
              {count > 99 ? '99+' : count}
            </span>
          )}
        </span>
        <span className="visually-hidden">View cart: </span>
        <span className="cart-summary-text">
          <span data-testid="cart-count">
            {count} {count === 1 ? 'item' : 'items'}
          </span>
          <span className="cart-summary-total" data-testid="cart-total">
            {usdc(cart?.subtotalUsdc ?? '0.00')}
          </span>
        </span>
      </Link>
      {count > 0 ? (
        <Link to="/store/$slug/checkout" params={{ slug: props.slug }} className="button">
          Checkout
        </Link>
      ) : (
        <button type="button" className="button" disabled>
          Checkout
        </button>
      )}
    </section>
  );
}
