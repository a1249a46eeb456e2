// Route /admin/orders/{orderId}: one order of the merchant, opened from the orders list, the
// dashboard or its own URL (a new tab): its lines and totals (tax included), the customer's
// contact and shipping address, the payment (deposit address, each incoming transfer, expected vs
// received, the payment transaction, the exception, stock that ran out before payment), where the
// money went (forwarding legs and their transactions), the shipment with its "Mark as shipped"
// form, the webhook deliveries and a timeline of every event. The last order answer is cached,
// so the page still opens offline.
import {
  addressTailLines,
  countryName,
  DEFAULT_COUNTRY,
  formatOrderNumber,
  formatUsdc,
  isRevenueStatus,
  ORDER_SOURCE_LABELS,
  type OrderActivity,
  orderTaxLabel,
  parseUsdc,
} from '@store/shared';
import { createFileRoute, Link } from '@tanstack/react-router';
import { Fragment, type ReactNode, useCallback, useEffect, useState } from 'react';
import { fetchOrderDetail } from '../../admin/api.ts';
import { refreshStores, saveView } from '../../admin/cache.ts';
import { StatusBadge } from '../../admin/components/badges.tsx';
import { TxLink } from '../../admin/components/tx-link.tsx';
import { type ForwardingDetail, fetchForwardingDetail } from '../../admin/forwarding.ts';
import { fetchOrderActivity } from '../../admin/fulfilment-api.ts';
import { legAmount, paymentException } from '../../admin/order-payment.ts';
import { orderTax } from '../../admin/orders-csv.ts';
import { may, mayRefundIn, refundCapIn } from '../../admin/permissions.ts';
import { type MerchantOrder, MerchantOrderSchema } from '../../admin/types.ts';
import { useMerchantStores, useView } from '../../admin/use-merchant-data.ts';
import { ApiError } from '../../lib/api.ts';
import { useChainInfo } from '../../lib/chain-info.ts';
import { usdc } from '../../lib/format.ts';
import { InvoiceDownloadButton } from '../../lib/invoice-download.tsx';
import { OrderTimeline, OrderWebhooks } from './-components/order-activity.tsx';
import { StockWarning } from './-components/order-notes.tsx';
import { OrderRefundsCard } from './-components/order-refunds.tsx';
import { OrderShipment } from './-components/order-shipment.tsx';
import '../../admin/table-cards.css';

export const Route = createFileRoute('/admin/orders_/$orderId')({ component: OrderPage });

type Load = 'loading' | 'done' | 'not-found' | 'unreachable';

function OrderPage() {
  const { orderId } = Route.useParams();
  const userId = Route.useRouteContext().merchant.id;
  const cached = useView(userId, `order:${orderId}`, MerchantOrderSchema);
  const stores = useMerchantStores(userId);
  const [load, setLoad] = useState<Load>('loading');
  const [forwarding, setForwarding] = useState<ForwardingDetail>();
  const [activity, setActivity] = useState<OrderActivity>();

  const reload = useCallback(async () => {
    const order = await fetchOrderDetail(orderId);
    await saveView(userId, `order:${orderId}`, order);
    // Note: an order without a deposit address yet answers 404 here; it simply shows none.
    const [money, steps] = await Promise.all([
      fetchForwardingDetail(orderId).catch(() => undefined),
      fetchOrderActivity(orderId).catch(() => undefined),
    ]);
    setForwarding(money);
    setActivity(steps);
  }, [userId, orderId]);

  const shipped = async (order: MerchantOrder) => {
    await saveView(userId, `order:${orderId}`, order);
    setActivity(await fetchOrderActivity(orderId).catch(() => activity));
  };

  useEffect(() => {
    reload().then(
      () => setLoad('done'),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return setLoad('not-found');
        console.warn('Order refresh failed', error);
        setLoad('unreachable');
      },
    );
    refreshStores(userId).catch((error: unknown) => console.warn('Stores refresh failed', error));
  }, [reload, userId]);

  const order = load === 'not-found' ? undefined : cached?.value;
  const store = stores?.find((s) => s.item.id === order?.storeId)?.item;
  const storeName = store?.name;
  return (
    <>
      <div className="admin-heading">
        <div>
          <h1>{order ? `Order ${formatOrderNumber(order.id)}` : 'Order'}</h1>
          <Link to="/admin/orders" className="small">
            ← All orders
          </Link>
        </div>
        {order && (
          <div className="actions">
            {order.storeId && isRevenueStatus(order.status) && (
              <InvoiceDownloadButton orderId={order.id} className="button button-small" />
            )}
            <StatusBadge status={order.status} />
          </div>
        )}
      </div>
      {order ? (
        <OrderDetail
          order={order}
          storeName={storeName}
          forwarding={forwarding}
          activity={activity}
          onShipped={(o) => void shipped(o)}
          canRefund={mayRefundIn(store)}
          refundCap={refundCapIn(store)}
          canShip={may(store, 'operate')}
        />
      ) : load === 'not-found' ? (
        <p className="card muted">Order not found.</p>
      ) : load === 'unreachable' ? (
        <p className="card muted">
          This order has not been saved on this device yet. Connect to see it.
        </p>
      ) : (
        <p className="loading" role="status">
          Loading order...
        </p>
      )}
    </>
  );
}

