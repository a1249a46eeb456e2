// The store's webhook URL (saved with the API's SSRF rules: its message shows on refusal), the
// signing secret masked with Show, Copy and Rotate (both read it from the API, with the
// authenticator code once two-step verification is on), and how to verify a webhook.
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import {
  fetchWebhookSecret,
  rotateWebhookSecret,
  type WebhookSettings as Settings,
  saveWebhookUrl,
} from '../../../admin/webhooks-api.ts';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';
import { RevealableSecret, type RotateTexts } from './revealable-secret.tsx';
import { WebhookTestSender } from './webhook-test.tsx';

const ROTATE_WEBHOOK_SECRET: RotateTexts = {
  title: 'Rotate signing secret?',
  body: (
    <p>
      Webhooks will be signed with a new secret. The current one keeps working beside it for 24
      hours, so you can switch your server over without missing a webhook.
    </p>
  ),
  confirm: 'Rotate secret',
  done: {
    title: 'Signing secret rotated',
    description: 'The old secret keeps working for 24 hours.',
  },
  failure: 'Failed to rotate signing secret',
};

/** The URL form and the secret of one store, once its settings are loaded. */
export function WebhookSettings(props: {
  storeId: string;
  settings: Settings;
  onChange: (settings: Settings) => void;
}) {
  const id = useId();
  const [url, setUrl] = useState(props.settings.url ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    const value = url.trim() || null;
    try {
      const saved = await saveWebhookUrl(props.storeId, value, newIdempotencyKey());
      props.onChange(saved);
      setUrl(saved.url ?? '');
      toast({ title: saved.url ? 'Webhook URL saved' : 'Webhook URL removed' });
    } catch (failure) {
      const offline = !(failure instanceof ApiError);
      const message = offline ? 'Saving needs a connection.' : errorText(failure);
      if (!offline) setError(message);
      toastError('Failed to save webhook URL', message);
    } finally {
      setSaving(false);
    }
  };

  const { paused } = props.settings;
  return (
    <div className="webhook-settings">
      {paused && (
        <p className="notice card notice-warning" role="status" data-testid="webhook-paused">
          Sending to this URL is paused since {new Date(paused.since).toLocaleString()}: it has
          failed every attempt since {new Date(paused.failingSince).toLocaleString()} (
          {paused.failures} in a row; last: {paused.lastError ?? 'no answer'}). Its webhooks wait,
          none is lost;{' '}
          {paused.nextAttemptAt
            ? `the next try is at ${new Date(paused.nextAttemptAt).toLocaleString()}`
            : 'one is being tried now'}
          , and the rest go out by themselves once your server answers.
        </p>
      )}
      <form className="webhook-url-form" onSubmit={(event) => void save(event)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-url`}>Webhook URL</label>
          <input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://example.com/webhooks"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          />
          <p id={`${id}-hint`} className="field-hint">
            We POST order events here. HTTPS only; leave empty to stop sending.
          </p>
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="actions actions-start">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save Webhook URL'}
          </button>
        </div>
      </form>
      {props.settings.secretHint ? (
        <RevealableSecret
          label="Signing secret"
          testId="signing-secret"
          prefix="whsec_"
          hint={props.settings.secretHint}
          reveal={async (code) => (await fetchWebhookSecret(props.storeId, code)).secret}
          rotate={async (code) => {
            const rotated = await rotateWebhookSecret(props.storeId, newIdempotencyKey(), code);
            props.onChange({
              ...props.settings,
              secretHint: rotated.secret.slice(-4),
              previousSecretValidUntil: rotated.previousSecretValidUntil,
            });
            return rotated.secret;
          }}
          rotateTexts={ROTATE_WEBHOOK_SECRET}
          note={
            props.settings.previousSecretValidUntil && (
              <p className="field-hint" role="status">
                New secret in use. The old secret keeps working for 24 hours (until{' '}
                {new Date(props.settings.previousSecretValidUntil).toLocaleString()}): update your
                server before then.
              </p>
            )
          }
        />
      ) : (
        <p className="muted small">A signing secret is created when you save a URL.</p>
      )}
      <WebhookTestSender storeId={props.storeId} url={props.settings.url} />
      <VerifyNote />
    </div>
  );
}

/** How to check that a webhook came from us (Standard Webhooks). */
function VerifyNote() {
  return (
    <section className="notice card small" aria-label="Verifying webhooks">
      <h3>Verifying webhooks</h3>
      <p>
        Each request carries the Standard Webhooks headers <code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code> and <code>webhook-signature</code> (<code>v1,</code> an
        HMAC-SHA256 of <code>id.timestamp.body</code> made with your signing secret). Verify them
        with any Standard Webhooks library before trusting the body, and ignore a{' '}
        <code>webhook-id</code> you have already handled.
      </p>
      <p>
        <Link to="/universal-checkout-docs">Read the integration docs</Link>
      </p>
    </section>
  );
}
