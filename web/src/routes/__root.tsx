// Root route: the app shell around every page, and the 404 page for any unknown path.
import { createRootRoute, Link, Outlet } from '@tanstack/react-router';

export const Route = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  return (
    <div className="app">
      <Outlet />
    </div>
  );
}

/** Shown for any path no route matches (SPEC.md §2). */
export function NotFoundPage() {
  return (
    <main className="page page-centred">
      <h1>404 Page Not Found</h1>
      <p className="muted">The page you are looking for does not exist.</p>
      <Link to="/" className="button">
        Go home
      </Link>
    </main>
  );
}
