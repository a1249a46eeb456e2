// A signing secret of the store (the webhook's, the payment links'): masked until Show reads it
// from the API, which asks for an authenticator code once the account has two-step verification
// on; copied with Copy once shown; rotated after a confirmation (with the code too). The secret is
// read only when asked for, and only kept in this component's state.
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { SecondFactorField } from '../../../account/second-factor-field.tsx';
import { useSecondFactor } from '../../../account/use-second-factor.ts';
import { Modal } from '../../../admin/components/modal.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ApiError, errorText } from '../../../lib/api.ts';
import { toast, toastError } from '../../../lib/toast.ts';

/** The rotation's confirmation and outcome texts. */
export interface RotateTexts {
  title: string;
  body: ReactNode;
  confirm: string;
  done: { title: string; description: string };
  failure: string;
}

/** One secret with its actions. */
export function RevealableSecret(props: {
  /** The legend ("Signing secret") and the test id of the shown text. */
  label: string;
  testId: string;
  /** The secret's prefix and last 4 characters, shown around the mask (hint: none known). */
  prefix: string;
  hint: string | null;
  /** Reads the secret (with the code, when one is asked). */
  reveal: (code: string | undefined) => Promise<string>;
  /** Makes a new secret and answers it. */
  rotate: (code: string | undefined) => Promise<string>;
  rotateTexts: RotateTexts;
  /** Shown under the secret (how long the old one still works). */
  note?: ReactNode;
}) {
  const id = useId();
  const factor = useSecondFactor();
  const [secret, setSecret] = useState<string>();
  const [shown, setShown] = useState(false);
  const [asking, setAsking] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const masked = `${props.prefix}${'•'.repeat(12)}${props.hint ?? ''}`;

  const reveal = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    factor.setError(undefined);
    try {
      setSecret(await props.reveal(factor.codeToSend));
      setShown(true);
      setAsking(false);
      factor.clear();
    } catch (error) {
      if (factor.refused(error)) setAsking(true);
      else
        toastError(
          `Failed to show ${props.label.toLowerCase()}`,
          error instanceof ApiError ? errorText(error) : 'Showing it needs a connection.',
        );
    } finally {
      setBusy(false);
    }
  };

  const show = () => {
    if (secret !== undefined) setShown(!shown);
    else if (factor.needed) setAsking(true);
    else void reveal();
  };

  const rotate = async () => {
    setBusy(true);
    factor.setError(undefined);
    try {
      setSecret(await props.rotate(factor.codeToSend));
      setShown(true);
      setConfirming(false);
      factor.clear();
      toast(props.rotateTexts.done);
    } catch (error) {
      if (!factor.refused(error))
        toastError(
          props.rotateTexts.failure,
          error instanceof ApiError ? errorText(error) : 'Rotating needs a connection.',
        );
    } finally {
      setBusy(false);
    }
  };

  const cancelAsking = () => {
    setAsking(false);
    factor.clear();
  };

  return (
    <fieldset className="field plain-fieldset">
      <legend className="field-label">{props.label}</legend>
      <div className="secret-row">
        <code data-testid={props.testId}>{shown && secret ? secret : masked}</code>
        <div className="actions actions-start">
          <button
            type="button"
            className="button button-quiet button-small"
            aria-pressed={secret !== undefined ? shown : undefined}
            aria-expanded={secret === undefined && factor.needed ? asking : undefined}
            aria-controls={secret === undefined && factor.needed ? `${id}-ask` : undefined}
            disabled={busy && !confirming}
            onClick={show}
          >
            {shown ? 'Hide' : 'Show'}
          </button>
          {secret !== undefined && <CopyButton text={secret} label={props.label} />}
          <button
            type="button"
            className="button button-quiet button-small"
            onClick={() => {
              setAsking(false);
              setConfirming(true);
            }}
          >
            Rotate
          </button>
        </div>
      </div>
      {asking && !confirming && (
        <form
          id={`${id}-ask`}
          className="secret-code-form"
          onSubmit={(event) => void reveal(event)}
          noValidate
        >
          <SecondFactorField value={factor.code} onChange={factor.setCode} error={factor.error} />
          <div className="actions actions-start">
            <button type="submit" className="button button-small" disabled={busy}>
              {busy ? 'Checking...' : `Show ${props.label.toLowerCase()}`}
            </button>
            <button
              type="button"
              className="button button-quiet button-small"
              onClick={cancelAsking}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {props.note}
      <Modal
        title={props.rotateTexts.title}
        open={confirming}
        onClose={() => {
          setConfirming(false);
          factor.clear();
        }}
      >
        {props.rotateTexts.body}
        {factor.needed && (
          <SecondFactorField value={factor.code} onChange={factor.setCode} error={factor.error} />
        )}
        <div className="actions modal-actions">
          <button
            type="button"
            className="button button-quiet"
            onClick={() => {
              setConfirming(false);
              factor.clear();
            }}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => void rotate()}
          >
            {busy ? 'Rotating...' : props.rotateTexts.confirm}
          </button>
        </div>
      </Modal>
    </fieldset>
  );
}
