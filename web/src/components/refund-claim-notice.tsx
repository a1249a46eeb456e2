// The payer's refund links on an order's payment and thank-you pages: shown while a refund of the
// order (an overpaid excess, a refunded underpayment) awaits the address it goes back to.
import { formatUsdc, parseUsdc } from '@store/shared';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { getOrderRefundClaims } from '../refunds/api.ts';
import '../refunds/refunds.css';

type Claim = Awaited<ReturnType<typeof getOrderRefundClaims>>[number];

const WHY: Record<string, string> = {
  excess: 'You sent more than the order total.',
  underpaid: 'The store is returning your incomplete payment.',
  expired: 'The store is returning your payment.',
  oversold: 'The store could not supply your order.',
  merchant: 'The store is refunding your order.',
  undelivered: 'The paid resource could not be delivered.',
};

/**
 * The order's pending refund claims; nothing while there are none. `embedded`: inside a page
 * already (the payment pages), else a page-wide block of its own (the thank-you pages).
 */
export function RefundClaimNotice(props: { orderId: string; embedded?: boolean }) {
  const [claims, setClaims] = useState<Claim[]>([]);
  const { orderId } = props;
  useEffect(() => {
    let live = true;
    // Note: looked at again a few times, since the worker opens an excess refund just after the
    // payment reaches depth; a failure only hides the notice.
    const load = () =>
      getOrderRefundClaims(orderId).then(
        (found) => live && setClaims(found),
        () => undefined,
      );
    void load();
    const timers = [3000, 8000, 15000, 30000, 60000].map((ms) => setTimeout(load, ms));
    return () => {
      live = false;
      for (const timer of timers) clearTimeout(timer);
    };
  }, [orderId]);
  if (claims.length === 0) return null;
  const notice = (
    <section className="card refund-claim-notice" aria-labelledby="refund-claim-title">
      <h2 id="refund-claim-title">Money to give back to you</h2>
      {claims.map((claim) => (
        <p key={claim.claimPath}>
          {WHY[claim.reason] ?? WHY.merchant}{' '}
          <strong>{formatUsdc(parseUsdc(claim.amount))} USDC</strong> is waiting for you.{' '}
          <Link to="/refund/$token" params={{ token: claim.claimPath.replace('/refund/', '') }}>
            Claim your refund
          </Link>
        </p>
      ))}
    </section>
  );
  if (props.embedded) return notice;
  return (
    <div className="page" style={{ paddingTop: 0, paddingBottom: '1rem' }}>
      {notice}
    </div>
  );
}
