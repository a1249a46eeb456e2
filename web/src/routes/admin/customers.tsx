// Route /admin/customers: the people who ordered from a store (GET /api/stores/{id}/customers): one
// per email address with their latest name, orders placed and paid, what they paid, first and last
// order; searched by email or name from the URL (so a link opens the same list), 50 at a time with
// "Load more". Each customer opens their page with their orders. Read from the network.
import { CUSTOMER_LIST_LIMITS, type Customer } from '@store/shared/customers';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { fetchCustomerPage } from '../../admin/customers-api.ts';
import { useStoreLoad } from '../../admin/use-store-load.ts';
import { errorText } from '../../lib/api.ts';
import { usdc } from '../../lib/format.ts';
import { toastError } from '../../lib/toast.ts';
import '../../admin/table-cards.css';

const SEARCH_DELAY_MS = 300;

// Note: a malformed value is dropped rather than failing the page.
const SearchSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string()),
    v.transform((id) => (id && /^[\w-]{1,100}$/.test(id) ? id : undefined)),
  ),
  q: v.pipe(
    v.optional(v.string()),
    v.transform((q) =>
      q && q.trim() !== '' && q.length <= CUSTOMER_LIST_LIMITS.search ? q : undefined,
    ),
  ),
});

export const Route = createFileRoute('/admin/customers')({
  validateSearch: valibotValidator(SearchSchema),
  component: CustomersPage,
});

function CustomersPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const userId = Route.useRouteContext().merchant.id;
  const { stores, storeId, load, setLoad } = useStoreLoad({
    userId,
    storeId: search.storeId,
    permission: 'read',
    fetch: async (id) => {
      const page = await fetchCustomerPage(id, { q: search.q });
      return { customers: page.customers, cursor: page.nextCursor };
    },
    key: search.q ?? '',
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const [text, setText] = useState(search.q ?? '');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // Note: the URL wins when it changes from elsewhere (back button, a link).
  useEffect(() => setText(search.q ?? ''), [search.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const setSearch = (patch: Partial<typeof search>) =>
    navigate({ search: (previous) => ({ ...previous, ...patch }), replace: true });

  const typed = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void setSearch({ q: value.trim() || undefined }),
      SEARCH_DELAY_MS,
    );
  };

  const loadMore = async () => {
    if (load.state !== 'loaded' || !load.value.cursor || !storeId) return;
    setLoadingMore(true);
    try {
      const page = await fetchCustomerPage(storeId, { q: search.q, cursor: load.value.cursor });
      setLoad({
        state: 'loaded',
        value: {
          customers: [...load.value.customers, ...page.customers],
          cursor: page.nextCursor,
        },
      });
    } catch (error) {
      toastError('Failed to load more customers', errorText(error));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <>
      <div className="admin-heading">
        <h1>Customers</h1>
      </div>
      <form
        className="admin-filters"
        aria-label="Customer filters"
        onSubmit={(event) => {
          event.preventDefault();
          clearTimeout(timer.current);
          void setSearch({ q: text.trim() || undefined });
        }}
      >
        <div className="field order-search">
          <label htmlFor="customers-search">Search</label>
          <input
            id="customers-search"
            type="search"
            value={text}
            maxLength={CUSTOMER_LIST_LIMITS.search}
            placeholder="Email or name"
            onChange={(event) => typed(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="customers-store">Store</label>
          <select
            id="customers-store"
            value={storeId ?? ''}
            onChange={(event) => void setSearch({ storeId: event.target.value || undefined })}
          >
            {stores.length === 0 && <option value="">No store yet</option>}
            {stores.map(({ item }) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <section className="card" aria-label="Customers">
        {!storeId ? (
          <p className="muted">Create a store first: the people who order will appear here.</p>
        ) : load.state === 'loading' ? (
          <p className="muted">Loading customers…</p>
        ) : load.state === 'offline' ? (
          <p className="muted" role="status">
            Customers need a connection. Connect to the internet and try again.
          </p>
        ) : load.state === 'refused' ? (
          <p className="field-error" role="alert">
            {load.text}
          </p>
        ) : (
          <>
            <CustomerTable
              storeId={storeId}
              customers={load.value.customers}
              searched={!!search.q}
            />
            {load.value.cursor && (
              <div className="actions">
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

function CustomerTable(props: { storeId: string; customers: Customer[]; searched: boolean }) {
  if (props.customers.length === 0)
    return (
      <p className="muted">
        {props.searched ? 'No customer matches this search.' : 'No orders yet, so no customers.'}
      </p>
    );
  return (
    <div className="table-wrap table-cards">
      <table>
        <thead>
          <tr>
            <th scope="col">Customer</th>
            <th scope="col">Orders</th>
            <th scope="col">Paid orders</th>
            <th scope="col">Total paid</th>
            <th scope="col">First order</th>
            <th scope="col">Last order</th>
          </tr>
        </thead>
        <tbody>
          {props.customers.map((customer) => (
            <tr key={customer.email}>
              <th scope="row">
                <Link
                  to="/admin/customers/$email"
                  params={{ email: customer.email }}
                  search={{ storeId: props.storeId }}
                >
                  {customer.name || customer.email}
                </Link>
                {customer.name && <div className="muted small">{customer.email}</div>}
              </th>
              <td data-label="Orders">{customer.orders}</td>
              <td data-label="Paid orders">{customer.paidOrders}</td>
              <td data-label="Total paid">{usdc(customer.totalPaidUsdc)}</td>
              <td data-label="First order">
                <time dateTime={customer.firstOrderAt}>
                  {new Date(customer.firstOrderAt).toLocaleDateString()}
                </time>
              </td>
              <td data-label="Last order">
                <time dateTime={customer.lastOrderAt}>
                  {new Date(customer.lastOrderAt).toLocaleDateString()}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
