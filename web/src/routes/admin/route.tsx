// Layout of /admin/*: requires a merchant session (a signed-out visitor goes to /sign-in and comes
// back after), shows who is signed in with Sign out, keeps the outbox syncing, and lists the
// unsynced changes above every admin page, under the reminder to add or verify an email. The
// navigation shows the Team and Audit log pages only to a role that may see them.
import { PAGE_TEXTS } from '@store/shared';
import { createFileRoute, Link, Outlet, redirect, useNavigate } from '@tanstack/react-router';
import { EmailBanner } from '../../account/email-banner.tsx';
import { SyncPanel } from '../../admin/components/sync-panel.tsx';
import { useOutboxSync } from '../../admin/outbox/use-outbox-sync.ts';
import { mayInSome } from '../../admin/permissions.ts';
import { endSession } from '../../admin/session.ts';
import { useMerchantStores } from '../../admin/use-merchant-data.ts';
import { LoadingPage } from '../../components/message-card.tsx';
import { ApiError } from '../../lib/api.ts';
import { toastError } from '../../lib/toast.ts';
import '../../admin/admin.css';

export const Route = createFileRoute('/admin')({
  beforeLoad: async ({ location }) => {
    // Note: imported here, not at the top: this option stays in the app's entry chunk (only the
    // component is split off), and the session code would otherwise load on every page.
    const { resolveSession } = await import('../../admin/session.ts');
    const merchant = await resolveSession();
    if (!merchant) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    return { merchant };
  },
  pendingComponent: () => <LoadingPage text={PAGE_TEXTS.loadingAdmin} />,
  component: AdminLayout,
});

function AdminLayout() {
  const { merchant } = Route.useRouteContext();
  const navigate = useNavigate();
  useOutboxSync(merchant.id);
  // Note: the Team and Audit log pages only where the merchant's role in some store allows them.
  const stores = (useMerchantStores(merchant.id) ?? []).map((entry) => entry.item);

  const signOut = async () => {
    try {
      await endSession();
      await navigate({ to: '/sign-in' });
    } catch (error) {
      toastError(
        'Could not sign out',
        error instanceof ApiError ? error.text : 'Connect to the internet and try again.',
      );
    }
  };

  return (
    <div className="admin">
      <header className="admin-bar">
        <nav aria-label="Admin">
          <Link to="/admin" activeOptions={{ exact: true }}>
            Dashboard
          </Link>
          <Link to="/admin/orders">Orders</Link>
          <Link to="/admin/customers">Customers</Link>
          <Link to="/admin/discounts">Discounts</Link>
          <Link to="/admin/payouts">Payouts</Link>
          {mayInSome(stores, 'team') && <Link to="/admin/team">Team</Link>}
          {mayInSome(stores, 'audit') && <Link to="/admin/audit">Audit log</Link>}
          <Link to="/admin/account">Account</Link>
        </nav>
        <p className="small" style={{ margin: 0 }}>
          Signed in as <strong data-testid="merchant-name">{merchant.username}</strong>{' '}
          <button type="button" className="button button-quiet button-small" onClick={signOut}>
            Sign out
          </button>
        </p>
      </header>
      <main className="admin-page">
        <EmailBanner />
        <SyncPanel userId={merchant.id} />
        <Outlet />
      </main>
    </div>
  );
}
