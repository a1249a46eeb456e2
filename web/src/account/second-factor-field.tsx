// The "Authenticator code" field of a change that needs a fresh second-factor code (payout
// address, API keys) once the account has two-step verification on.
import { useId } from 'react';
import './account.css';

/** A labelled one-time-code input; `error` is the server's refusal of the last code. */
export function SecondFactorField(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="field second-factor-field">
      <label htmlFor={id}>Authenticator code</label>
      <input
        id={id}
        name="totp-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={20}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
      />
      <p id={`${id}-hint`} className="field-hint">
        Two-step verification is on: the 6-digit code from your authenticator app, or a recovery
        code.
      </p>
      {props.error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
