// Order Summary sidebar of both checkouts: lines, subtotal, shipping, optional tax, total.
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

/** The summary card; `taxUsdc` is shown only on the store checkout (8% estimated tax). */
export function OrderSummary(props: {
  lines: readonly SummaryLine[];
  subtotalUsdc: string;
  shippingUsdc?: string;
  taxUsdc?: string;
  totalUsdc: string;
  children?: ReactNode;
}) {
  return (
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
        {props.shippingUsdc !== undefined && (
          <div>
            <dt>Shipping</dt>
            <dd>{props.shippingUsdc === '0.00' ? 'Free' : usdc(props.shippingUsdc)}</dd>
          </div>
        )}
        {props.taxUsdc !== undefined && (
          <div>
            <dt>Estimated tax (8%)</dt>
            <dd>{usdc(props.taxUsdc)}</dd>
          </div>
        )}
        <div className="summary-total">
          <dt>Total</dt>
          <dd data-testid="order-total">{usdc(props.totalUsdc)}</dd>
        </div>
      </dl>
      {props.children}
    </aside>
  );
}
