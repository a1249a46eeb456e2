// The order confirmation of /thank-you/{orderId} and /store/{slug}/thank-you/{orderId}
// (docs/screens.md#thank-you-page): lines, subtotal, shipping, total paid, payment method, status,
// date, address, delivery estimate. It says what is true of the order: a pending order is not paid
// yet (with a link to its payment page), a reversed one lost its payment, and a paid one shows its
// payment transaction.
import {
  addressTailLines,
  formatUsdc,
  isLinkOrder,
  isRevenueStatus,
  multiplyUsdc,
  ORDER_NOT_FOUND,
  type Order,
  orderTaxIncluded,
  PAGE_TEXTS,
  PAYMENT_MESSAGES,
  parseUsdc,
  receiptIsEmailed,
  shortOrderIdUpper,
  THANK_YOU_DELIVERY_ESTIMATE,
} from '@store/shared';
import { Fragment } from 'react';
import { explorerTxUrl, useChainInfo } from '../lib/chain-info.ts';
import { usdc } from '../lib/format.ts';
import { InvoiceDownloadButton } from '../lib/invoice-download.tsx';
import { buyerHeaders } from '../lib/review-tokens.ts';
import type { OrderState } from '../lib/use-order.ts';
import { CheckIcon } from './icons.tsx';
import { OrderGate } from './order-gate.tsx';

function lineTotal(priceUsdc: string, quantity: number): string {
  try {
    return formatUsdc(multiplyUsdc(parseUsdc(priceUsdc), quantity));
  } catch {
    return priceUsdc;
  }
}

/**
 * Shows an order's confirmation; `home` is where 'Continue Shopping' goes, `paymentBase` the
 * store's payment page prefix (a universal order's payment page is /universal-payment/{id}).
 */
export function ThankYouPage(props: {
  result: OrderState;
  home: string;
  paymentBase: string;
  /** The store's delivery estimate of this order (5-7 business days when not given). */
  deliveryEstimate?: (order: Order) => string;
}) {
  return (
    <OrderGate result={props.result} notFoundDescription={ORDER_NOT_FOUND.thankYouDescription}>
      {(order) => (
        <Confirmation
          order={order}
          deliveryEstimate={props.deliveryEstimate?.(order) ?? THANK_YOU_DELIVERY_ESTIMATE}
          home={props.home}
          paymentHref={
            isLinkOrder(order.source)
              ? `/universal-payment/${order.id}`
              : `${props.paymentBase}${order.id}`
          }
        />
      )}
    </OrderGate>
  );
}

/** The order's payment as this page tells it. */
type Standing = 'pending' | 'reversed' | 'paid';

function standingOf(order: Order): Standing {
  if (order.status === 'reversed') return 'reversed';
  return isRevenueStatus(order.status) ? 'paid' : 'pending';
}

/** The payment transaction, linked to the block explorer when the chain has one. */
function PaymentTransaction(props: { txHash: string }) {
  const chain = useChainInfo();
  const short = `${props.txHash.slice(0, 10)}…${props.txHash.slice(-8)}`;
  const url = chain.loaded ? explorerTxUrl(chain.chainId, props.txHash) : undefined;
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer" title={props.txHash}>
      {short}
    </a>
  ) : (
    <code title={props.txHash}>{short}</code>
  );
}

/**
 * The order's tax as the server computed it; for an order read without it, what the total holds
 * beyond the discounted subtotal and shipping. Undefined when there is none.
 */
function taxOf(order: Order): string | undefined {
  try {
    if (order.taxUsdc !== undefined)
      return parseUsdc(order.taxUsdc) > 0n ? formatUsdc(parseUsdc(order.taxUsdc)) : undefined;
    const tax =
      parseUsdc(order.totalUsdc) -
      parseUsdc(order.subtotalUsdc) +
      parseUsdc(order.discountUsdc ?? '0') -
      parseUsdc(order.shippingUsdc);
    return tax > 0n ? formatUsdc(tax) : undefined;
  } catch {
    return undefined;
  }
}

function Header(props: { order: Order; standing: Standing; paymentHref: string }) {
  const { order, standing } = props;
  const chain = useChainInfo();
  if (standing === 'paid')
    return (
      <header className="thank-you-header">
        <span className="thank-you-icon" aria-hidden="true">
          <CheckIcon size={28} strokeWidth={3} />
        </span>
        <h1>Thank you for your order!</h1>
        {/* Note: an email is promised only when the platform sends receipts (a mail server). */}
        <p className="muted">
          Order #{shortOrderIdUpper(order.id)}
          {chain.receiptsByEmail && receiptIsEmailed(order.source) && order.customerEmail ? (
            <>
              {' '}
              · A confirmation will be sent to <strong>{order.customerEmail}</strong>
            </>
          ) : null}
        </p>
      </header>
    );
  return (
    <header className="thank-you-header">
      <h1>{standing === 'pending' ? 'Your order is not paid yet' : 'Your payment was reversed'}</h1>
      <p className="muted">Order #{shortOrderIdUpper(order.id)}</p>
      <div className="card notice notice-warning" role="status">
        <p>
          {standing === 'pending'
            ? 'We have not received the payment for this order. Pay on its payment page; the order is confirmed once the payment arrives.'
            : PAYMENT_MESSAGES.reversedCard.description}
        </p>
        <a href={props.paymentHref} className="button">
          Go to Payment Page
        </a>
      </div>
    </header>
  );
}

