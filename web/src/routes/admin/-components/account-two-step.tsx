// The account page's two-step verification (TOTP): set up with a QR code (and the secret as text
// for typing), turned on by a code from the app, the 10 recovery codes shown this once, and turned
// off with a code. Once on, sign-in, payout address changes and API keys ask for a code.
import type { AccountSettings } from '@store/shared';
import { type FormEvent, useId, useState } from 'react';
import { disableTotp, enableTotp, setUpTotp } from '../../../account/api.ts';
import { SecondFactorField } from '../../../account/second-factor-field.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { QrCode } from '../../../components/payment/qr-code.tsx';
import { ApiError, errorText } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';

const failure = (error: unknown) =>
  error instanceof ApiError ? error.text : `Needs a connection. (${errorText(error)})`;

/** Two-step verification card of the account page. */
export function TwoStepSection(props: { account: AccountSettings; onChange: () => void }) {
  const id = useId();
  const [setup, setSetup] = useState<{ secret: string; uri: string }>();
  const [codes, setCodes] = useState<string[]>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(failure(caught));
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    run(async () => {
      setSetup(await setUpTotp());
      setCode('');
    });
  const enable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      setCodes(await enableTotp(code, password));
      setSetup(undefined);
      setCode('');
      setPassword('');
      props.onChange();
    });
  };
  const disable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      toast({ title: 'Two-step verification is off', description: await disableTotp(code) });
      setCode('');
      props.onChange();
    });
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Two-step verification</h2>
      {codes && (
        <div className="totp-setup" role="status" data-testid="recovery-codes">
          <p style={{ margin: 0 }}>
            <strong>Two-step verification is on.</strong> Save these recovery codes somewhere safe
            now: each one signs you in once if you lose your phone. You won’t see them again.
          </p>
          <ul className="recovery-codes">
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="actions actions-start">
            <CopyButton text={codes.join('\n')} label="Recovery codes" />
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setCodes(undefined)}
            >
              I saved them
            </button>
          </div>
        </div>
      )}
      {props.account.totpEnabled ? (
        <>
          <p className="account-line" style={{ margin: 0 }}>
            <span className="badge badge-success">On</span>
            <span className="muted small">
              {props.account.recoveryCodesLeft} recovery codes left. Signing in, changing a payout
              address and creating or revoking API keys ask for a code.
            </span>
          </p>
          <form onSubmit={disable} noValidate>
            <SecondFactorField value={code} onChange={setCode} error={error} />
            <div className="actions actions-start">
              <button type="submit" className="button button-quiet" disabled={busy || !code.trim()}>
                {busy ? 'Turning off...' : 'Turn off two-step verification'}
              </button>
            </div>
          </form>
        </>
      ) : setup ? (
        <form className="totp-setup" onSubmit={enable} noValidate>
          <p style={{ margin: 0 }}>
            Scan this code with an authenticator app (Google Authenticator, 1Password, Authy…), then
            enter the 6-digit code it shows.
          </p>
          <QrCode value={setup.uri} label="QR code of your two-step verification secret" />
          <p className="small" style={{ margin: 0 }}>
            Can’t scan? Enter this key in the app:{' '}
            <code className="totp-secret" data-testid="totp-secret">
              {setup.secret}
            </code>
          </p>
          <div className="field second-factor-field">
            <label htmlFor={`${id}-code`}>Code from the app</label>
            <input
              id={`${id}-code`}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-invalid={error ? true : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>Current password</label>
            <input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
          </div>
          <div className="actions actions-start">
            <button type="submit" className="button" disabled={busy || !code.trim() || !password}>
              {busy ? 'Checking...' : 'Turn on'}
            </button>
            <button
              type="button"
              className="button button-quiet"
              onClick={() => setSetup(undefined)}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="muted" style={{ margin: 0 }}>
            Off. With it on, signing in and changing where your money goes also need a code from an
            app on your phone, so a stolen password is not enough.
          </p>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions actions-start">
            <button type="button" className="button" onClick={() => void start()} disabled={busy}>
              Set up two-step verification
            </button>
          </div>
        </>
      )}
    </section>
  );
}
