// A thin banner while the app cannot reach the server: cached stores and carts still work.
import { useOffline } from '../lib/connectivity.ts';

/** Shown at the top of every page while offline. */
export function OfflineBanner() {
  const offline = useOffline();
  if (!offline) return null;
  return (
    <p className="offline-banner" role="status">
      You're offline. Stores you visited and your cart still work; checkout and payment need a
      connection.
    </p>
  );
}
