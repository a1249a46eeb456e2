// Small labels of the admin pages: an order's status (docs/screens.md#admin-dashboard colours: paid
// green, pending amber, others grey), an item's sync state, and a store's logo (image, 1-2
// character emoji or icon).
import { orderStatusTone } from '@store/shared';
import { isEmojiLogo } from '../../lib/format.ts';
import type { SyncState } from '../use-merchant-data.ts';

/** An order status badge. */
export function StatusBadge(props: { status: string }) {
  return (
    <span className={`badge order-status order-status-${orderStatusTone(props.status)}`}>
      {props.status}
    </span>
  );
}

const SYNC_LABELS: Record<Exclude<SyncState, 'synced'>, string> = {
  pending: 'Unsynced',
  conflict: 'Conflict',
  failed: 'Sync failed',
};

/** Marks an item whose local changes the server has not confirmed; nothing when synced. */
export function SyncBadge(props: { sync: SyncState }) {
  if (props.sync === 'synced') return null;
  return (
    <span className={`badge sync-badge sync-${props.sync}`} data-testid="sync-badge">
      {SYNC_LABELS[props.sync]}
    </span>
  );
}

/** A store's logo on its card: the image, the emoji, or a placeholder storefront icon. */
export function StoreCardLogo(props: { name: string; logoUrl?: string | null | undefined }) {
  if (isEmojiLogo(props.logoUrl)) {
    return (
      <span className="admin-logo" role="img" aria-label={`${props.name} logo`}>
        {props.logoUrl}
      </span>
    );
  }
  if (props.logoUrl) {
    return <img className="admin-logo" src={props.logoUrl} alt={`${props.name} logo`} />;
  }
  return (
    <span className="admin-logo admin-logo-placeholder" aria-hidden="true">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="24"
        height="24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M3 9l1.5-5h15L21 9M3 9h18M3 9v11h18V9M9 20v-6h6v6" />
      </svg>
    </span>
  );
}
