// Browser entry: mounts the router and the service-worker update prompt.
import { RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppRouter } from './router.tsx';
import './styles.css';

// Note: the service worker's registration (workbox-window) waits until the page has loaded and
// the browser is idle, so a first visit spends its bandwidth and main thread on the page.
const UpdatePrompt = lazy(() =>
  import('./update-prompt.tsx').then((module) => ({ default: module.UpdatePrompt })),
);

function DeferredUpdatePrompt() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const start = () => {
      const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
      idle(() => setReady(true), { timeout: 3000 });
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => window.removeEventListener('load', start);
  }, []);
  return ready ? (
    <Suspense fallback={null}>
      <UpdatePrompt />
    </Suspense>
  ) : null;
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createAppRouter()} />
    <DeferredUpdatePrompt />
  </StrictMode>,
);
