// Order Summary sidebar of both checkouts: lines, subtotal, shipping, optional tax, total. On a
// phone the pay button sits in a bar with the total that stays at the bottom of the screen while
// the shopper fills in the form (the summary itself comes after the form there).
import type { ReactNode } from 'react';
import { usdc } from '../../lib/format.ts';

/** A line of the summary. */
export interface SummaryLine {
  key: string;
  title: string;
  quantity: number;
  /** price × quantity, 2 decimals. */
  lineTotalUsdc: string;
  imageUrl?: string | null;
}

/**
 * The summary card; `tax` is shown only where the order carries tax, with the label of its stored
 * rate (the store's shipping zone, a session's own tax). `children`
 * (the pay button) is shown under the totals on wide screens and in the bottom bar on phones.
 * Note: CSS shows one of the two copies, so a page has one visible button of that name.
 */
export function OrderSummary(props: {
  lines: readonly SummaryLine[];
  subtotalUsdc: string;
  /** What a discount code takes off (shown when more than 0.00), with the code. */
  discount?: { code: string; amountUsdc: string };
  shippingUsdc?: string;
  /** The tax line: its amount and label, both from the stored tax (no line when there is none). */
  tax?: { amountUsdc: string; label: string };
  totalUsdc: string;
  children?: ReactNode;
}) {
  return (
    <>
      <aside className="card order-summary" aria-labelledby="order-summary-title">
        <h2 id="order-summary-title">Order Summary</h2>
        <ul className="summary-lines">
          {props.lines.map((line) => (
            <li key={line.key}>
              <span>
                {line.title} <span className="muted">× {line.quantity}</span>
              </span>
              <span>{usdc(line.lineTotalUsdc)}</span>
            </li>
          ))}
        </ul>
        <dl className="summary-totals">
          <div>
            <dt>Subtotal</dt>
            <dd>{usdc(props.subtotalUsdc)}</dd>
          </div>
          {props.discount && props.discount.amountUsdc !== '0.00' && (
            <div className="summary-discount">
              <dt>Discount ({props.discount.code})</dt>
              <dd data-testid="order-discount">−{usdc(props.discount.amountUsdc)}</dd>
            </div>
          )}
          {props.shippingUsdc !== undefined && (
            <div>
              <dt>Shipping</dt>
              <dd>{props.shippingUsdc === '0.00' ? 'Free' : usdc(props.shippingUsdc)}</dd>
            </div>
          )}
          {props.tax && (
            <div>
              <dt>{props.tax.label}</dt>
              <dd>{usdc(props.tax.amountUsdc)}</dd>
            </div>
          )}
          <div className="summary-total">
            <dt>Total</dt>
            <dd data-testid="order-total">{usdc(props.totalUsdc)}</dd>
          </div>
        </dl>
        {props.children && <div className="summary-action">{props.children}</div>}
      </aside>
      {props.children && (
        <div className="pay-bar">
          <p className="pay-bar-total">
            <span className="muted">Total</span>{' '}
            <strong data-testid="pay-bar-total">{usdc(props.totalUsdc)}</strong>
          </p>
          {props.children}
        </div>
      )}
    </>
  );
}
