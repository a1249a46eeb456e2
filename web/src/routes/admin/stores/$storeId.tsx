// Route /admin/stores/{storeId}: one store's products with Add, Edit and Delete, its settings (tax,
// shipping, returns), its reviews, the payout-address verification, and its webhooks.
// Reads the cached products with unsynced drafts over them, so it works offline; deleting and
// the Webhooks tab need the network.
import { createFileRoute, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { deleteProductRequest } from '../../../admin/api.ts';
import { refreshAnalytics, refreshProducts, refreshStores } from '../../../admin/cache.ts';
import { SyncBadge } from '../../../admin/components/badges.tsx';
import { Modal } from '../../../admin/components/modal.tsx';
import { ProductFormDialog } from '../../../admin/components/product-form-dialog.tsx';
import { may, roleIn } from '../../../admin/permissions.ts';
import type { MerchantProduct } from '../../../admin/types.ts';
import { useMerchantProducts, useMerchantStores } from '../../../admin/use-merchant-data.ts';
import { Tabs } from '../../../components/tabs.tsx';
import { db } from '../../../db/db.ts';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { IdParamSchema, requireParam } from '../../../lib/route-params.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import { AccountingExport } from '../-components/accounting-export.tsx';
import { ApiKeysPanel } from '../-components/api-keys-panel.tsx';
import { InvoiceSettingsPanel } from '../-components/invoice-settings-panel.tsx';
import { PayoutVerification } from '../-components/payout-verification.tsx';
import { ProductTable } from '../-components/product-table.tsx';
import { ReviewsPanel } from '../-components/reviews-panel.tsx';
import { ShippingZonesPanel } from '../-components/shipping-zones-panel.tsx';
import { StoreSettingsPanel } from '../-components/store-settings-panel.tsx';
import { VolumeCharts } from '../-components/volume-charts.tsx';
import { WebhooksPanel } from '../-components/webhooks-panel.tsx';
import { X402PayersPanel } from '../-components/x402-payers-panel.tsx';

export const Route = createFileRoute('/admin/stores/$storeId')({
  loader: ({ params }) => requireParam(IdParamSchema, params.storeId),
  component: StoreProductsPage,
});

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; product: MerchantProduct }
  | { kind: 'delete'; product: MerchantProduct };

function StoreProductsPage() {
  const { storeId } = Route.useParams();
  const userId = Route.useRouteContext().merchant.id;
  const stores = useMerchantStores(userId);
  const products = useMerchantProducts(userId, storeId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [network, setNetwork] = useState<'pending' | 'done'>('pending');

  useEffect(() => {
    // Offline: the cached copy stays on screen. Note: products only of an own store, since the
    // list is public and another merchant's must not land in this merchant's cache.
    refreshStores(userId)
      .then((own) => {
        if (own.some((store) => store.id === storeId)) return refreshProducts(userId, storeId);
      })
      .catch((error: unknown) => console.warn('Store refresh failed', error))
      .finally(() => setNetwork('done'));
  }, [userId, storeId]);

  const tracked = stores?.find((entry) => entry.item.id === storeId);
  if (stores === undefined || products === undefined || (!tracked && network === 'pending')) {
    return (
      <p className="loading" role="status">
        Loading products...
      </p>
    );
  }
  if (!tracked) {
    return (
      <section className="card">
        <h1>Store not found</h1>
        <Link to="/admin">Back to the dashboard</Link>
      </section>
    );
  }
  const store = tracked.item;
  const close = () => setDialog(null);

  const confirmDelete = async (product: MerchantProduct) => {
    try {
      await deleteProductRequest(product.id, newIdempotencyKey());
      await db.adminProducts.delete(product.id);
      toast({ title: 'Product deleted', description: product.title });
      close();
      await refreshAnalytics(userId, storeId).catch(() => undefined);
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to delete product',
        offline ? 'Deleting needs a connection.' : errorText(error),
      );
    }
  };

  return (
    <>
      <div className="admin-heading">
        <div>
          <Link to="/admin" className="small">
            ← Admin Dashboard
          </Link>
          <h1>
            {store.name} <SyncBadge sync={tracked.sync} />
          </h1>
          <p className="muted small">/{store.slug}</p>
        </div>
        <div className="actions">
          {!tracked.local && (
            <Link to="/store/$slug" params={{ slug: store.slug }} className="button button-quiet">
              View Store
            </Link>
          )}
          {may(store, 'operate') && (
            <button type="button" className="button" onClick={() => setDialog({ kind: 'add' })}>
              Add Product
            </button>
          )}
        </div>
      </div>
      {!tracked.local && <VolumeCharts source={{ storeId }} />}
      <Tabs
        label="Store sections"
        tabs={[
          {
            id: 'products',
            label: 'Products',
            content: (
              <section className="card" aria-label="Products">
                <ProductTable
                  products={products}
                  canEdit={may(store, 'operate')}
                  onEdit={(product) => setDialog({ kind: 'edit', product })}
                  onDelete={(product) => setDialog({ kind: 'delete', product })}
                />
              </section>
            ),
          },
          // Note: a store made offline has no webhooks until the server has it.
          // Note: the settings and webhooks only for a role that may change them (shared/src/team.ts).
          ...(tracked.local
            ? []
            : [
                ...(may(store, 'manage')
                  ? [
                      {
                        id: 'settings',
                        label: 'Settings',
                        content: (
                          <>
                            {may(store, 'payout') && (
                              <PayoutVerification userId={userId} store={store} />
                            )}
                            <StoreSettingsPanel key={store.id} userId={userId} store={store} />
                            <ShippingZonesPanel
                              key={`zones-${store.id}`}
                              userId={userId}
                              store={store}
                            />
                            <InvoiceSettingsPanel
                              key={`invoice-${store.id}`}
                              userId={userId}
                              store={store}
                            />
                          </>
                        ),
                      },
                    ]
                  : []),
                {
                  id: 'reviews',
                  label: 'Reviews',
                  content: <ReviewsPanel storeId={storeId} canModerate={may(store, 'operate')} />,
                },
                { id: 'agents', label: 'Agents', content: <X402PayersPanel storeId={storeId} /> },
                ...(may(store, 'manage')
                  ? [
                      {
                        id: 'webhooks',
                        label: 'Webhooks',
                        content: <WebhooksPanel storeId={storeId} />,
                      },
                    ]
                  : []),
                {
                  id: 'api-keys',
                  label: 'API keys',
                  content: (
                    <ApiKeysPanel
                      storeId={storeId}
                      role={roleIn(store)}
                      storeNames={Object.fromEntries(
                        stores.map(({ item }) => [item.id, item.name]),
                      )}
                    />
                  ),
                },
                {
                  id: 'accounting',
                  label: 'Accounting',
                  content: <AccountingExport storeId={storeId} storeSlug={store.slug} />,
                },
              ]),
        ]}
      />
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <ProductFormDialog
          open
          userId={userId}
          storeId={storeId}
          storeName={store.name}
          product={dialog.kind === 'edit' ? dialog.product : undefined}
          onDone={close}
        />
      )}
      <Modal title="Delete product?" open={dialog?.kind === 'delete'} onClose={close}>
        {dialog?.kind === 'delete' && (
          <>
            <p>
              “{dialog.product.title}” leaves your store. Past orders keep their own copy of it.
            </p>
            <div className="actions modal-actions">
              <button type="button" className="button button-quiet" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => void confirmDelete(dialog.product)}
              >
                Delete
              </button>
            </div>
          </>
        )}
      </Modal>
    </>
  );
}
