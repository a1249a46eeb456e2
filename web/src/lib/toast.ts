// Toast store (docs/screens.md#notifications): one toast at a time, a new one replaces the current,
// 5000 ms each. A tiny external store so any module (hooks, mutations) can raise a toast without a
// context.
import { TOAST } from '@store/shared';
import { useSyncExternalStore } from 'react';

/** One notification. */
export interface Toast {
  id: number;
  title: string;
  description?: string;
  /** Destructive toasts are the failures (docs/messages.md#failure-toasts). */
  variant: 'default' | 'destructive';
  /**
   * The path of the page the toast speaks of ("Added to cart" on a product page): it goes once the
   * shopper leaves that page, so it never covers the next one (Buy Now opens the checkout at once).
   */
  page?: string;
}

/** What a caller passes to `toast`. */
export type ToastInput = Omit<Toast, 'id' | 'variant'> & { variant?: Toast['variant'] };

let current: Toast | null = null;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function publish(next: Toast | null) {
  current = next;
  for (const listener of listeners) listener();
}

/** Shows a toast, replacing the one on screen, and hides it after TOAST.durationMs. */
export function toast(input: ToastInput): Toast {
  const shown: Toast = { variant: 'default', ...input, id: nextId++ };
  clearTimeout(timer);
  timer = setTimeout(() => dismissToast(shown.id), TOAST.durationMs);
  publish(shown);
  return shown;
}

/** Shows a destructive (failure) toast. */
export function toastError(title: string, description?: string): Toast {
  return toast(
    description === undefined
      ? { title, variant: 'destructive' }
      : { title, description, variant: 'destructive' },
  );
}

/** Hides the toast with this id (or whatever is shown when no id is given). */
export function dismissToast(id?: number): void {
  if (current === null || (id !== undefined && current.id !== id)) return;
  clearTimeout(timer);
  publish(null);
}

/** Hides the toast when it speaks of another page than `path` (called on every navigation). */
export function leavePage(path: string): void {
  if (current?.page !== undefined && current.page !== path) dismissToast(current.id);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toast on screen, or null. */
export function useCurrentToast(): Toast | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
