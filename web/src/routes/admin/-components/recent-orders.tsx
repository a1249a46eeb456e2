// The dashboard's 'Recent Orders' table (docs/screens.md#admin-dashboard): the first 5 orders with
// Order ID (# and the last 8 characters, a link to the order's page), Customer, Amount, Status and
// Chain, or the empty text. On a phone each order is a card.
import { formatOrderNumber, PAGE_TEXTS, RECENT_ORDERS_LIMIT } from '@store/shared';
import { Link } from '@tanstack/react-router';
import { StatusBadge } from '../../../admin/components/badges.tsx';
import type { MerchantOrder } from '../../../admin/types.ts';
import { useChainInfo } from '../../../lib/chain-info.ts';
import { usdc } from '../../../lib/format.ts';
import '../../../admin/table-cards.css';

/** The table, or its empty text when there are no orders. */
export function RecentOrders(props: { orders: readonly MerchantOrder[] | undefined }) {
  const orders = (props.orders ?? []).slice(0, RECENT_ORDERS_LIMIT);
  const chain = useChainInfo();
  return (
    <section className="card" aria-labelledby="recent-orders-title">
      <div className="admin-heading" style={{ marginBottom: '0.5rem' }}>
        <h2 id="recent-orders-title">Recent Orders</h2>
        <Link to="/admin/orders" className="small">
          All orders
        </Link>
      </div>
      {orders.length === 0 ? (
        <p className="muted">{PAGE_TEXTS.noOrders}</p>
      ) : (
        <div className="table-wrap table-cards">
          <table>
            <thead>
              <tr>
                <th scope="col">Order ID</th>
                <th scope="col">Customer</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Chain</th>
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
                  <td data-label="Customer">{order.customerEmail}</td>
                  <td data-label="Amount">{usdc(order.totalUsdc)}</td>
                  <td data-label="Status">
                    <StatusBadge status={order.status} />
                  </td>
                  <td data-label="Chain">{order.paymentChain ? chain.networkName : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
