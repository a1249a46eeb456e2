// The orders page's table: every order of the filter with its fulfilment action (paid ->
// processing -> shipped -> completed; pending orders wait for payment; shipping opens the order's
// page for the carrier and tracking), its forwarding and any stock that ran out before it was
// paid; the order number links to the order's page. On a phone each row is a card.
import {
  formatOrderNumber,
  MERCHANT_ORDER_TRANSITIONS,
  ORDER_SOURCE_LABELS,
  type OrderStatus,
} from '@store/shared';
import { Link } from '@tanstack/react-router';
import '../../../admin/table-cards.css';
import { StatusBadge } from '../../../admin/components/badges.tsx';
import type { Forwarding } from '../../../admin/forwarding.ts';
import type { MerchantOrder } from '../../../admin/types.ts';
import { useChainInfo } from '../../../lib/chain-info.ts';
import { usdc } from '../../../lib/format.ts';
import { ForwardingStatus, StockWarning } from './order-notes.tsx';

/** The status an order can move to next, if any. */
export function nextStatus(status: OrderStatus): OrderStatus | undefined {
  return MERCHANT_ORDER_TRANSITIONS[status][0];
}

const ACTION_LABELS: Partial<Record<OrderStatus, string>> = {
  processing: 'Mark processing',
  shipped: 'Mark shipped',
  completed: 'Mark completed',
};

/** The table of orders (or the empty text). */
export function OrderTable(props: {
  orders: readonly MerchantOrder[];
  storeName: (storeId: string | null) => string;
  busy: string | undefined;
  onAdvance: (order: MerchantOrder, next: OrderStatus) => void;
  forwarding: ReadonlyMap<string, Forwarding>;
  onRetryForwarding: (order: MerchantOrder) => void;
}) {
  const chain = useChainInfo();
  if (props.orders.length === 0) return <p className="muted">No orders match these filters.</p>;
  return (
    <div className="table-wrap table-cards">
      <table>
        <thead>
          <tr>
            <th scope="col">Order ID</th>
            <th scope="col">Date</th>
            <th scope="col">Store</th>
            <th scope="col">Customer</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">Forwarding</th>
            <th scope="col">Chain</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {props.orders.map((order) => {
            const next = nextStatus(order.status);
            return (
              <tr key={order.id} aria-label={`Order ${formatOrderNumber(order.id)}`}>
                <th scope="row">
                  <Link to="/admin/orders/$orderId" params={{ orderId: order.id }}>
                    {formatOrderNumber(order.id)}
                  </Link>
                </th>
                <td data-label="Date">{new Date(order.createdAt).toLocaleDateString()}</td>
                <td data-label="Store">
                  <div>
                    {props.storeName(order.storeId)}
                    {order.source !== 'storefront' && (
                      <div className="muted small">{ORDER_SOURCE_LABELS[order.source]}</div>
                    )}
                  </div>
                </td>
                <td data-label="Customer">{order.customerEmail}</td>
                <td data-label="Amount">{usdc(order.totalUsdc)}</td>
                <td data-label="Status">
                  <div className="order-notes">
                    <StatusBadge status={order.status} />
                    <StockWarning order={order} />
                  </div>
                </td>
                <td data-label="Forwarding">
                  <ForwardingStatus
                    forwarding={props.forwarding.get(order.id)}
                    busy={props.busy === order.id}
                    onRetry={() => props.onRetryForwarding(order)}
                  />
                </td>
                <td data-label="Chain">{order.paymentChain ? chain.networkName : '—'}</td>
                <td>
                  {next === 'shipped' ? (
                    // Note: shipping takes a carrier and tracking number: the order page's form.
                    <Link
                      to="/admin/orders/$orderId"
                      params={{ orderId: order.id }}
                      hash="ship"
                      className="button button-small"
                    >
                      {ACTION_LABELS[next]}
                    </Link>
                  ) : (
                    next && (
                      <button
                        type="button"
                        className="button button-small"
                        disabled={props.busy === order.id}
                        onClick={() => props.onAdvance(order, next)}
                      >
                        {ACTION_LABELS[next]}
                      </button>
                    )
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
