// The order confirmation of /thank-you/{orderId} and /store/{slug}/thank-you/{orderId} (SPEC §2):
// lines, subtotal, shipping, total paid, payment method, status, date, address, delivery estimate.
import {
  formatUsdc,
  multiplyUsdc,
  ORDER_NOT_FOUND,
  type Order,
  PAGE_TEXTS,
  parseUsdc,
  shortOrderIdUpper,
  THANK_YOU_DELIVERY_ESTIMATE,
} from '@store/shared';
import { usdc } from '../lib/format.ts';
import type { OrderState } from '../lib/use-order.ts';
import { OrderGate } from './order-gate.tsx';

function lineTotal(priceUsdc: string, quantity: number): string {
  try {
    return formatUsdc(multiplyUsdc(parseUsdc(priceUsdc), quantity));
  } catch {
    return priceUsdc;
  }
}

/** Shows an order's confirmation; `home` is where 'Continue Shopping' goes. */
export function ThankYouPage(props: { result: OrderState; home: string }) {
  return (
    <OrderGate result={props.result} notFoundDescription={ORDER_NOT_FOUND.thankYouDescription}>
      {(order) => <Confirmation order={order} home={props.home} />}
    </OrderGate>
  );
}

/** What the total holds beyond subtotal and shipping: the store checkout's 8% estimated tax. */
function taxOf(order: Order): string | undefined {
  try {
    const tax =
      parseUsdc(order.totalUsdc) - parseUsdc(order.subtotalUsdc) - parseUsdc(order.shippingUsdc);
    return tax > 0n ? formatUsdc(tax) : undefined;
  } catch {
    return undefined;
  }
}

function Confirmation(props: { order: Order; home: string }) {
  const { order } = props;
  const tax = taxOf(order);
  const address = order.shippingAddress;
  return (
    <main className="page thank-you-page">
      <header className="thank-you-header">
        <span className="thank-you-icon" aria-hidden="true">
          ✓
        </span>
        <h1>Thank you for your order!</h1>
        <p className="muted">
          Order #{shortOrderIdUpper(order.id)} · A confirmation will be sent to{' '}
          <strong>{order.customerEmail}</strong>
        </p>
      </header>
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
            <div>
              <dt>Shipping</dt>
              <dd>{usdc(order.shippingUsdc)}</dd>
            </div>
            {tax && (
              <div>
                <dt>Estimated tax</dt>
                <dd>{usdc(tax)}</dd>
              </div>
            )}
            <div className="summary-total">
              <dt>Total Paid</dt>
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
                <span className="status-badge status-confirmed">{PAGE_TEXTS.orderConfirmed}</span>
              </dd>
            </div>
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
              {address.city}, {address.state} {address.zipCode}
            </address>
          ) : (
            <p className="muted">No shipping address.</p>
          )}
          <p>
            Estimated delivery: <strong>{THANK_YOU_DELIVERY_ESTIMATE}</strong>
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
