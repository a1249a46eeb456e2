import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from './test-dom.ts';
import { renderAt } from './test-utils.tsx';

// The API's health: Base Sepolia, and the demo payout address the demo link pays.
const DEMO_PAYOUT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
vi.stubGlobal(
  'fetch',
  vi.fn(async (url: string) =>
    String(url).endsWith('/api/health')
      ? Response.json({
          chain: { chainId: 84532, usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
          demo: { payoutAddress: DEMO_PAYOUT },
        })
      : Response.json({ error: 'not found' }, { status: 404 }),
  ),
);

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
  it('renders the landing page at / with the demo link', async () => {
    const page = await render('/');
    expect(page.querySelector('h1')?.textContent).toBe('Accept crypto payments in 60 seconds');
    const demo = await waitFor(() => {
      const link = [...page.querySelectorAll('a')].find((a) => a.textContent === 'Try Live Demo');
      if (!link) throw new Error('no demo link yet');
      return link;
    });
    const url = new URL(demo.getAttribute('href') ?? '', 'http://x');
    // Note: the demo pays the configured demo payout, never a burn address (0x…dEaD).
    expect(url.searchParams.get('paymentAddress')).toBe(DEMO_PAYOUT);
    expect(page.querySelector('[data-testid="demo-note"]')?.textContent).toBe(
      'Demo on Base Sepolia, a test network: pay with test USDC, no real money.',
    );
    expect(url.pathname).toBe('/universal-checkout');
    expect(JSON.parse(url.searchParams.get('items') ?? '')).toEqual([
      { title: 'Demo Product', priceUsdc: '0.25', quantity: 1 },
    ]);
    expect(url.searchParams.get('theme')).toBe('dark');
    expect(url.searchParams.get('accentColor')).toBe('#06b6d4');
    expect(url.searchParams.get('externalOrderId')).toMatch(/^demo-\d+-[0-9a-z]{9}$/);
    expect(page.querySelectorAll('.feature-card')).toHaveLength(6);
    // No network fee nobody measured on this chain (a test chain: its fee is no one's cost).
    await waitFor(() => {
      if (!page.textContent?.includes('Anyone with USDC on Base Sepolia')) throw new Error('chain');
    });
    expect(page.textContent).not.toMatch(
      /network fees? (?:are |is )?(?:under|about|below)|\$0\.\d/i,
    );
    expect(page.querySelectorAll('.steps > li')).toHaveLength(3);
    expect(page.querySelector('footer')?.textContent).toContain(`© ${new Date().getFullYear()}`);
    const footerLinks = [...page.querySelectorAll('footer a')].map((a) => a.getAttribute('href'));
    expect(footerLinks).toEqual([
      '/universal-checkout-docs',
      '/payment-link-builder',
      '/terms-of-service',
      '/privacy-policy',
    ]);
  });

  it('renders the 404 page for an unknown path', async () => {
    const page = await render('/no/such/page');
    expect(page.querySelector('h1')?.textContent).toBe('404 Page Not Found');
    expect(page.querySelector('a[href="/"]')).not.toBeNull();
  });

  it('asks for a store on /checkout', async () => {
    const page = await render('/checkout');
    expect(page.querySelector('h1')?.textContent).toBe('Store-specific checkout required');
    expect(page.textContent).toContain('Please access checkout through a specific store.');
    expect(page.querySelector('main a')?.textContent).toBe('Browse Stores');
  });

  it('shows the legal figures of docs/screens.md#legal-pages', async () => {
    const terms = (await render('/terms-of-service')).textContent ?? '';
    expect(terms).toContain('fees you paid us in the 12 months');
    expect(terms).toContain('within 30 days');
    expect(terms).toContain('under $10,000');
    expect(terms).toContain('at least 18 years old');
    // Who pays which network fee: the payer their own transfer, the service its forwarding and
    // deposit refunds (never "network fees are paid by the service", which the payer's is not).
    expect(terms).toContain('The payer pays the network fee of their own transfer');
    expect(terms).toContain('The service pays the network fees of moving a payment on');
    expect(terms).not.toMatch(/network fees are paid by the service/i);
    cleanup?.();
    const privacy = (await render('/privacy-policy')).textContent ?? '';
    expect(privacy).toContain('retained for up to 24 months');
    expect(privacy).toContain('purged after 12 months');
  });

  it('documents every URL parameter and the Standard Webhooks headers', async () => {
    const page = await render('/universal-checkout-docs');
    const names = [...page.querySelectorAll('.params-table th[scope="row"]')].map(
      (th) => th.textContent,
    );
    expect(names).toContain('storeName');
    expect(names).toContain('webhookUrl');
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      expect(page.textContent).toContain(header);
    }
    const demoUrl = await waitFor(() => {
      const text = page.querySelector('[data-testid="demo-url"]')?.textContent;
      if (!text) throw new Error('no demo url yet');
      return text;
    });
    expect(demoUrl).toContain('/universal-checkout?storeName=');
    expect(demoUrl).toContain(`paymentAddress=${DEMO_PAYOUT}`);
    expect(demoUrl).not.toMatch(/dead/i);
  });
});
