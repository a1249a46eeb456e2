// The payment's progress once the full amount is seen: "Payment detected", the confirmations it
// has of the depth the order needs, then "Payment received" at depth. Fed by the pushed status (or
// the poll's), so it moves with every block while the page waits to redirect.
import type { PaymentStatusResponse } from '@store/shared';

/** Statuses in which the full amount reached the depth. */
const AT_DEPTH = new Set(['received', 'forwarded']);

/** True when the check's full amount reached the depth the order needs. */
export function paymentAtDepth(check: PaymentStatusResponse | undefined): boolean {
  return check !== undefined && AT_DEPTH.has(check.status);
}

/** What the progress says for a status check; undefined before the full amount is seen. */
export function paymentProgress(check: PaymentStatusResponse | undefined) {
  if (!check || check.status === 'reversed' || !check.paymentDetected) return undefined;
  const required = check.requiredConfirmations;
  const atDepth = paymentAtDepth(check);
  const reached = atDepth ? required : (check.confirmations ?? undefined);
  const title = atDepth ? 'Payment received' : 'Payment detected';
  if (required === undefined || reached === undefined) return { title, detail: undefined };
  const count = Math.min(reached, required);
  return {
    title,
    detail: `${count} of ${required} confirmation${required === 1 ? '' : 's'}`,
    count,
    required,
  };
}

/** The progress card, or nothing before the full amount is seen. */
export function PaymentProgress(props: { check: PaymentStatusResponse | undefined }) {
  const progress = paymentProgress(props.check);
  if (!progress) return null;
  return (
    <section
      className="card notice notice-success payment-progress"
      aria-live="polite"
      data-testid="payment-progress"
    >
      <p className="payment-progress-title">
        <strong>{progress.title}</strong>
        {progress.detail && <span className="muted"> · {progress.detail}</span>}
      </p>
      {progress.required !== undefined && (
        <progress
          max={progress.required}
          value={progress.count}
          aria-label={`${progress.detail} of the payment`}
        />
      )}
    </section>
  );
}
