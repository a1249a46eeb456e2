// Route /admin: the Admin Dashboard (docs/screens.md#admin-dashboard): stat cards, 'Your Stores'
// with its empty state, Recent Orders, and the Create New Store / Edit Store / Add New Product
// dialogs. Shows the cached data (with unsynced drafts) at once and refreshes it from the API.
import { PAGE_TEXTS, RECENT_ORDERS_LIMIT } from '@store/shared';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { RECENT_ORDERS_KEY, refreshDashboard, ViewSchemas } from '../../admin/cache.ts';
import { ProductFormDialog } from '../../admin/components/product-form-dialog.tsx';
import { StoreFormDialog } from '../../admin/components/store-form-dialog.tsx';
import type { MerchantStore } from '../../admin/types.ts';
import { useAnalyticsMap, useMerchantStores, useView } from '../../admin/use-merchant-data.ts';
import { RecentOrders } from './-components/recent-orders.tsx';
import { dashboardTotals, StatCards } from './-components/stat-cards.tsx';
import { StoreCard } from './-components/store-card.tsx';
import { VolumeCharts } from './-components/volume-charts.tsx';

export const Route = createFileRoute('/admin/')({ component: AdminDashboard });

type Dialog =
  | { kind: 'create-store' }
  | { kind: 'edit-store'; store: MerchantStore }
  | { kind: 'add-product'; store: MerchantStore };

function AdminDashboard() {
  const { merchant } = Route.useRouteContext();
  const userId = merchant.id;
  const stores = useMerchantStores(userId);
  const analytics = useAnalyticsMap(userId, stores?.map((s) => s.item.id) ?? []);
  const recent = useView(userId, RECENT_ORDERS_KEY, ViewSchemas.orders);
  const [network, setNetwork] = useState<'pending' | 'done'>('pending');
  const [dialog, setDialog] = useState<Dialog | null>(null);

  useEffect(() => {
    // Offline: the cached copy stays on screen; the outbox sync refreshes it later.
    refreshDashboard(userId, RECENT_ORDERS_LIMIT)
      .catch((error: unknown) => console.warn('Dashboard refresh failed', error))
      .finally(() => setNetwork('done'));
  }, [userId]);

  if (stores === undefined || (stores.length === 0 && network === 'pending')) {
    return (
      <p className="loading" role="status">
        <span className="spinner" aria-hidden="true" />
        {PAGE_TEXTS.loadingAdmin}
      </p>
    );
  }
  const close = () => setDialog(null);
  const createStore = () => setDialog({ kind: 'create-store' });

  return (
    <>
      <div className="admin-heading">
        <div>
          <h1>Admin Dashboard</h1>
          <Link to="/" className="small">
            ← Home
          </Link>
        </div>
        <button type="button" className="button" onClick={createStore}>
          Create Store
        </button>
      </div>
      <StatCards
        totals={dashboardTotals(
          stores.map((s) => s.item),
          analytics,
        )}
      />
      {stores.length > 0 && (
        <VolumeCharts source={{ all: true }} title="All stores, last 30 days" />
      )}
      <section aria-labelledby="stores-title">
        <h2 id="stores-title">Your Stores</h2>
        {stores.length === 0 ? (
          <div className="card empty-state">
            <h3>{PAGE_TEXTS.noStores}</h3>
            <button type="button" className="button" onClick={createStore}>
              Create Your First Store
            </button>
          </div>
        ) : (
          <div className="store-grid">
            {stores.map((tracked) => (
              <StoreCard
                key={tracked.item.id}
                tracked={tracked}
                analytics={analytics.get(tracked.item.id)}
                onAddProduct={() => setDialog({ kind: 'add-product', store: tracked.item })}
                onEdit={() => setDialog({ kind: 'edit-store', store: tracked.item })}
              />
            ))}
          </div>
        )}
      </section>
      <RecentOrders orders={recent?.value} />
      <StoreFormDialog
        open={dialog?.kind === 'create-store' || dialog?.kind === 'edit-store'}
        userId={userId}
        store={dialog?.kind === 'edit-store' ? dialog.store : undefined}
        onDone={close}
      />
      {dialog?.kind === 'add-product' && (
        <ProductFormDialog
          open
          userId={userId}
          storeId={dialog.store.id}
          storeName={dialog.store.name}
          onDone={close}
        />
      )}
    </>
  );
}
