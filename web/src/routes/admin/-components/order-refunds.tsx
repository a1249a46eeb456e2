// The order page's refunds: what arrived, is missing or extra, what is held on the deposit address
// for the payer, each refund (its status, the payer's claim link while it awaits an address, its
// transaction once sent), and the merchant's decisions on an underpaid order whose window closed:
// "Accept as paid" (what arrived is forwarded) or "Refund" (everything on the deposit address goes
// back to the payer, who confirms the address through the claim link).
import { formatUsdc, type OrderRefunds, parseUsdc, type Refund } from '@store/shared';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorText } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import { acceptUnderpaid, getOrderRefunds, refundFromDeposit } from '../../../refunds/api.ts';

const amount = (value: string) => `${formatUsdc(parseUsdc(value))} USDC`;

const REASONS: Record<string, string> = {
  excess: 'Overpaid excess',
  underpaid: 'Underpaid order',
  expired: 'Expired order',
  oversold: 'Oversold order',
  merchant: 'Refund',
};

const STATUSES: Record<string, string> = {
  awaiting_address: 'waiting for the payer to confirm the address',
  ready: 'address confirmed, sending',
  sending: 'sending',
  refunded: 'refunded',
  canceled: 'canceled',
  failed: 'failed',
};

/** The refunds card of the order page (nothing until the order has a deposit address). */
export function OrderRefundsCard(props: { orderId: string }) {
  const [view, setView] = useState<OrderRefunds>();
  const [busy, setBusy] = useState<'accept' | 'refund'>();
  const load = useCallback(
    () => getOrderRefunds(props.orderId).then(setView, () => undefined),
    [props.orderId],
  );
  useEffect(() => {
    void load();
  }, [load]);
  // Note: while a refund is on its way the card looks again until it is refunded.
  const moving = view?.refunds.some((r) => r.status === 'ready' || r.status === 'sending');
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, [moving, load]);
  if (!view?.paymentStatus) return null;

  const decide = async (kind: 'accept' | 'refund') => {
    setBusy(kind);
    try {
      const next =
        kind === 'accept'
          ? await acceptUnderpaid(props.orderId)
          : await refundFromDeposit(props.orderId);
      setView(next);
      toast({
        title: kind === 'accept' ? 'Order accepted as paid' : 'Refund started',
        description:
          kind === 'accept'
            ? 'What arrived is forwarded to your payout wallet.'
            : 'The payer confirms the address through the claim link; the refund is then sent.',
      });
    } catch (error) {
      toastError(
        kind === 'accept' ? 'Could not accept the order' : 'Could not start the refund',
        error instanceof ApiError ? error.text : errorText(error),
      );
      void load();
    } finally {
      setBusy(undefined);
    }
  };

  const extra = parseUsdc(view.extraAmount) > 0n;
  const missing = parseUsdc(view.missingAmount) > 0n && parseUsdc(view.receivedAmount) > 0n;
  if (view.refunds.length === 0 && !extra && !missing && !view.canRefundDeposit) return null;
  return (
    <section className="card" aria-labelledby="order-refunds-title">
      <h2 id="order-refunds-title">Refunds</h2>
      <dl className="order-facts">
        <div>
          <dt>Received</dt>
          <dd>{amount(view.receivedAmount)}</dd>
        </div>
        {missing && (
          <div>
            <dt>Missing</dt>
            <dd>{amount(view.missingAmount)}</dd>
          </div>
        )}
        {extra && (
          <div>
            <dt>Extra (the payer's)</dt>
            <dd>{amount(view.extraAmount)}</dd>
          </div>
        )}
        {parseUsdc(view.onDepositAmount) > 0n && (
          <div>
            <dt>On the deposit address</dt>
            <dd>{amount(view.onDepositAmount)}</dd>
          </div>
        )}
      </dl>
      {view.refunds.length > 0 && (
        <ul className="order-legs" aria-label="Refunds">
          {view.refunds.map((refund) => (
            <RefundLine key={refund.id} refund={refund} />
          ))}
        </ul>
      )}
      {(view.canAcceptUnderpaid || view.canRefundDeposit) && (
        <>
          <p className="small muted">
            {view.canAcceptUnderpaid
              ? 'The payment window closed before the full amount arrived. Accept the order as paid (what arrived is forwarded, less the 2% fee) or refund the payer in full from the deposit address (the platform pays the network fee).'
              : 'This order was not paid. Refund what arrived to the payer in full from the deposit address.'}
          </p>
          <div className="actions">
            {view.canAcceptUnderpaid && (
              <button
                type="button"
                className="button"
                disabled={busy !== undefined}
                onClick={() => void decide('accept')}
              >
                {busy === 'accept' ? 'Accepting...' : 'Accept as paid'}
              </button>
            )}
            {view.canRefundDeposit && (
              <button
                type="button"
                className="button button-quiet"
                disabled={busy !== undefined}
                onClick={() => void decide('refund')}
              >
                {busy === 'refund' ? 'Starting...' : `Refund ${amount(view.onDepositAmount)}`}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function RefundLine(props: { refund: Refund }) {
  const { refund } = props;
  const claimUrl = refund.claimPath ? `${window.location.origin}${refund.claimPath}` : undefined;
  return (
    <li>
      <span>
        {REASONS[refund.reason] ?? 'Refund'}: <strong>{amount(refund.amount)}</strong> (
        {STATUSES[refund.status] ?? refund.status})
      </span>
      {refund.toAddress && <span className="mono small">to {refund.toAddress}</span>}
      {!refund.toAddress && refund.suggestedAddress && (
        <span className="mono small">paid from {refund.suggestedAddress}</span>
      )}
      {claimUrl && (
        <span className="small">
          Claim link (emailed to the payer): <a href={claimUrl}>{claimUrl}</a>
        </span>
      )}
      {refund.txHash && <span className="mono small">tx {refund.txHash}</span>}
      {refund.lastError && <span className="small field-error">{refund.lastError}</span>}
    </li>
  );
}
