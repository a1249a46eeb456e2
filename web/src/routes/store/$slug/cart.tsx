// Route /store/{slug}/cart: the store's cart (docs/rules.md#cart-rules), reached from the cart
// summary of every store page: each line with its image, title, unit price, quantity within the
// product's limit, Remove and line total; the subtotal and Checkout. Read from and written to
// IndexedDB, so it works offline; a page rather than a drawer so a phone's back button leaves it.
import { PAGE_TEXTS } from '@store/shared';
import { createFileRoute, Link } from '@tanstack/react-router';
import { BackIcon } from '../../../components/icons.tsx';
import { LoadingPage, NotFoundCard, OfflineCard } from '../../../components/message-card.tsx';
import { useCart } from '../../../db/cart.ts';
import { useStoreProducts } from '../../../db/catalogue.ts';
import { usdc } from '../../../lib/format.ts';
import { CartLine } from './-components/cart-line.tsx';
import { useCurrentStore } from './-components/store-context.tsx';

export const Route = createFileRoute('/store/$slug/cart')({ component: CartPage });

function CartPage() {
  const { slug } = Route.useParams();
  const store = useCurrentStore();
  const cart = useCart(store.data?.id);
  // Note: the catalogue (cached first) gives each line the product's current stock limit.
  const products = useStoreProducts(store.data?.id);

  if (store.data === undefined) {
    if (store.loading) return <LoadingPage text="Loading cart..." />;
    if (store.network === 'failed') return <OfflineCard what="store" />;
    return (
      <NotFoundCard
        title="Store Not Found"
        description="The store you're looking for doesn't exist."
      />
    );
  }
  if (cart === undefined) return <LoadingPage text="Loading cart..." />;
  const stock = new Map(products.data?.map((product) => [product.id, product.inventory]));
  const soldOut = new Set(products.data?.filter((p) => p.soldOut).map((p) => p.id));
  const empty = cart.items.length === 0;

  return (
    <main className="page cart-page">
      <Link to="/store/$slug/" params={{ slug }} className="back-link">
        <BackIcon size="1em" aria-hidden="true" /> Back to {store.data.name}
      </Link>
      <h1>Your cart</h1>
      {empty ? (
        <section className="card empty-state" aria-live="polite">
          <h2>{PAGE_TEXTS.emptyCart.title}</h2>
          <p className="muted">{PAGE_TEXTS.emptyCart.description}</p>
          <Link to="/store/$slug/" params={{ slug }} className="button">
            Continue shopping
          </Link>
        </section>
      ) : (
        <div className="cart-layout">
          <ul className="cart-lines" aria-label="Cart items">
            {cart.items.map((line) => (
              <CartLine
                key={line.key}
                line={line}
                slug={slug}
                {...(stock.has(line.productId) ? { inventory: stock.get(line.productId) } : {})}
                soldOut={soldOut.has(line.productId)}
              />
            ))}
          </ul>
          <aside className="card cart-totals" aria-labelledby="cart-totals-title">
            <h2 id="cart-totals-title" className="visually-hidden">
              Cart total
            </h2>
            <dl className="summary-totals">
              <div className="summary-total">
                <dt>
                  Subtotal{' '}
                  <span className="muted cart-totals-count" data-testid="cart-page-count">
                    ({cart.count} {cart.count === 1 ? 'item' : 'items'})
                  </span>
                </dt>
                <dd data-testid="cart-subtotal">{usdc(cart.subtotalUsdc ?? '—')}</dd>
              </div>
            </dl>
            <p className="muted small">Shipping and estimated tax are added at checkout.</p>
            <Link
              to="/store/$slug/checkout"
              params={{ slug }}
              className="button button-large button-block"
            >
              Checkout
            </Link>
            <Link
              to="/store/$slug/"
              params={{ slug }}
              className="button button-quiet button-block cart-totals-continue"
            >
              Continue shopping
            </Link>
          </aside>
        </div>
      )}
    </main>
  );
}
