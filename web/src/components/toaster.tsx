// The notification region (docs/screens.md#notifications): F8 focuses it, a swipe right of 50 px
// dismisses the toast.
import { TOAST } from '@store/shared';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { dismissToast, useCurrentToast } from '../lib/toast.ts';

/** Renders the current toast in a labelled live region; mount once at the root. */
export function Toaster() {
  const toast = useCurrentToast();
  const region = useRef<HTMLElement>(null);
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === TOAST.hotkey) {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new toast starts unswiped.
  useEffect(() => setOffset(0), [toast?.id]);

  const onPointerDown = (event: PointerEvent) => {
    start.current = event.clientX;
  };
  const onPointerMove = (event: PointerEvent) => {
    if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerEnd = (event: PointerEvent) => {
    if (start.current === null) return;
    const moved = event.clientX - start.current;
    start.current = null;
    if (moved >= TOAST.swipeThresholdPx) dismissToast(toast?.id);
    else setOffset(0);
  };

  return (
    <section
      ref={region}
      className="toast-region"
      aria-label={`Notifications (${TOAST.hotkey})`}
      tabIndex={-1}
    >
      <ol aria-live="polite">
        {toast && (
          <li
            key={toast.id}
            className={`toast toast-${toast.variant}`}
            style={offset ? { transform: `translateX(${offset}px)` } : undefined}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerEnd}
            onPointerCancel={() => {
              start.current = null;
              setOffset(0);
            }}
          >
            {/* Note: the role sits inside the item, so the list keeps list items (WCAG 1.3.1). */}
            <div className="toast-body" role={toast.variant === 'destructive' ? 'alert' : 'status'}>
              <p className="toast-title">{toast.title}</p>
              {toast.description && <p className="toast-description">{toast.description}</p>}
            </div>
            <button
              type="button"
              className="toast-close"
              aria-label="Dismiss notification"
              onClick={() => dismissToast(toast.id)}
            >
              ×
            </button>
          </li>
        )}
      </ol>
    </section>
  );
}
