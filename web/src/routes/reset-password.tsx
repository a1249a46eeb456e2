// Route /reset-password?token=…: the emailed reset link. It checks the link still works, asks for
// a new password (the sign-up password rules), lists the account's API keys that still work with
// the choice to revoke them all (recovering an account is when a key may be in someone else's
// hands), and sends the merchant to sign in: the reset ended every session of the account.
import {
  ACCOUNT_MESSAGES,
  type ApiKey,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { createFileRoute, Link } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { checkResetLink, resetPassword } from '../account/api.ts';
import { useAdminForm } from '../admin/components/fields.tsx';
import { formValidator } from '../admin/form-values.ts';
import { ApiError, errorText } from '../lib/api.ts';
import { submitWith } from '../lib/form.tsx';
import '../admin/admin.css';

const SearchSchema = v.object({ token: v.optional(v.string(), '') });

/** The new password, typed twice. */
const NewPasswordForm = v.pipe(
  v.object({
    password: v.pipe(
      v.string(),
      v.nonEmpty(ACCOUNT_MESSAGES.passwordRequired),
      v.minLength(MIN_PASSWORD_LENGTH, ACCOUNT_MESSAGES.passwordTooShort),
      v.maxLength(MAX_PASSWORD_LENGTH, ACCOUNT_MESSAGES.passwordTooLong),
    ),
    confirm: v.string(),
    revokeApiKeys: v.boolean(),
  }),
  v.forward(
    v.check((form) => form.password === form.confirm, 'The two passwords do not match'),
    ['confirm'],
  ),
);

export const Route = createFileRoute('/reset-password')({
  validateSearch: valibotValidator(SearchSchema),
  component: ResetPasswordPage,
});

type LinkState =
  | 'checking'
  | { valid: ApiKey[] }
  | { invalid: string }
  | { done: { keysRevoked: boolean } };
type NewPassword = { password: string; confirm: string; revokeApiKeys: boolean };

const dateText = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString() : 'never');

function ResetPasswordPage() {
  const { token } = Route.useSearch();
  const [state, setState] = useState<LinkState>('checking');
  const [serverError, setServerError] = useState<string>();
  useEffect(() => {
    if (!token) {
      setState({ invalid: 'This link is incomplete: open the link from the email again.' });
      return;
    }
    checkResetLink(token).then(
      (apiKeys) => setState({ valid: apiKeys }),
      (error: unknown) =>
        setState({
          invalid:
            error instanceof ApiError
              ? error.text
              : 'Could not reach the server. Check your connection and open the link again.',
        }),
    );
  }, [token]);
  const form = useAdminForm({
    defaultValues: { password: '', confirm: '', revokeApiKeys: false } as NewPassword,
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: formValidator<NewPassword>(NewPasswordForm),
    },
    onSubmit: async ({ value }) => {
      setServerError(undefined);
      try {
        const keys = typeof state === 'object' && 'valid' in state ? state.valid : [];
        const revoke = value.revokeApiKeys && keys.length > 0;
        await resetPassword(token, value.password, revoke);
        setState({ done: { keysRevoked: revoke } });
      } catch (error) {
        setServerError(
          error instanceof ApiError
            ? error.text
            : `Could not reach the server. Check your connection. (${errorText(error)})`,
        );
      }
    },
  });
  const submitting = useStore(form.store, (s) => s.isSubmitting);

  return (
    <main className="page page-centred">
      <section className="card auth-card" aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {state === 'checking' && (
          <p className="loading" role="status">
            Checking your link...
          </p>
        )}
        {typeof state === 'object' && 'invalid' in state && (
          <>
            <p role="alert">{state.invalid}</p>
            <Link to="/forgot-password" className="button button-block">
              Send a new link
            </Link>
          </>
        )}
        {typeof state === 'object' && 'done' in state && (
          <>
            <p role="status">
              Your password is changed. Every device signed in to your account was signed out.
              {state.done.keysRevoked &&
                ' Your API keys were revoked: make new ones for your servers in the admin.'}
            </p>
            <Link to="/sign-in" className="button button-block">
              Sign in
            </Link>
          </>
        )}
        {typeof state === 'object' && 'valid' in state && (
          <form noValidate onSubmit={submitWith(form)}>
            <form.AppField name="password">
              {(field) => (
                <field.InputField
                  label="New password"
                  type="password"
                  autoComplete="new-password"
                  hint="At least 8 characters; a few uncommon words make a strong one."
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
            {state.valid.length > 0 && (
              <section className="reset-api-keys" aria-labelledby="reset-keys-title">
                <h2 id="reset-keys-title">Your API keys</h2>
                <p className="muted small">
                  These keys still work. If someone else may have had your password, revoke them:
                  your servers then need new keys.
                </p>
                <ul>
                  {state.valid.map((key) => (
                    <li key={key.id}>
                      <strong>{key.name}</strong> <code>{key.keyPrefix}…</code>
                      <span className="muted small">
                        {' '}
                        created {dateText(key.createdAt)}, last used {dateText(key.lastUsedAt)}
                      </span>
                    </li>
                  ))}
                </ul>
                <form.AppField name="revokeApiKeys">
                  {(field) => (
                    <field.CheckboxField
                      label={`Also revoke ${state.valid.length === 1 ? 'this API key' : `all ${state.valid.length} API keys`}`}
                    />
                  )}
                </form.AppField>
              </section>
            )}
            {serverError && (
              <p className="field-error" role="alert">
                {serverError}
              </p>
            )}
            <button type="submit" className="button button-block" disabled={submitting}>
              {submitting ? 'Saving...' : 'Set new password'}
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
