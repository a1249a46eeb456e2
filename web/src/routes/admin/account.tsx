// Route /admin/account: the merchant's account. Email (add, change, verify), password, two-step
// verification (TOTP), the signed-in sessions, and the paid-order emails of each store. Read from
// the API: these settings need the network.
import type { AccountSettings } from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { fetchAccount } from '../../account/api.ts';
import { ApiError, errorText } from '../../lib/api.ts';
import { EmailSection } from './-components/account-email.tsx';
import { NotificationsSection } from './-components/account-notifications.tsx';
import { PasswordSection } from './-components/account-password.tsx';
import { SessionsSection } from './-components/account-sessions.tsx';
import { TwoStepSection } from './-components/account-two-step.tsx';
import '../../account/account.css';

export const Route = createFileRoute('/admin/account')({ component: AccountPage });

function AccountPage() {
  const [account, setAccount] = useState<AccountSettings>();
  const [failed, setFailed] = useState<string>();
  const reload = useCallback(
    () =>
      fetchAccount().then(
        (settings) => {
          setAccount(settings);
          setFailed(undefined);
        },
        (error: unknown) =>
          setFailed(
            error instanceof ApiError
              ? errorText(error)
              : 'Your account settings need a connection. Connect and reload the page.',
          ),
      ),
    [],
  );
  useEffect(() => void reload(), [reload]);

  return (
    <div className="account-page">
      <div className="admin-heading">
        <h1>Account</h1>
      </div>
      {failed && (
        <p className="muted" role="alert">
          {failed}
        </p>
      )}
      {!account && !failed && (
        <p className="loading" role="status">
          Loading your account...
        </p>
      )}
      {account && (
        <>
          <p className="muted" style={{ margin: 0 }}>
            Signed in as <strong>{account.username}</strong>
          </p>
          <EmailSection account={account} onChange={reload} />
          <PasswordSection />
          <TwoStepSection account={account} onChange={reload} />
          <SessionsSection />
          <NotificationsSection account={account} onChange={reload} />
        </>
      )}
    </div>
  );
}
