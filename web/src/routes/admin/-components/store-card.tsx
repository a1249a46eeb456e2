// One store on the dashboard (docs/screens.md#admin-dashboard): logo, name, slug, the 30-day
// figures (0 and 0.00 USDC when the analytics are missing), Add Product, View Store and Edit, plus
// its sync state.
import type { StoreAnalytics } from '@store/shared';
import { Link } from '@tanstack/react-router';
import { StoreCardLogo, SyncBadge } from '../../../admin/components/badges.tsx';
import { may } from '../../../admin/permissions.ts';
import type { MerchantStore } from '../../../admin/types.ts';
import { usdcText } from '../../../admin/usdc-text.ts';
import type { Tracked } from '../../../admin/use-merchant-data.ts';

/** The card's three figures, with their fallbacks. */
export function storeFigures(analytics: StoreAnalytics | undefined) {
  return {
    products: String(analytics?.activeProducts ?? 0),
    revenue: usdcText(analytics?.totalRevenue30Days ?? '0'),
    orders: String(analytics?.totalOrders30Days ?? 0),
  };
}

/** A store card; the buttons (those the merchant's role allows) open the dashboard's dialogs. */
export function StoreCard(props: {
  tracked: Tracked<MerchantStore>;
  analytics: StoreAnalytics | undefined;
  onAddProduct: () => void;
  onEdit: () => void;
}) {
  const { item: store, sync, local } = props.tracked;
  const figures = storeFigures(props.analytics);
  return (
    <article className="card store-card" aria-label={store.name}>
      <div className="store-card-head">
        <StoreCardLogo name={store.name} logoUrl={store.logoUrl} />
        <div>
          <h3>{store.name}</h3>
          <p className="muted small" style={{ margin: 0 }}>
            /{store.slug}
          </p>
        </div>
        <SyncBadge sync={sync} />
      </div>
      <dl className="store-figures">
        <div>
          <dt>Products</dt>
          <dd>{figures.products}</dd>
        </div>
        <div>
          <dt>30d Revenue</dt>
          <dd>{figures.revenue}</dd>
        </div>
        <div>
          <dt>30d Orders</dt>
          <dd>{figures.orders}</dd>
        </div>
      </dl>
      <div className="actions actions-start">
        {may(store, 'operate') && (
          <button type="button" className="button button-small" onClick={props.onAddProduct}>
            Add Product
          </button>
        )}
        {local ? (
          <span className="muted small">Not online yet</span>
        ) : (
          <Link
            to="/store/$slug"
            params={{ slug: store.slug }}
            className="button button-quiet button-small"
          >
            View Store
          </Link>
        )}
        {may(store, 'manage') && (
          <button type="button" className="button button-quiet button-small" onClick={props.onEdit}>
            Edit
          </button>
        )}
        <Link
          to="/admin/stores/$storeId"
          params={{ storeId: store.id }}
          className="button button-quiet button-small"
        >
          Products
        </Link>
      </div>
    </article>
  );
}
