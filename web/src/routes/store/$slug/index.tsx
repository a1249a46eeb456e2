// Route /store/{slug}: the storefront (docs/screens.md#storefront): themed header, search, cart
// summary, product grid with 8 skeletons while loading, the two empty states and the
// outdated-cart-items notice.
import { PAGE_TEXTS, SKELETON_CARD_COUNT } from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { useDeferredValue, useState } from 'react';
import { LoadingPage, NotFoundCard, OfflineCard } from '../../../components/message-card.tsx';
import { useStoreProducts } from '../../../db/catalogue.ts';
import { useContentShown } from '../../../db/open.ts';
import { CartSummary } from './-components/cart-summary.tsx';
import { OutdatedItems } from './-components/outdated-items.tsx';
import { ProductCard, SkeletonCard } from './-components/product-card.tsx';
import { searchProducts } from './-components/search.ts';
import { useCurrentStore } from './-components/store-context.tsx';
import { StoreHeader } from './-components/store-header.tsx';

export const Route = createFileRoute('/store/$slug/')({ component: StorefrontPage });

function StorefrontPage() {
  const { slug } = Route.useParams();
  const store = useCurrentStore();
  const products = useStoreProducts(store.data?.id, slug);
  // The products are this page's content: the cart summary's database may load once they show.
  useContentShown(products.data !== undefined);
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);

  if (store.data === undefined) {
    if (store.loading) return <LoadingPage text="Loading store..." />;
    if (store.network === 'failed') return <OfflineCard what="store" />;
    return (
      <NotFoundCard
        title="Store Not Found"
        description="The store you're looking for doesn't exist."
      />
    );
  }
  const list = products.data;
  const shown = list ? searchProducts(list, deferredQuery) : [];
  return (
    <main className="page store-page">
      <StoreHeader store={store.data} productCount={list?.length} />
      <div className="store-toolbar">
        <label className="search">
          <span className="visually-hidden">Search products</span>
          <input
            type="search"
            placeholder={PAGE_TEXTS.searchPlaceholder}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </label>
        <CartSummary storeId={store.data.id} slug={slug} />
      </div>
      <OutdatedItems />
      {list === undefined ? (
        products.network === 'failed' ? (
          <OfflineCard what="store's catalogue" />
        ) : (
          <section className="product-grid" aria-busy="true" aria-label="Loading products">
            {Array.from({ length: SKELETON_CARD_COUNT }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders.
              <SkeletonCard key={index} />
            ))}
          </section>
        )
      ) : shown.length === 0 ? (
        <EmptyState searching={deferredQuery.trim() !== ''} />
      ) : (
        <section className="product-grid" aria-label="Products">
          {/* Note: the cards' titles are h3; this keeps the outline h1 > h2 > h3. */}
          <h2 className="visually-hidden">Products</h2>
          {shown.map((product) => (
            <ProductCard key={product.id} product={product} slug={slug} />
          ))}
        </section>
      )}
    </main>
  );
}

function EmptyState(props: { searching: boolean }) {
  const text = props.searching ? PAGE_TEXTS.noSearchResults : PAGE_TEXTS.noProducts;
  return (
    <section className="empty-state" aria-live="polite">
      <h2>{text.title}</h2>
      <p className="muted">{text.description}</p>
    </section>
  );
}
