// Registers the service worker and offers a reload when a new version is waiting.
import { useRegisterSW } from 'virtual:pwa-register/react';

/** A small banner shown only when an updated app is ready to take over. */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError: (error) => console.error('Service worker registration failed', error),
  });

  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="status">
      <span>A new version is available.</span>
      <button type="button" className="button" onClick={() => void updateServiceWorker(true)}>
        Reload
      </button>
      <button type="button" className="button button-quiet" onClick={() => setNeedRefresh(false)}>
        Later
      </button>
    </div>
  );
}
