// The admin's reminder to an account without a verified email: shown above every admin page until
// the address is verified, with the way there. Note: a banner rather than a page that blocks the
// admin: a merchant signing in to ship today's orders is not stopped by a mail server that is slow
// to deliver a link, and the banner stays until the account can be recovered.
import type { AccountSettings } from '@store/shared';
import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { fetchAccount } from './api.ts';
import './account.css';

/** The banner, or nothing once the account has a verified email (or while offline). */
export function EmailBanner() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [account, setAccount] = useState<AccountSettings>();
  // Note: read again on each admin page, so verifying in another tab clears it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input.
  useEffect(() => {
    let live = true;
    fetchAccount().then(
      (settings) => live && setAccount(settings),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [pathname]);
  if (!account || account.emailVerified || pathname === '/admin/account') return null;
  const waiting = account.pendingEmail ?? account.email;
  return (
    <div className="account-banner" role="status" data-testid="email-banner">
      <p>
        {waiting
          ? `Verify your email: open the link we sent to ${waiting}. Until then a forgotten password cannot be reset.`
          : 'Add an email to your account: without one, a forgotten password locks you out of your stores.'}
      </p>
      <Link to="/admin/account" className="button button-small">
        {waiting ? 'Account settings' : 'Add email'}
      </Link>
    </div>
  );
}
