// Route /admin/customers/{email}?storeId=…: one customer of a store: their name, orders placed and
// paid, what they paid, first and last order (GET /api/stores/{id}/customers searched by the
// email), and every order they placed there (the store's orders searched by the email), each
// linked to its page; "Erase customer data" (confirmed first) erases the person from those orders.
// Read from the network.
import { formatOrderNumber } from '@store/shared';
import type { Customer } from '@store/shared/customers';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { StatusBadge } from '../../admin/components/badges.tsx';
import { Modal } from '../../admin/components/modal.tsx';
import {
  eraseCustomer,
  fetchCustomerOrders,
  fetchCustomerPage,
} from '../../admin/customers-api.ts';
import type { MerchantOrder } from '../../admin/types.ts';
import { ApiError, errorText } from '../../lib/api.ts';
import { usdc } from '../../lib/format.ts';
import { toast, toastError } from '../../lib/toast.ts';
import '../../admin/table-cards.css';

const SearchSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string()),
    v.transform((id) => (id && /^[\w-]{1,100}$/.test(id) ? id : undefined)),
  ),
});

export const Route = createFileRoute('/admin/customers_/$email')({
  validateSearch: valibotValidator(SearchSchema),
  component: CustomerPage,
});

type Load =
  | { state: 'loading' }
  | { state: 'loaded'; customer: Customer | undefined; orders: MerchantOrder[] }
  | { state: 'refused'; text: string }
  | { state: 'offline' };

function CustomerPage() {
  const { email } = Route.useParams();
  const { storeId } = Route.useSearch();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [confirming, setConfirming] = useState(false);
  const [erasing, setErasing] = useState(false);
  const navigate = useNavigate();

  useEffect(() => {
    if (!storeId) return;
    let live = true;
    const wanted = email.toLowerCase();
    Promise.all([
      fetchCustomerPage(storeId, { q: email }),
      fetchCustomerOrders(storeId, email),
    ]).then(
      ([page, orders]) =>
        live &&
        setLoad({
          state: 'loaded',
          customer: page.customers.find((c) => c.email === wanted),
          orders,
        }),
      (error: unknown) => {
        if (!live) return;
        setLoad(
          error instanceof ApiError
            ? { state: 'refused', text: errorText(error) }
            : { state: 'offline' },
        );
      },
    );
    return () => {
      live = false;
    };
  }, [storeId, email]);

  const back = (
    <Link to="/admin/customers" search={{ storeId }}>
      ← All customers
    </Link>
  );
  if (!storeId)
    return (
      <>
        <p>{back}</p>
        <p className="field-error" role="alert">
          This link names no store.
        </p>
      </>
    );
  if (load.state === 'loading') return <p className="muted">Loading the customer…</p>;
  if (load.state === 'offline')
    return (
      <p className="muted" role="status">
        This page needs a connection. Connect to the internet and try again.
      </p>
    );
  if (load.state === 'refused')
    return (
      <>
        <p>{back}</p>
        <p className="field-error" role="alert">
          {load.text}
        </p>
      </>
    );
  const { customer, orders } = load;
  const erase = async (store: string) => {
    setErasing(true);
    try {
      const done = await eraseCustomer(store, email);
      toast({
        title: 'Customer data erased',
        description: `${done.erasedOrders} order(s) kept their amounts and lost the person.`,
      });
      await navigate({ to: '/admin/customers', search: { storeId: store } });
    } catch (error) {
      toastError('Failed to erase the customer', errorText(error));
    } finally {
      setErasing(false);
      setConfirming(false);
    }
  };
  if (!customer)
    return (
      <>
        <p>{back}</p>
        <h1>Customer not found</h1>
        <p className="muted">No order of this store was placed with {email}.</p>
      </>
    );
  const facts = [
    ['Orders', String(customer.orders)],
    ['Paid orders', String(customer.paidOrders)],
    ['Total paid', usdc(customer.totalPaidUsdc)],
    ['First order', new Date(customer.firstOrderAt).toLocaleDateString()],
    ['Last order', new Date(customer.lastOrderAt).toLocaleDateString()],
  ] as const;
  return (
    <>
      <p>{back}</p>
      <div className="admin-heading">
        <div>
          <h1>{customer.name || customer.email}</h1>
          <p className="muted" style={{ margin: 0 }}>
            <a href={`mailto:${customer.email}`}>{customer.email}</a>
          </p>
        </div>
        <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          Erase customer data
        </button>
      </div>
      <Modal
        title="Erase this customer's data?"
        open={confirming}
        onClose={() => setConfirming(false)}
      >
        <p>
          Their {customer.orders} order(s) in this store keep their lines, amounts and payment, and
          lose the person: name, email, phone and address. No more mail goes to {customer.email}{' '}
          about them, and they leave your customers list. This cannot be undone.
        </p>
        <div className="actions modal-actions">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={erasing}
            onClick={() => void erase(storeId)}
          >
            {erasing ? 'Erasing...' : 'Erase customer data'}
          </button>
        </div>
      </Modal>
      <section className="stat-grid customer-facts" aria-label="Customer summary">
        {facts.map(([label, value]) => (
          <article key={label} className="card stat-card" aria-label={label}>
            <h2 className="muted small">{label}</h2>
            <p className="stat-value" data-testid={`customer-${label}`}>
              {value}
            </p>
          </article>
        ))}
      </section>
      <section className="card" aria-labelledby="customer-orders">
        <h2 id="customer-orders">Orders</h2>
        <div className="table-wrap table-cards">
          <table>
            <thead>
              <tr>
                <th scope="col">Order ID</th>
                <th scope="col">Date</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <th scope="row">
                    <Link to="/admin/orders/$orderId" params={{ orderId: order.id }}>
                      {formatOrderNumber(order.id)}
                    </Link>
                  </th>
                  <td data-label="Date">{new Date(order.createdAt).toLocaleDateString()}</td>
                  <td data-label="Amount">{usdc(order.totalUsdc)}</td>
                  <td data-label="Status">
                    <StatusBadge status={order.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
