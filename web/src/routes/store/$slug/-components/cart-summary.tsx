// Cart summary (SPEC §2): item count, USDC total and a Checkout button disabled while empty.
import { Link } from '@tanstack/react-router';
import { useCart } from '../../../../db/cart.ts';
import { usdc } from '../../../../lib/format.ts';

/** The store's cart at a glance, linking to /store/{slug}/checkout. */
export function CartSummary(props: { storeId: string | undefined; slug: string }) {
  const cart = useCart(props.storeId);
  const count = cart?.count ?? 0;
  return (
    <section className="cart-summary" aria-label="Cart">
      <span className="cart-summary-icon" aria-hidden="true">
        🛒
      </span>
      <p>
        <span data-testid="cart-count">
          {count} {count === 1 ? 'item' : 'items'}
        </span>
        <span className="cart-summary-total" data-testid="cart-total">
          {usdc(cart?.subtotalUsdc ?? '0.00')}
        </span>
      </p>
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
