// Test helper: renders the app router at a path in jsdom, without a browser.
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppRouter } from './router.tsx';

/** Mounts the router at `path`, waits for it to settle, and returns a cleanup. */
export async function renderAt(path: string) {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  await act(async () => {
    await router.load();
    root.render(<RouterProvider router={router} />);
  });
  return {
    router,
    container,
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}
