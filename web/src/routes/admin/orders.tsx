// Route /admin/orders: the merchant's orders, searched (email, order id or number, external order
// id) and filtered (store, status, payment exception, days) from the URL, so a link opens the same
// list cold; 50 at a time with "Load more" (cursor pages); the fulfilment steps, each paid order's
// forwarding (with a retry once it stopped) and a CSV of every order of the filter. The first page
// per filter is cached, so the list still opens offline; changes need the network.
import {
  isOrderStatus,
  ORDER_EXCEPTIONS,
  ORDER_LIST_LIMITS,
  type OrderException,
  type OrderListFilters,
  type OrderStatus,
} from '@store/shared';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useCallback, useEffect, useState } from 'react';
import * as v from 'valibot';
import { updateOrderStatus } from '../../admin/api.ts';
import { refreshStores, saveView, ViewSchemas } from '../../admin/cache.ts';
import { retryForwardingRequest } from '../../admin/forwarding.ts';
import { fetchAllOrders, fetchOrderPage } from '../../admin/fulfilment-api.ts';
import { downloadCsv, ordersToCsv } from '../../admin/orders-csv.ts';
import { isLocalId } from '../../admin/outbox/queue.ts';
import type { MerchantOrder } from '../../admin/types.ts';
import { useMerchantStores, useView } from '../../admin/use-merchant-data.ts';
import { ApiError, errorText, newIdempotencyKey } from '../../lib/api.ts';
import { knownChainInfo } from '../../lib/chain-info.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { OrderFilters } from './-components/order-filters.tsx';
import { OrderTable } from './-components/order-table.tsx';
import { useForwarding } from './-components/use-forwarding.ts';

const day = /^\d{4}-\d{2}-\d{2}$/;
const keep = <T,>(test: (value: string) => boolean) =>
  v.pipe(
    v.optional(v.string()),
    v.transform((value) => (value && test(value) ? (value as T) : undefined)),
  );

// Note: an unknown or malformed filter value is dropped rather than failing the page.
const SearchSchema = v.object({
  q: keep<string>((q) => q.trim() !== '' && q.length <= ORDER_LIST_LIMITS.search),
  storeId: keep<string>((id) => /^[\w-]{1,100}$/.test(id)),
  status: keep<OrderStatus>(isOrderStatus),
  exception: keep<OrderException>((e) => (ORDER_EXCEPTIONS as readonly string[]).includes(e)),
  from: keep<string>((d) => day.test(d)),
  to: keep<string>((d) => day.test(d)),
});

export const Route = createFileRoute('/admin/orders')({
  validateSearch: valibotValidator(SearchSchema),
  component: OrdersPage,
});

