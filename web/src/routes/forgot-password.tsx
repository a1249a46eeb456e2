// Route /forgot-password: the merchant gives the email of the account and is sent a single-use
// reset link (1 hour). The answer is the same whether or not an account has that address.
import { ForgotPasswordSchema } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { requestReset } from '../account/api.ts';
import { useAdminForm } from '../admin/components/fields.tsx';
import { formValidator } from '../admin/form-values.ts';
import { ApiError, errorText } from '../lib/api.ts';
import { submitWith } from '../lib/form.tsx';
import '../admin/admin.css';

export const Route = createFileRoute('/forgot-password')({ component: ForgotPasswordPage });

function ForgotPasswordPage() {
  const [sent, setSent] = useState<string>();
  const [serverError, setServerError] = useState<string>();
  const form = useAdminForm({
    defaultValues: { email: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<{ email: string }>(ForgotPasswordSchema) },
    onSubmit: async ({ value }) => {
      setServerError(undefined);
      try {
        setSent(await requestReset(value.email.trim()));
      } catch (error) {
        setServerError(
          error instanceof ApiError
            ? error.text
            : `Could not reach the server. Check your connection. (${errorText(error)})`,
        );
      }
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);

  return (
    <main className="page page-centred">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">Reset your password</h1>
        {sent ? (
          <>
            <p role="status">{sent}</p>
            <p className="muted small">
              No email? Check your spam folder, or use the address you verified on your account
              page. Accounts without a verified email cannot be reset this way.
            </p>
          </>
        ) : (
          <>
            <p className="muted">
              Enter the email address of your merchant account. We’ll send you a link to choose a
              new password.
            </p>
            <form noValidate onSubmit={submitWith(form)}>
              <form.AppField name="email">
                {(field) => <field.InputField label="Email" type="email" autoComplete="email" />}
              </form.AppField>
              {serverError && (
                <p className="field-error" role="alert">
                  {serverError}
                </p>
              )}
              <button type="submit" className="button button-block" disabled={submitting}>
                {submitting ? 'Sending...' : 'Send reset link'}
              </button>
            </form>
          </>
        )}
        <p className="muted small">
          Remembered it? <Link to="/sign-in">Sign in</Link>
        </p>
      </section>
    </main>
  );
}
