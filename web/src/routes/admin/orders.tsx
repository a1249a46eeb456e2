// Route /admin/orders: the merchant's orders filtered by store and status (validated search
// params), the fulfilment steps, each paid order's forwarding (with a retry once it stopped) and
// a CSV export of what is shown. The last answer per filter is cached, so the list still opens
// offline; changing a status or retrying forwarding needs the network.
import { isOrderStatus, ORDER_STATUSES, type OrderStatus } from '@store/shared';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useCallback, useEffect, useState } from 'react';
import * as v from 'valibot';
import { fetchOrders, updateOrderStatus } from '../../admin/api.ts';
import { refreshStores, saveView, ViewSchemas } from '../../admin/cache.ts';
import { retryForwardingRequest } from '../../admin/forwarding.ts';
import { downloadCsv, ordersToCsv } from '../../admin/orders-csv.ts';
import { isLocalId } from '../../admin/outbox/queue.ts';
import type { MerchantOrder } from '../../admin/types.ts';
import { useMerchantStores, useView } from '../../admin/use-merchant-data.ts';
import { ApiError, errorText, newIdempotencyKey } from '../../lib/api.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { OrderTable } from './-components/order-table.tsx';
import { useForwarding } from './-components/use-forwarding.ts';

// Note: an unknown filter value is dropped rather than failing the page.
const SearchSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string()),
    v.transform((id) => (id && /^[\w-]{1,100}$/.test(id) ? id : undefined)),
  ),
  status: v.pipe(
    v.optional(v.string()),
    v.transform((value) => (value && isOrderStatus(value) ? value : undefined)),
  ),
});

export const Route = createFileRoute('/admin/orders')({
  validateSearch: valibotValidator(SearchSchema),
  component: OrdersPage,
});

function OrdersPage() {
  const { storeId, status } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const userId = Route.useRouteContext().merchant.id;
  const stores = (useMerchantStores(userId) ?? []).filter((s) => !isLocalId(s.item.id));
  const viewKey = `orders:${storeId ?? '*'}:${status ?? '*'}`;
  const cached = useView(userId, viewKey, ViewSchemas.orders);
  const [busy, setBusy] = useState<string>();
  const [unreachable, setUnreachable] = useState(false);

  const reload = useCallback(async () => {
    const orders = await fetchOrders({ storeId, status, limit: 500 });
    await saveView(userId, viewKey, orders);
  }, [userId, viewKey, storeId, status]);

  useEffect(() => {
    reload().then(
      () => setUnreachable(false),
      (error: unknown) => {
        console.warn('Orders refresh failed', error);
        setUnreachable(true);
      },
    );
  }, [reload]);

  // Note: the store names come from the cached stores; opened cold (a bookmark, a new tab) the
  // page reads them itself rather than wait for the dashboard to have saved them.
  useEffect(() => {
    refreshStores(userId).catch((error: unknown) => console.warn('Stores refresh failed', error));
  }, [userId]);

  const names = new Map(stores.map((s) => [s.item.id, s.item.name]));
  const storeName = (id: string) => names.get(id) ?? '—';
  const orders = cached?.value;
  const forwarding = useForwarding(orders);

  const advance = async (order: MerchantOrder, next: OrderStatus) => {
    setBusy(order.id);
    try {
      await updateOrderStatus(order, next, newIdempotencyKey());
      toast({ title: `Order marked ${next}` });
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to update order',
        offline ? 'Changing an order needs a connection.' : errorText(error),
      );
    } finally {
      setBusy(undefined);
      await reload().catch(() => undefined);
    }
  };

  const retryForwarding = async (order: MerchantOrder) => {
    setBusy(order.id);
    try {
      await retryForwardingRequest(order.id, newIdempotencyKey());
      toast({ title: 'Forwarding retried', description: 'The payment is being forwarded again.' });
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to retry forwarding',
        offline ? 'Retrying needs a connection.' : errorText(error),
      );
    } finally {
      setBusy(undefined);
      await forwarding.reload([order.id]).catch(() => undefined);
    }
  };

  const setFilter = (patch: { storeId?: string | undefined; status?: OrderStatus | undefined }) =>
    navigate({ search: (previous) => ({ ...previous, ...patch }) });

  return (
    <>
      <div className="admin-heading">
        <h1>Orders</h1>
        <button
          type="button"
          className="button button-quiet"
          disabled={!orders || orders.length === 0}
          onClick={() =>
            downloadCsv(
              `orders-${new Date().toISOString().slice(0, 10)}.csv`,
              ordersToCsv(orders ?? [], storeName),
            )
          }
        >
          Export CSV
        </button>
      </div>
      <div className="admin-filters">
        <div className="field">
          <label htmlFor="orders-store">Store</label>
          <select
            id="orders-store"
            value={storeId ?? ''}
            onChange={(event) => void setFilter({ storeId: event.target.value || undefined })}
          >
            <option value="">All stores</option>
            {stores.map(({ item }) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-status">Status</label>
          <select
            id="orders-status"
            value={status ?? ''}
            onChange={(event) =>
              void setFilter({
                status: (event.target.value || undefined) as OrderStatus | undefined,
              })
            }
          >
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      <section className="card" aria-label="Orders">
        {orders === undefined && unreachable ? (
          <p className="muted">
            These orders have not been saved on this device yet. Connect to see them.
          </p>
        ) : orders === undefined ? (
          <p className="loading" role="status">
            Loading orders...
          </p>
        ) : (
          <OrderTable
            orders={orders}
            storeName={storeName}
            busy={busy}
            onAdvance={(o, n) => void advance(o, n)}
            forwarding={forwarding.byOrder}
            onRetryForwarding={(o) => void retryForwarding(o)}
          />
        )}
      </section>
    </>
  );
}