function OrdersPage() {
  const filters: OrderListFilters = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const userId = Route.useRouteContext().merchant.id;
  const stores = (useMerchantStores(userId) ?? []).filter((s) => !isLocalId(s.item.id));
  const filterKey = JSON.stringify([
    filters.q,
    filters.storeId,
    filters.status,
    filters.exception,
    filters.from,
    filters.to,
  ]);
  const viewKey = `orders:${filterKey}`;
  const cached = useView(userId, viewKey, ViewSchemas.orders);
  const [busy, setBusy] = useState<string>();
  const [unreachable, setUnreachable] = useState(false);
  const [refused, setRefused] = useState<string>();
  // Pages after the first (not cached) and the cursor of the next one.
  const [more, setMore] = useState<MerchantOrder[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [exporting, setExporting] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: filterKey stands for the filters.
  const reload = useCallback(async () => {
    const page = await fetchOrderPage(filters);
    await saveView(userId, viewKey, page.orders);
    setMore([]);
    setCursor(page.nextCursor);
  }, [userId, viewKey, filterKey]);

  useEffect(() => {
    reload().then(
      () => {
        setUnreachable(false);
        setRefused(undefined);
      },
      (error: unknown) => {
        console.warn('Orders refresh failed', error);
        if (error instanceof ApiError) setRefused(errorText(error));
        else setUnreachable(true);
      },
    );
  }, [reload]);

  // Note: the store names come from the cached stores; opened cold (a bookmark, a new tab) the
  // page reads them itself rather than wait for the dashboard to have saved them.
  useEffect(() => {
    refreshStores(userId).catch((error: unknown) => console.warn('Stores refresh failed', error));
  }, [userId]);

  const names = new Map(stores.map((s) => [s.item.id, s.item.name]));
  const storeName = (id: string | null) => (id ? names.get(id) : undefined) ?? '—';
  const first = cached?.value;
  const orders = first && [...first, ...more.filter((o) => !first.some((f) => f.id === o.id))];
  const forwarding = useForwarding(orders);

  const loadMore = async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await fetchOrderPage(filters, { cursor });
      setMore((previous) => [...previous, ...page.orders]);
      setCursor(page.nextCursor);
    } catch (error) {
      toastError('Failed to load more orders', errorText(error));
    } finally {
      setLoadingMore(false);
    }
  };

  const advance = async (order: MerchantOrder, next: OrderStatus) => {
    setBusy(order.id);
    try {
      const updated = await updateOrderStatus(order, next, newIdempotencyKey());
      setMore((previous) => previous.map((o) => (o.id === updated.id ? updated : o)));
      toast({ title: `Order marked ${next}` });
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to update order',
        offline ? 'Changing an order needs a connection.' : errorText(error),
      );
    } finally {
      setBusy(undefined);
      // Note: only the first page is re-read; pages loaded after it keep their place.
      const page = await fetchOrderPage(filters).catch(() => undefined);
      if (page) await saveView(userId, viewKey, page.orders);
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

  const exportCsv = async () => {
    setExporting(true);
    try {
      // Note: every order of the filter, not only the pages on screen, and the chain's name from
      // the API (awaited when the page has not had it yet), never the placeholder of an unknown one.
      const [all, chain] = await Promise.all([fetchAllOrders(filters), knownChainInfo()]);
      if (!chain.loaded) throw new Error('The chain could not be read from the API. Try again.');
      downloadCsv(
        `orders-${new Date().toISOString().slice(0, 10)}.csv`,
        ordersToCsv(all, storeName, chain.networkName),
      );
    } catch (error) {
      toastError('Failed to export orders', errorText(error));
    } finally {
      setExporting(false);
    }
  };

  const setFilter = (patch: Partial<OrderListFilters>, replace = false) =>
    navigate({ search: (previous) => ({ ...previous, ...patch }), replace });

  return (
    <>
      <div className="admin-heading">
        <h1>Orders</h1>
        <button
          type="button"
          className="button button-quiet"
          disabled={!orders || orders.length === 0 || exporting}
          onClick={() => void exportCsv()}
        >
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </div>
      <OrderFilters
        filters={filters}
        stores={stores.map(({ item }) => ({ id: item.id, name: item.name }))}
        onChange={(patch, replace) => void setFilter(patch, replace)}
      />
      <section className="card" aria-label="Orders">
        {refused ? (
          <p className="field-error" role="alert">
            {refused}
          </p>
        ) : orders === undefined && unreachable ? (
          <p className="muted">
            These orders have not been saved on this device yet. Connect to see them.
          </p>
        ) : orders === undefined ? (
          <p className="loading" role="status">
            Loading orders...
          </p>
        ) : (
          <>
            <OrderTable
              orders={orders}
              storeName={storeName}
              busy={busy}
              onAdvance={(o, n) => void advance(o, n)}
              forwarding={forwarding.byOrder}
              onRetryForwarding={(o) => void retryForwarding(o)}
            />
            {cursor && (
              <div className="load-more">
                <button
                  type="button"
                  className="button button-quiet"
                  disabled={loadingMore}
                  onClick={() => void loadMore()}
                >
                  {loadingMore ? 'Loading…' : 'Load more'}
                </button>
              </div>
            )}
          </>
        )}
      </section>
    </>
  );
}