const STATUS_BADGE = {
  pending: { className: 'status-badge', text: 'Awaiting Payment' },
  reversed: { className: 'status-badge status-failed', text: PAYMENT_MESSAGES.reversedCard.title },
  paid: { className: 'status-badge status-confirmed', text: PAGE_TEXTS.orderConfirmed },
} as const;

function Confirmation(props: {
  order: Order;
  deliveryEstimate: string;
  home: string;
  paymentHref: string;
}) {
  const { order } = props;
  const tax = taxOf(order);
  const address = order.shippingAddress;
  const standing = standingOf(order);
  const badge = STATUS_BADGE[standing];
  return (
    <main className="page thank-you-page">
      <Header order={order} standing={standing} paymentHref={props.paymentHref} />
      <div className="thank-you-grid">
        <section className="card" aria-labelledby="items-title">
          <h2 id="items-title">Order Details</h2>
          <ul className="summary-lines">
            {order.items.map((item) => (
              <li key={`${item.productId}-${item.title}`}>
                <span>
                  {item.title} <span className="muted">× {item.quantity}</span>
                </span>
                <span>{usdc(lineTotal(item.priceUsdc, item.quantity))}</span>
              </li>
            ))}
          </ul>
          <dl className="summary-totals">
            <div>
              <dt>Subtotal</dt>
              <dd>{usdc(order.subtotalUsdc)}</dd>
            </div>
            {order.discountCode && order.discountUsdc && order.discountUsdc !== '0.00' && (
              <div>
                <dt>Discount ({order.discountCode})</dt>
                <dd>−{usdc(order.discountUsdc)}</dd>
              </div>
            )}
            <div>
              <dt>Shipping</dt>
              <dd>{usdc(order.shippingUsdc)}</dd>
            </div>
            {tax && (
              <div>
                <dt>
                  {orderTaxIncluded({ ...order, taxUsdc: tax }) ? 'Tax included' : 'Estimated tax'}
                </dt>
                <dd>{usdc(tax)}</dd>
              </div>
            )}
            <div className="summary-total">
              <dt>{standing === 'paid' ? 'Total Paid' : 'Total'}</dt>
              <dd>{usdc(order.totalUsdc)}</dd>
            </div>
          </dl>
        </section>
        <section className="card" aria-labelledby="payment-title">
          <h2 id="payment-title">Payment</h2>
          <dl className="details-list">
            <div>
              <dt>Payment Method</dt>
              <dd>{PAGE_TEXTS.paymentMethod}</dd>
            </div>
            <div>
              <dt>Status</dt>
              <dd>
                <span className={badge.className} data-testid="order-status">
                  {badge.text}
                </span>
              </dd>
            </div>
            {standing === 'paid' && order.paymentTxHash && (
              <div>
                <dt>Transaction</dt>
                <dd data-testid="payment-tx">
                  <PaymentTransaction txHash={order.paymentTxHash} />
                </dd>
              </div>
            )}
            {standing === 'paid' && order.storeId && order.customerEmail !== '' && (
              <div>
                <dt>Invoice</dt>
                <dd>
                  <InvoiceDownloadButton
                    orderId={order.id}
                    headers={buyerHeaders(order.id).headers}
                    className="button button-small"
                  />
                </dd>
              </div>
            )}
            <div>
              <dt>Date</dt>
              <dd>{new Date().toLocaleDateString(undefined, { dateStyle: 'long' })}</dd>
            </div>
          </dl>
        </section>
        <section className="card" aria-labelledby="shipping-title">
          <h2 id="shipping-title">Shipping</h2>
          {address ? (
            <address>
              {address.firstName} {address.lastName}
              <br />
              {address.street}
              <br />
              {addressTailLines(address).map((line, index) => (
                <Fragment key={line}>
                  {index > 0 && <br />}
                  {line}
                </Fragment>
              ))}
            </address>
          ) : (
            <p className="muted">No shipping address.</p>
          )}
          <p>
            Estimated delivery: <strong>{props.deliveryEstimate}</strong>
          </p>
        </section>
      </div>
      <div className="actions">
        <a href={props.home} className="button">
          Continue Shopping
        </a>
      </div>
    </main>
  );
}
