// The account page's password change: the current password, the new one twice (the sign-up rules
// and the server's strength check); the other sessions of the account end, this one stays.
import { ACCOUNT_MESSAGES, ChangePasswordSchema } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import * as v from 'valibot';
import { changePassword } from '../../../account/api.ts';
import { useAdminForm } from '../../../admin/components/fields.tsx';
import { formValidator } from '../../../admin/form-values.ts';
import { ApiError, errorText } from '../../../lib/api.ts';
import { submitWith } from '../../../lib/form.tsx';
import { toast } from '../../../lib/toast.ts';

type PasswordForm = { currentPassword: string; newPassword: string; confirm: string };

const PasswordFormSchema = v.pipe(
  v.object({ ...ChangePasswordSchema.entries, confirm: v.string() }),
  v.forward(
    v.check((form) => form.newPassword === form.confirm, 'The two passwords do not match'),
    ['confirm'],
  ),
);

/** Password card of the account page. */
export function PasswordSection() {
  const [serverError, setServerError] = useState<string>();
  const form = useAdminForm({
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<PasswordForm>(PasswordFormSchema) },
    onSubmit: async ({ value, formApi }) => {
      setServerError(undefined);
      try {
        const message = await changePassword(value.currentPassword, value.newPassword);
        toast({ title: 'Password changed', description: message });
        formApi.reset();
      } catch (error) {
        setServerError(
          error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`,
        );
      }
    },
  });
  const submitting = useStore(form.store, (s) => s.isSubmitting);
  return (
    <section className="card" aria-labelledby="account-password">
      <h2 id="account-password">Password</h2>
      <form noValidate onSubmit={submitWith(form)}>
        <form.AppField name="currentPassword">
          {(field) => (
            <field.InputField
              label="Current password"
              type="password"
              autoComplete="current-password"
            />
          )}
        </form.AppField>
        <form.AppField name="newPassword">
          {(field) => (
            <field.InputField
              label="New password"
              type="password"
              autoComplete="new-password"
              hint={`${ACCOUNT_MESSAGES.passwordTooShort}. Your other devices will be signed out.`}
            />
          )}
        </form.AppField>
        <form.AppField name="confirm">
          {(field) => (
            <field.InputField
              label="Confirm new password"
              type="password"
              autoComplete="new-password"
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
            {submitting ? 'Saving...' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  );
}
