// A modal dialog usable from the keyboard: focus moves in on open, Tab and Shift+Tab stay inside,
// Esc (or the close button, or a click on the backdrop) closes, and focus returns to the opener.
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

/** A dialog titled `title`; rendered only while `open`. */
export function Modal(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const { open } = props;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const root = panel.current;
    // Note: the first field, not the close button, so typing can start at once.
    const first = root && (focusables(root).find((el) => el.tagName !== 'BUTTON') ?? root);
    first?.focus();
    return () => opener?.focus?.();
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      props.onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = focusables(panel.current);
    const firstItem = items[0];
    const lastItem = items.at(-1);
    if (!firstItem || !lastItem) return;
    if (event.shiftKey && document.activeElement === firstItem) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && document.activeElement === lastItem) {
      event.preventDefault();
      firstItem.focus();
    }
  };

  return createPortal(
    // biome-ignore lint/a11y/noStaticElementInteractions: a mouse shortcut; Esc and the close button are the keyboard's way out.
    <div
      role="presentation"
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) props.onClose();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`modal card${props.wide ? ' modal-wide' : ''}`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="modal-header">
          <h2 id={titleId}>{props.title}</h2>
          <button
            type="button"
            className="button button-quiet button-small"
            aria-label="Close dialog"
            onClick={props.onClose}
          >
            ×
          </button>
        </header>
        {props.children}
      </div>
    </div>,
    document.body,
  );
}

/** A dialog form's Cancel and submit buttons; the submit says 'Saving...' while it runs. */
export function ModalFormActions(props: {
  onCancel: () => void;
  submitting: boolean;
  submitLabel: string;
}) {
  return (
    <div className="actions modal-actions">
      <button type="button" className="button button-quiet" onClick={props.onCancel}>
        Cancel
      </button>
      <button type="submit" className="button" disabled={props.submitting}>
        {props.submitting ? 'Saving...' : props.submitLabel}
      </button>
    </div>
  );
}
