// Builds the app's TanStack router from the generated file-route tree.
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen.ts';

// Note: search values stay plain strings. The universal checkout link carries JSON (`items`) and
// amounts ("12.90") that the default JSON-parsing search would turn into arrays and numbers.
function parseSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Creates the router; tests pass a memory history, the app uses the browser's. */
export function createAppRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    defaultPreload: 'intent',
    scrollRestoration: true,
    parseSearch,
    stringifySearch,
    // Note: a store's installed app starts at /store/{slug}/ (its manifest scope); keep the slash.
    trailingSlash: 'preserve',
  });
}

/** The app's router type, registered below for type-safe links and params. */
export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
