// What the orders table says beside an order's status: where its money went (forwarding badge,
// the last error, 'Retry forwarding' once it stopped) and the stock that ran out before payment.
import {
  type Forwarding,
  forwardingLabel,
  forwardingNote,
  stockShortfallText,
} from '../../../admin/forwarding.ts';
import type { MerchantOrder } from '../../../admin/types.ts';

const TONES = {
  forwarded: 'success',
  pending: 'neutral',
  retrying: 'warning',
  failed: 'danger',
  canceled: 'neutral',
} as const;

/** The forwarding of a paid order: a badge, its last error, and Retry when it stopped. */
export function ForwardingStatus(props: {
  forwarding: Forwarding | undefined;
  busy: boolean;
  onRetry: () => void;
}) {
  const { forwarding } = props;
  if (!forwarding) return <span className="muted">—</span>;
  const label = forwardingLabel(forwarding.status);
  const error = forwardingNote(forwarding);
  return (
    <div className="order-notes">
      <span
        className={`badge forwarding-status order-status-${TONES[label]}`}
        title={error ?? undefined}
      >
        {label}
      </span>
      {error && <span className="small muted">{error}</span>}
      {label === 'failed' && (
        <button
          type="button"
          className="button button-small"
          disabled={props.busy}
          onClick={props.onRetry}
        >
          Retry forwarding
        </button>
      )}
    </div>
  );
}

/** The warning of a paid order whose stock ran out before payment; nothing otherwise. */
export function StockWarning(props: { order: MerchantOrder }) {
  const lines = props.order.stockShortfall;
  if (!lines || lines.length === 0) return null;
  return (
    <p className="notice notice-warning stock-warning" role="note">
      {stockShortfallText(lines)}
    </p>
  );
}