function OrderDetail(props: {
  order: MerchantOrder;
  storeName: string | undefined;
  forwarding: ForwardingDetail | undefined;
  activity: OrderActivity | undefined;
  onShipped: (order: MerchantOrder) => void;
  /** What the merchant's role in the order's store allows (shared/src/team.ts). */
  canRefund: boolean;
  /** A staff member's refund limit (USDC): the most one refund may be; null for no cap. */
  refundCap: string | null;
  canShip: boolean;
}) {
  const { order, forwarding } = props;
  const address = order.shippingAddress;
  return (
    <div className="order-detail">
      <section className="card" aria-labelledby="order-lines-title">
        <h2 id="order-lines-title">Items</h2>
        <StockWarning order={order} />
        <ul className="order-lines">
          {order.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never move; one product may have two.
            <li key={`${item.productId}-${index}`}>
              <span className="order-line-title">{item.title}</span>
              <span className="muted small">
                {item.quantity} × {usdc(item.priceUsdc)}
              </span>
              <span className="order-line-total">{usdc(lineTotal(item))}</span>
            </li>
          ))}
        </ul>
        <dl className="order-facts order-totals">
          <Fact term="Subtotal">{usdc(order.subtotalUsdc)}</Fact>
          {order.discountCode && (
            <Fact term={`Discount (${order.discountCode})`}>−{usdc(order.discountUsdc)}</Fact>
          )}
          <Fact term="Shipping">{usdc(order.shippingUsdc)}</Fact>
          <Fact term={orderTaxLabel({ ...order, taxUsdc: orderTax(order) })}>
            {usdc(orderTax(order))}
          </Fact>
          <Fact term="Total">
            <strong>{usdc(order.totalUsdc)}</strong>
          </Fact>
        </dl>
      </section>
      <section className="card" aria-labelledby="order-customer-title">
        <h2 id="order-customer-title">Customer</h2>
        <dl className="order-facts">
          {/* Note: an order's email is empty only once its customer's data was erased. */}
          <Fact term="Email">
            {order.customerEmail || 'Erased (the customer’s data was erased)'}
          </Fact>
          {address && <Fact term="Phone">{address.phone}</Fact>}
          <Fact term="Shipping address">
            {address ? (
              <address className="order-address">
                {address.firstName} {address.lastName}
                <br />
                {address.street}
                {/* Note: the merchant ships it, so the country is named for US addresses too. */}
                {[
                  ...addressTailLines(address),
                  ...((address.country ?? DEFAULT_COUNTRY) === DEFAULT_COUNTRY
                    ? [countryName(DEFAULT_COUNTRY)]
                    : []),
                ].map((line) => (
                  <Fragment key={line}>
                    <br />
                    {line}
                  </Fragment>
                ))}
              </address>
            ) : (
              'None'
            )}
          </Fact>
          <Fact term="Store">{props.storeName ?? '—'}</Fact>
          <Fact term="Came from">
            <span data-testid="order-source">{ORDER_SOURCE_LABELS[order.source]}</span>
            {order.metadata?.externalOrderId && (
              <span className="muted small"> · {order.metadata.externalOrderId}</span>
            )}
          </Fact>
          {order.payeeAddress && (
            <Fact term="Paid to">
              <span className="address">{order.payeeAddress}</span>
            </Fact>
          )}
          <Fact term="Placed">{new Date(order.createdAt).toLocaleString()}</Fact>
        </dl>
      </section>
      <PaymentSection order={order} forwarding={forwarding} activity={props.activity} />
      {forwarding && forwarding.transfers.length > 0 && (
        <section className="card" aria-labelledby="order-forwarding-title">
          <h2 id="order-forwarding-title">Forwarding</h2>
          <ul className="order-legs">
            {forwarding.transfers.map((leg) => (
              <li key={`${leg.round}-${leg.leg}`}>
                <span>
                  Round {leg.round}, {leg.leg === 'fee' ? 'platform fee' : leg.leg}:{' '}
                  <strong>{legAmount(leg.value)} USDC</strong> ({leg.status})
                </span>
                <span className="mono small">to {leg.to}</span>
                {leg.txHash && (
                  <span className="small">
                    tx <TxLink hash={leg.txHash} />
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <OrderRefundsCard
        orderId={order.id}
        canRefund={props.canRefund}
        refundCap={props.refundCap}
      />
      <OrderShipment order={order} onShipped={props.onShipped} canShip={props.canShip} />
      <OrderWebhooks activity={props.activity} />
      <OrderTimeline activity={props.activity} />
    </div>
  );
}

function PaymentSection(props: {
  order: MerchantOrder;
  forwarding: ForwardingDetail | undefined;
  activity: OrderActivity | undefined;
}) {
  const { order, forwarding } = props;
  const chain = useChainInfo();
  const deposits = props.activity?.deposits ?? [];
  const exception =
    forwarding &&
    paymentException(
      forwarding.paymentException,
      order.totalUsdc,
      forwarding.receivedAmount,
      forwarding.detectedAmount,
    );
  return (
    <section className="card" aria-labelledby="order-payment-title">
      <h2 id="order-payment-title">Payment</h2>
      <dl className="order-facts">
        <Fact term="Expected">{usdc(order.totalUsdc)}</Fact>
        {forwarding && (
          <>
            <Fact term="Received">{usdc(forwarding.receivedAmount)}</Fact>
            {forwarding.detectedAmount !== undefined &&
              forwarding.detectedAmount !== forwarding.receivedAmount && (
                <Fact term="Seen, confirming">{usdc(forwarding.detectedAmount)}</Fact>
              )}
            <Fact term="Payment status">{forwarding.paymentStatus.replace('_', ' ')}</Fact>
            <Fact term="Deposit address">
              <span className="mono">{forwarding.depositAddress}</span>
            </Fact>
          </>
        )}
        <Fact term="Chain">{order.paymentChain ? chain.networkName : '—'}</Fact>
        {/* Note: before the order is paid, its incoming transfers below are its transactions. */}
        {(order.paymentTxHash || deposits.length === 0) && (
          <Fact term="Transaction">
            {order.paymentTxHash ? <TxLink hash={order.paymentTxHash} /> : '—'}
          </Fact>
        )}
      </dl>
      {!forwarding && <p className="muted small">No deposit address has been made yet.</p>}
      {deposits.length > 0 && (
        <>
          <h3 className="small">Incoming transfers</h3>
          <ul className="order-legs" aria-label="Incoming transfers">
            {deposits.map((deposit) => (
              <li key={`${deposit.txHash}-${deposit.blockNumber}-${deposit.amount}`}>
                <span>
                  <strong>{deposit.amount} USDC</strong> in block {deposit.blockNumber}
                </span>
                <span className="small">
                  tx <TxLink hash={deposit.txHash} />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {exception?.kind === 'underpaid' && (
        <p className="order-exception" role="note">
          Underpaid: {exception.received} USDC arrived, {exception.missing} USDC missing.
        </p>
      )}
      {exception?.kind === 'accepted_underpaid' && (
        <p className="order-exception" role="note">
          Accepted as paid: {exception.received} USDC arrived, {exception.missing} USDC short.
        </p>
      )}
      {exception?.kind === 'overpaid' && (
        <p className="order-exception" role="note">
          Overpaid: {exception.received} USDC arrived, {exception.extra} USDC extra.
        </p>
      )}
      {exception?.kind === 'paid_late' && (
        <p className="order-exception" role="note">
          Paid late: the payment arrived after the payment window.
        </p>
      )}
    </section>
  );
}

function Fact(props: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

function lineTotal(item: { priceUsdc: string; quantity: number }): string {
  try {
    return formatUsdc(parseUsdc(item.priceUsdc) * BigInt(item.quantity));
  } catch {
    return item.priceUsdc;
  }
}
