// The account page's email: the address and whether it is verified, a new link sent again, and a
// change (a verified address stays until the link sent to the new one is opened; replacing it needs
// the current password).
import { type AccountSettings, ChangeEmailSchema } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import { changeEmail, resendVerification } from '../../../account/api.ts';
import { useAdminForm } from '../../../admin/components/fields.tsx';
import { formValidator } from '../../../admin/form-values.ts';
import { ApiError, errorText } from '../../../lib/api.ts';
import { submitWith } from '../../../lib/form.tsx';
import { toast, toastError } from '../../../lib/toast.ts';

type EmailForm = { email: string; currentPassword: string };

const failure = (error: unknown) =>
  error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`;

/** Email card of the account page. */
export function EmailSection(props: { account: AccountSettings; onChange: () => void }) {
  const { account } = props;
  const [editing, setEditing] = useState(!account.email);
  const [serverError, setServerError] = useState<string>();
  const form = useAdminForm({
    defaultValues: { email: '', currentPassword: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<EmailForm>(ChangeEmailSchema) },
    onSubmit: async ({ value, formApi }) => {
      setServerError(undefined);
      try {
        const message = await changeEmail(value.email.trim(), value.currentPassword || undefined);
        toast({ title: 'Check your inbox', description: message });
        formApi.reset();
        setEditing(false);
        props.onChange();
      } catch (error) {
        setServerError(failure(error));
      }
    },
  });
  const submitting = useStore(form.store, (s) => s.isSubmitting);
  const waiting = account.pendingEmail ?? (account.emailVerified ? null : account.email);

  const resend = async () => {
    try {
      toast({ title: 'Link sent', description: await resendVerification() });
      props.onChange();
    } catch (error) {
      toastError('Could not send the link', failure(error));
    }
  };

  return (
    <section className="card" aria-labelledby="account-email">
      <h2 id="account-email">Email</h2>
      {account.email ? (
        <p className="account-line" data-testid="account-email">
          <span>{account.email}</span>
          <span className={`badge ${account.emailVerified ? 'badge-success' : ''}`}>
            {account.emailVerified ? 'Verified' : 'Not verified'}
          </span>
        </p>
      ) : (
        <p>
          Add an email so that you can reset a forgotten password and get an email for each paid
          order.
        </p>
      )}
      {waiting && (
        <div className="account-line">
          <p style={{ margin: 0 }} role="status">
            We sent a verification link to <strong>{waiting}</strong>. Open it within 24 hours.
          </p>
          <button type="button" className="button button-quiet button-small" onClick={resend}>
            Send the link again
          </button>
        </div>
      )}
      {editing ? (
        <form noValidate onSubmit={submitWith(form)}>
          <form.AppField name="email">
            {(field) => (
              <field.InputField
                label={account.email ? 'New email' : 'Email'}
                type="email"
                autoComplete="email"
              />
            )}
          </form.AppField>
          <form.AppField name="currentPassword">
            {(field) => (
              <field.InputField
                label="Current password"
                type="password"
                autoComplete="current-password"
              />
            )}
          </form.AppField>
          {serverError && (
            <p className="field-error" role="alert">
              {serverError}
            </p>
          )}
          <div className="actions actions-start">
            <button type="submit" className="button" disabled={submitting}>
              {submitting ? 'Sending...' : 'Send verification link'}
            </button>
            {account.email && (
              <button
                type="button"
                className="button button-quiet"
                onClick={() => setEditing(false)}
              >
                Cancel
              </button>
            )}
          </div>
        </form>
      ) : (
        <div className="actions actions-start">
          <button type="button" className="button button-quiet" onClick={() => setEditing(true)}>
            Change email
          </button>
        </div>
      )}
    </section>
  );
}
