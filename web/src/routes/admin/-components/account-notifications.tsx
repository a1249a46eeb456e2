// The account page's paid-order emails: one switch per store (on by default); they go to the
// account's verified email.
import type { AccountSettings } from '@store/shared';
import { useId, useState } from 'react';
import { setStoreNotifications } from '../../../account/api.ts';
import { ApiError, errorText } from '../../../lib/api.ts';
import { toastError } from '../../../lib/toast.ts';

/** Paid-order emails card of the account page. */
export function NotificationsSection(props: { account: AccountSettings; onChange: () => void }) {
  const id = useId();
  const [saving, setSaving] = useState<string>();
  const { account } = props;

  const toggle = async (storeId: string, on: boolean) => {
    setSaving(storeId);
    try {
      await setStoreNotifications(storeId, on);
      props.onChange();
    } catch (error) {
      toastError(
        'Could not save',
        error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`,
      );
    } finally {
      setSaving(undefined);
    }
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Paid-order emails</h2>
      <p className="muted small" style={{ margin: 0 }}>
        {account.emailVerified
          ? `An email to ${account.email} for each paid order of these stores.`
          : 'Verify your email to get an email for each paid order.'}
      </p>
      {account.stores.length === 0 ? (
        <p className="muted">No stores yet.</p>
      ) : (
        <ul className="account-list">
          {account.stores.map((store) => (
            <li key={store.id}>
              <div className="field-inline">
                <input
                  id={`${id}-${store.id}`}
                  type="checkbox"
                  role="switch"
                  aria-checked={store.notifyPaidOrders}
                  checked={store.notifyPaidOrders}
                  disabled={saving === store.id}
                  onChange={(event) => void toggle(store.id, event.target.checked)}
                />
                <label htmlFor={`${id}-${store.id}`}>Email me paid orders of {store.name}</label>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
