// The store's signing secret: masked until Show, copied with Copy, and rotated after a
// confirmation. After a rotation the new secret shows, with how long the old one still signs.
import { useState } from 'react';
import { Modal } from '../../../admin/components/modal.tsx';
import { maskSecret } from '../../../admin/webhook-text.ts';
import { rotateWebhookSecret, type WebhookSettings } from '../../../admin/webhooks-api.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ApiError, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';

/** The secret with its actions; `onRotated` gets the settings the rotation answered. */
export function SigningSecret(props: {
  storeId: string;
  secret: string;
  previousValidUntil: string | null;
  onRotated: (settings: WebhookSettings) => void;
}) {
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);

  const rotate = async () => {
    setRotating(true);
    try {
      const settings = await rotateWebhookSecret(props.storeId, newIdempotencyKey());
      props.onRotated(settings);
      setShown(true);
      setConfirming(false);
      toast({
        title: 'Signing secret rotated',
        description: 'The old secret keeps working for 24 hours.',
      });
    } catch (error) {
      const offline = !(error instanceof ApiError);
      toastError(
        'Failed to rotate signing secret',
        offline ? 'Rotating needs a connection.' : errorText(error),
      );
    } finally {
      setRotating(false);
    }
  };

  return (
    <fieldset className="field plain-fieldset">
      <legend className="field-label">Signing secret</legend>
      <div className="secret-row">
        <code data-testid="signing-secret">{shown ? props.secret : maskSecret(props.secret)}</code>
        <div className="actions actions-start">
          <button
            type="button"
            className="button button-quiet button-small"
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          >
            {shown ? 'Hide' : 'Show'}
          </button>
          <CopyButton text={props.secret} label="Signing secret" />
          <button
            type="button"
            className="button button-quiet button-small"
            onClick={() => setConfirming(true)}
          >
            Rotate
          </button>
        </div>
      </div>
      {props.previousValidUntil && (
        <p className="field-hint" role="status">
          New secret in use. The old secret keeps working for 24 hours (until{' '}
          {new Date(props.previousValidUntil).toLocaleString()}): update your server before then.
        </p>
      )}
      <Modal title="Rotate signing secret?" open={confirming} onClose={() => setConfirming(false)}>
        <p>
          Webhooks will be signed with a new secret. The current one keeps working beside it for 24
          hours, so you can switch your server over without missing a webhook.
        </p>
        <div className="actions modal-actions">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={rotating}
            onClick={() => void rotate()}
          >
            {rotating ? 'Rotating...' : 'Rotate secret'}
          </button>
        </div>
      </Modal>
    </fieldset>
  );
}
