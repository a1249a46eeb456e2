import { afterEach, describe, expect, it } from 'vitest';
import { renderAt } from './test-utils.tsx';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

async function render(path: string) {
  const view = await renderAt(path);
  cleanup = view.unmount;
  return view.container;
}

describe('routes', () => {
  it('renders the home page at /', async () => {
    const page = await render('/');
    expect(page.querySelector('h1')?.textContent).toBe('USDC Storefront');
    const hrefs = [...page.querySelectorAll('nav a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/universal-checkout-docs', '/payment-link-builder', '/admin']);
  });

  it('renders the 404 page for an unknown path', async () => {
    const page = await render('/no/such/page');
    expect(page.querySelector('h1')?.textContent).toBe('404 Page Not Found');
    expect(page.querySelector('a[href="/"]')).not.toBeNull();
  });
});
