// Whether the app can reach its API: the browser's own online flag, and what the last request
// saw. Note: navigator.onLine stays true behind a dead network (and under emulated offline), so
// a request that failed to get any answer counts as offline until one succeeds.
import { useSyncExternalStore } from 'react';

let unreachable = false;
const listeners = new Set<() => void>();

function publish(next: boolean) {
  if (next === unreachable) return;
  unreachable = next;
  for (const listener of listeners) listener();
}

/** Records a request that got no answer at all (a network error, not an HTTP error). */
export function reportNetworkFailure(): void {
  publish(true);
}

/** Records a request that got an answer. */
export function reportNetworkSuccess(): void {
  publish(false);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** True while the browser says offline or the last request could not reach the server. */
export function useOffline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => unreachable || !navigator.onLine,
    () => false,
  );
}
