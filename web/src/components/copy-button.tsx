// Copies a text to the clipboard and says so for two seconds; a failure raises a toast.
import { useState } from 'react';
import { toastError } from '../lib/toast.ts';

/** A button that copies `text`; `label` names what is copied for screen readers and the toast. */
export function CopyButton(props: {
  text: string;
  label: string;
  failureTitle?: string;
  className?: string;
  children?: string;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toastError(props.failureTitle ?? `Failed to copy ${props.label.toLowerCase()}`);
    }
  };
  return (
    <button
      type="button"
      className={props.className ?? 'button button-quiet button-small'}
      onClick={() => void copy()}
      aria-label={copied ? `${props.label} copied` : `Copy ${props.label.toLowerCase()}`}
    >
      <span aria-live="polite">{copied ? 'Copied!' : (props.children ?? 'Copy')}</span>
    </button>
  );
}
