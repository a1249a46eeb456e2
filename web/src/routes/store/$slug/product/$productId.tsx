// Route /store/{slug}/product/{productId}: the product page (docs/screens.md#product-page):
// breadcrumb, Back to Store, cart summary, image, trust cards, badges, rating and stock, price,
// quantity, Buy Now and Add to Cart, accepted methods, tabs; 'Loading product...' and 'Product Not
// Found'. It claims only what is true: the store's own shipping time and return policy, the one
// chain payments are credited on, and a rating only from real reviews.
import {
  DEFAULT_QUANTITY,
  PAGE_TEXTS,
  type ResolvedStoreSettings,
  resolveStoreSettings,
  returnPolicyText,
} from '@store/shared';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { BackIcon, LockIcon, ReturnsIcon, TruckIcon } from '../../../../components/icons.tsx';
import { LoadingPage, NotFoundCard, OfflineCard } from '../../../../components/message-card.tsx';
import { ProductImage } from '../../../../components/product-image.tsx';
import { useProduct } from '../../../../db/catalogue.ts';
import { useContentShown } from '../../../../db/open.ts';
import { useChainInfo } from '../../../../lib/chain-info.ts';
import { usdc } from '../../../../lib/format.ts';
import { IdParamSchema, requireParam } from '../../../../lib/route-params.ts';
import { CartSummary } from '../-components/cart-summary.tsx';
import { addProductToCart } from '../-components/product-card.tsx';
import { ProductReviews, RatingSummary } from '../-components/product-reviews.tsx';
import { ProductTabs } from '../-components/product-tabs.tsx';
import { QuantitySelector } from '../-components/quantity-selector.tsx';
import { useProductReviews } from '../-components/reviews-api.ts';
import { useCurrentStore } from '../-components/store-context.tsx';
import { StoreHeader } from '../-components/store-header.tsx';

export const Route = createFileRoute('/store/$slug/product/$productId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.productId),
  component: ProductPage,
});

/** The trust cards: what the store set (or the defaults), never more. */
function trustCards(settings: ResolvedStoreSettings, network: string) {
  return [
    { Icon: LockIcon, title: 'Secure Payment', text: `USDC on ${network}` },
    { Icon: TruckIcon, title: 'Shipping', text: settings.shippingTime },
    {
      Icon: ReturnsIcon,
      title: 'Returns',
      text:
        settings.returnPolicyDays > 0
          ? `Within ${returnPolicyText(settings.returnPolicyDays)}`
          : returnPolicyText(0),
    },
  ];
}

function ProductPage() {
  const { slug, productId } = Route.useParams();
  const store = useCurrentStore();
  const product = useProduct(productId);
  // The product is this page's content: the cart summary's database may load once it shows.
  useContentShown(product.data !== undefined);
  const [quantity, setQuantity] = useState(DEFAULT_QUANTITY);
  const navigate = useNavigate();
  const chain = useChainInfo();
  const reviews = useProductReviews(productId);
  const settings = useMemo(() => resolveStoreSettings(store.data ?? {}), [store.data]);

  if (store.loading || product.loading) return <LoadingPage text={PAGE_TEXTS.loadingProduct} />;
  const found = store.data && product.data && product.data.storeId === store.data.id;
  if (!found || !store.data || !product.data) {
    if (store.network === 'failed' || product.network === 'failed')
      return <OfflineCard what="product" />;
    return <NotFoundCard {...PAGE_TEXTS.productNotFound} />;
  }
  const item = product.data;
  const buyNow = async () => {
    await addProductToCart(item, quantity);
    await navigate({ to: '/store/$slug/checkout', params: { slug } });
  };

  return (
    <main className="page product-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link to="/">Home</Link>
          </li>
          <li>
            <Link to="/store/$slug/" params={{ slug }}>
              {store.data.name}
            </Link>
          </li>
          <li aria-current="page">{item.title}</li>
        </ol>
      </nav>
      <div className="product-page-top">
        <Link to="/store/$slug/" params={{ slug }} className="button button-quiet">
          <BackIcon size="1em" aria-hidden="true" /> Back to Store
        </Link>
        <CartSummary storeId={store.data.id} slug={slug} />
      </div>
      {/* Note: on a phone the two columns dissolve (store.css) and the title, price, quantity and
          Buy Now follow the image, so they sit within the first screen; trust cards come after. */}
      <div className="product-layout">
        <div className="product-gallery">
          <ProductImage src={item.imageUrl} alt={item.title} className="product-image card" />
          <ul className="trust-cards">
            {trustCards(settings, chain.networkName).map(({ Icon, title, text }) => (
              <li key={title} className="card">
                <Icon size={22} aria-hidden="true" />
                <strong>{title}</strong>
                <span className="muted">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="product-info">
          <StoreHeader store={store.data} compact />
          <h1>{item.title}</h1>
          <p className="rating">
            <RatingSummary reviews={reviews} />
            {item.soldOut ? (
              <span className="sold-out">Sold out</span>
            ) : (
              <span className={item.inventory > 0 ? 'in-stock' : 'muted'}>
                {item.inventory > 0 ? `${item.inventory} in stock` : 'In stock'}
              </span>
            )}
          </p>
          <div className="product-buy">
            <p className="price price-large" data-testid="product-price">
              {usdc(item.priceUsdc)}
            </p>
            {!item.soldOut && (
              <QuantitySelector
                value={quantity}
                inventory={item.inventory}
                onChange={setQuantity}
              />
            )}
            <div className="actions actions-start">
              <button
                type="button"
                className="button button-large"
                disabled={item.soldOut}
                onClick={() => void buyNow()}
              >
                {item.soldOut ? 'Sold out' : 'Buy Now'}
              </button>
              <button
                type="button"
                className="button button-quiet button-large"
                disabled={item.soldOut}
                onClick={() => void addProductToCart(item, quantity)}
              >
                Add to Cart
              </button>
            </div>
          </div>
          <section aria-labelledby="methods-title" className="accepted-methods">
            <h2 id="methods-title">Accepted payment methods</h2>
            {/* Note: only the chain this deployment credits; a payment on another is not seen. */}
            <ul className="badges">
              <li className="badge" data-testid="accepted-method">
                USDC on {chain.networkName}
              </li>
            </ul>
          </section>
          <div className="product-details">
            <ProductTabs
              description={item.description}
              settings={settings}
              reviews={<ProductReviews reviews={reviews} />}
            />
          </div>
        </div>
      </div>
    </main>
  );
}
