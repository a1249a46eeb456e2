// Root route: the app shell around every page (notifications, offline banner) and the 404 page.
import { PAGE_TEXTS } from '@store/shared';
import { createRootRoute, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { OfflineBanner } from '../components/offline-banner.tsx';
import { Toaster } from '../components/toaster.tsx';
import { leavePage } from '../lib/toast.ts';

export const Route = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  const path = useRouterState({ select: (state) => state.location.pathname });
  // Note: a toast about one page (an add to cart) goes when the shopper leaves it.
  useEffect(() => leavePage(path), [path]);
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <OfflineBanner />
      <div id="main">
        <Outlet />
      </div>
      <Toaster />
    </div>
  );
}

/** Shown for any path no route matches (docs/screens.md#not-found-page). */
export function NotFoundPage() {
  return (
    <main className="page page-centred">
      <h1>{PAGE_TEXTS.notFound}</h1>
      <p className="muted">The page you are looking for does not exist.</p>
      <Link to="/" className="button">
        Go home
      </Link>
    </main>
  );
}
