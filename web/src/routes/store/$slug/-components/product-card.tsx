// A product card of the storefront grid (docs/screens.md#storefront) and its loading skeleton.
import { SUCCESS_TOASTS } from '@store/shared';
import { Link } from '@tanstack/react-router';
import { ProductImage } from '../../../../components/product-image.tsx';
import { addToCart } from '../../../../db/cart.ts';
import type { CachedProduct } from '../../../../db/db.ts';
import { truncateDescription, usdc } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/toast.ts';

/**
 * Adds `quantity` of `product` to its store's cart and says what was really added: fewer units, or
 * none, when the line reached the product's limit (its stock, or 99 when untracked).
 */
export async function addProductToCart(product: CachedProduct, quantity = 1): Promise<void> {
  const { added, limit } = await addToCart(
    {
      productId: product.id,
      storeId: product.storeId,
      title: product.title,
      priceUsdc: product.priceUsdc,
      imageUrl: product.imageUrl ?? null,
      inventory: product.inventory,
    },
    quantity,
  );
  // Note: it speaks of this page: Buy Now's checkout, or any page next, opens without it.
  toast({ ...addedToCartToast(product.title, quantity, added, limit), page: location.pathname });
}

/** The toast of an add: 'Added to cart', saying so when the limit capped it. */
export function addedToCartToast(title: string, asked: number, added: number, limit: number) {
  if (added === 0) {
    return {
      title: 'Cart limit reached',
      description: `Your cart already has ${limit} × ${title}, the most you can order.`,
    };
  }
  if (added < asked) {
    return {
      ...SUCCESS_TOASTS.addedToCart,
      description: `Only ${added} × ${title} added: your cart now has ${limit}, the most you can order.`,
    };
  }
  return { ...SUCCESS_TOASTS.addedToCart, description: `${added} × ${title}` };
}

/** Image, title, description, price, stock, Add to Cart and a view button. */
export function ProductCard(props: { product: CachedProduct; slug: string }) {
  const { product, slug } = props;
  const params = { slug, productId: product.id };
  return (
    <article className="card product-card" aria-labelledby={`product-${product.id}`}>
      <Link
        to="/store/$slug/product/$productId"
        params={params}
        className="product-card-image"
        tabIndex={-1}
        aria-hidden="true"
      >
        <ProductImage src={product.imageUrl} alt="" loading="lazy" />
      </Link>
      <div className="product-card-body">
        <h3 id={`product-${product.id}`}>
          <Link to="/store/$slug/product/$productId" params={params}>
            {product.title}
          </Link>
        </h3>
        <p className="muted product-card-description">{truncateDescription(product.description)}</p>
        <p className="product-card-meta">
          <span className="price">{usdc(product.priceUsdc)}</span>
          {product.soldOut ? (
            <span className="sold-out">Sold out</span>
          ) : (
            product.inventory > 0 && <span className="muted">{product.inventory} left</span>
          )}
        </p>
        <div className="product-card-actions">
          <button
            type="button"
            className="button"
            aria-label={`Add to Cart: ${product.title}`}
            disabled={product.soldOut}
            onClick={() => void addProductToCart(product)}
          >
            {product.soldOut ? 'Sold out' : 'Add to Cart'}
          </button>
          <Link
            to="/store/$slug/product/$productId"
            params={params}
            className="button button-quiet"
            aria-label={`View ${product.title}`}
          >
            View
          </Link>
        </div>
      </div>
    </article>
  );
}

/** A grey placeholder card shown while products load. */
export function SkeletonCard() {
  return (
    <div className="card product-card skeleton" aria-hidden="true" data-testid="skeleton-card">
      <div className="product-card-image skeleton-block" />
      <div className="product-card-body">
        <div className="skeleton-line skeleton-line-wide" />
        <div className="skeleton-line" />
        <div className="skeleton-line skeleton-line-short" />
      </div>
    </div>
  );
}
