// The sign-in and sign-up pages' form: username and password (and at sign-up the email the
// account is recovered with) validated by the shared account schemas, the server's answer (wrong
// password, taken username) shown in the form, the authenticator code asked once the account has
// two-step verification, and on success the page the merchant was sent from (the `redirect`
// search value) or the dashboard.
import { CredentialsSchema, SignUpFormSchema } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { Link, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { secondFactorAsked } from '../../account/api.ts';
import { ApiError, errorText } from '../../lib/api.ts';
import { submitWith } from '../../lib/form.tsx';
import { formValidator } from '../form-values.ts';
import { safeRedirect, startSession } from '../session.ts';
import { useAdminForm } from './fields.tsx';
import '../admin.css';

type Credentials = { username: string; password: string; email: string; code: string };

const TEXTS = {
  'sign-in': {
    title: 'Sign in',
    lead: 'Manage your stores, products and orders.',
    submit: 'Sign in',
    pending: 'Signing in...',
    other: { text: 'New here?', link: 'Create an account', to: '/sign-up' },
  },
  'sign-up': {
    title: 'Create your merchant account',
    lead: 'Pick a username and a password. Your email lets you reset a forgotten password.',
    submit: 'Create account',
    pending: 'Creating account...',
    other: { text: 'Already have an account?', link: 'Sign in', to: '/sign-in' },
  },
} as const;

/** The whole auth page of `mode`. */
export function AuthForm(props: { mode: 'sign-in' | 'sign-up'; redirect: string | undefined }) {
  const texts = TEXTS[props.mode];
  const router = useRouter();
  const [serverError, setServerError] = useState<string>();
  // Note: set once the password was right and the account asked for its authenticator code.
  const [askCode, setAskCode] = useState(false);
  const [codeAsked, setCodeAsked] = useState<string>();
  const form = useAdminForm({
    defaultValues: { username: '', password: '', email: '', code: '' },
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: formValidator<Credentials>(
        props.mode === 'sign-up' ? SignUpFormSchema : CredentialsSchema,
      ),
    },
    onSubmit: async ({ value }) => {
      setServerError(undefined);
      const { email, code, ...credentials } = value;
      try {
        const body = {
          ...credentials,
          ...(props.mode === 'sign-up' ? { email } : {}),
          ...(askCode && code.trim() ? { code: code.trim() } : {}),
        };
        await startSession(props.mode, body);
        // Note: the history takes the whole path with its search, as the guard recorded it.
        router.history.push(safeRedirect(props.redirect));
      } catch (error) {
        const asked = props.mode === 'sign-in' ? secondFactorAsked(error) : undefined;
        if (asked) setAskCode(true);
        // Note: the first ask for the code is a step of signing in, not an error.
        setCodeAsked(asked === 'required' && error instanceof ApiError ? error.text : undefined);
        if (asked === 'required') return;
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
      <section className="card auth-card" aria-labelledby="auth-title">
        <h1 id="auth-title">{texts.title}</h1>
        <p className="muted">{texts.lead}</p>
        <form noValidate onSubmit={submitWith(form)}>
          <form.AppField name="username">
            {(field) => <field.InputField label="Username" autoComplete="username" />}
          </form.AppField>
          {props.mode === 'sign-up' && (
            <form.AppField name="email">
              {(field) => (
                <field.InputField
                  label="Email"
                  type="email"
                  autoComplete="email"
                  hint="We send a link to verify it. Only for your account: never shown to shoppers."
                />
              )}
            </form.AppField>
          )}
          <form.AppField name="password">
            {(field) => (
              <field.InputField
                label="Password"
                type="password"
                autoComplete={props.mode === 'sign-up' ? 'new-password' : 'current-password'}
              />
            )}
          </form.AppField>
          {askCode && (
            <form.AppField name="code">
              {(field) => (
                <field.InputField
                  label="Authenticator code"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  hint="The 6-digit code from your authenticator app, or one of your recovery codes."
                />
              )}
            </form.AppField>
          )}
          {codeAsked && (
            <p className="muted" role="status" style={{ margin: 0 }}>
              {codeAsked}
            </p>
          )}
          {serverError && (
            <p className="field-error" role="alert">
              {serverError}
            </p>
          )}
          <button type="submit" className="button button-block" disabled={submitting}>
            {submitting ? texts.pending : texts.submit}
          </button>
        </form>
        {props.mode === 'sign-in' && (
          <p className="small" style={{ margin: 0 }}>
            <Link to="/forgot-password">Forgot password?</Link>
          </p>
        )}
        <p className="muted small">
          {texts.other.text}{' '}
          <Link to={texts.other.to} search={props.redirect ? { redirect: props.redirect } : {}}>
            {texts.other.link}
          </Link>
        </p>
        <Link to="/" className="small">
          Home
        </Link>
      </section>
    </main>
  );
}
