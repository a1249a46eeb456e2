import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byText, click, typeInto, waitFor } from '../../../test-dom.ts';
import { renderAt } from '../../../test-utils.tsx';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  document.documentElement.removeAttribute('style');
});

async function render(path: string) {
  const view = await renderAt(path);
  cleanup = view.unmount;
  return view.container;
}

const items = encodeURIComponent(
  JSON.stringify([{ title: 'Poster', priceUsdc: '10.00', quantity: 2 }]),
);
const address = '0x1111111111111111111111111111111111111111';

describe('/universal-checkout', () => {
  it('shows the Checkout Error card with the required URL format for a bad link', async () => {
    const page = await render(
      `/universal-checkout?storeName=Shop&items=${items}&paymentAddress=0x12`,
    );
    expect(page.querySelector('h1')?.textContent).toBe('Checkout Error');
    expect(page.textContent).toContain(
      'Invalid payment address format. Must be a valid Ethereum address.',
    );
    expect(page.querySelector('pre')?.textContent).toContain('/universal-checkout?storeName=');
    expect(byText(page, 'Go Home', 'a')?.getAttribute('href')).toBe('/');
  });

  it('reads the link: store name, pre-fill, summary and the default shipping method', async () => {
    const page = await render(
      `/universal-checkout?storeName=Nebula%20Prints&items=${items}&paymentAddress=${address}` +
        '&shipping=true&standardShipping=8.99&customerEmail=grace%40example.com&theme=light&primaryColor=%23ff0000',
    );
    expect(page.querySelector('h1')?.textContent).toBe('Nebula Prints');
    expect((byLabel(page, 'Email') as HTMLInputElement).value).toBe('grace@example.com');
    const checked = page.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    expect(checked?.value).toBe('standard');
    // No free option without freeShipping.
    expect(
      [...page.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((r) => r.value),
    ).toEqual(['standard', 'express']);
    expect(page.querySelector('[data-testid="order-total"]')?.textContent).toBe('28.99 USDC');
    expect(byText(page, 'Continue to Payment', 'button')).toBeDefined();
    expect(document.documentElement.classList.contains('light')).toBe(true);
    expect(document.documentElement.style.getPropertyValue('--primary')).toBe('#ff0000');
  });
});

describe('universal order submission', () => {
  it('posts the order with its metadata and goes to the universal payment page', async () => {
    const bodies: Record<string, unknown>[] = [];
    const fetchMock = vi.fn<typeof fetch>(async (_input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return Response.json(
        { order: { id: 'u-order-1', reviewToken: 'b'.repeat(64) } },
        { status: 201 },
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    const view = await renderAt(
      `/universal-checkout?storeName=Nebula&items=${items}&paymentAddress=${address}` +
        '&externalOrderId=ORDER-7&returnUrl=https%3A%2F%2Fshop.example%2Fdone',
    );
    cleanup = view.unmount;
    const page = view.container;
    const fields: [string, string][] = [
      ['Email', 'grace@example.com'],
      ['Phone', '555'],
      ['First name', 'Grace'],
      ['Last name', 'Hopper'],
      ['Street address', '1 Navy Yard'],
      ['City', 'Arlington'],
      ['State', 'VA'],
      ['ZIP code', '22202'],
    ];
    for (const [label, value] of fields) await typeInto(byLabel(page, label) ?? null, value);
    await click(byText(page, 'Continue to Payment', 'button') ?? null);
    await waitFor(() =>
      expect(view.router.state.location.pathname).toBe('/universal-payment/u-order-1'),
    );
    expect(bodies[0]).toMatchObject({
      storeName: 'Nebula',
      storePaymentAddress: address,
      externalOrderId: 'ORDER-7',
      totalUsdc: '20.00',
      shippingUsdc: '0.00',
      status: 'pending',
      // Only the link's branding: the server builds the rest of the metadata itself.
      metadata: { returnUrl: 'https://shop.example/done' },
    });
    const [, init] =
      fetchMock.mock.calls.find(([url]) => !String(url).includes('/api/health')) ?? [];
    expect((init?.headers as Record<string, string> | undefined)?.['idempotency-key']).toBeTruthy();
    vi.unstubAllGlobals();
  });
});
