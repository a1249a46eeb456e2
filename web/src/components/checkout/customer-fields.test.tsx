import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byText, click, typeInto, waitFor } from '../../test-dom.ts';
import { renderAt } from '../../test-utils.tsx';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  vi.unstubAllGlobals();
});

const items = encodeURIComponent(
  JSON.stringify([{ title: 'Poster', priceUsdc: '10.00', quantity: 1 }]),
);
const link = `/universal-checkout?storeName=Shop&items=${items}&paymentAddress=0x1111111111111111111111111111111111111111`;

async function render(query = '') {
  const view = await renderAt(`${link}${query}`);
  cleanup = view.unmount;
  return view;
}

const value = (page: HTMLElement, label: string) =>
  (byLabel(page, label) as HTMLInputElement | HTMLSelectElement | undefined)?.value;

describe('the country of the shipping address', () => {
  it('starts on the United States with the state select and ZIP code', async () => {
    const page = (await render()).container;
    const country = byLabel(page, 'Country') as HTMLSelectElement;
    expect(country.value).toBe('US');
    expect(country.getAttribute('autocomplete')).toBe('country');
    expect(country.options[0]?.textContent).toBe('United States');
    expect(country.options).toHaveLength(249);
    expect(byLabel(page, 'State')?.tagName).toBe('SELECT');
    expect(byLabel(page, 'ZIP code')).toBeDefined();
    expect(byLabel(page, 'Postal code')).toBeUndefined();
  });

  it("takes the link's country (any case) with a region and a postal code", async () => {
    const page = (await render('&country=gb&state=Greater%20London&zipCode=SW1A%201AA&city=London'))
      .container;
    expect(value(page, 'Country')).toBe('GB');
    const region = byLabel(page, 'State / Province / Region') as HTMLInputElement;
    expect(region.tagName).toBe('INPUT');
    expect(region.value).toBe('Greater London');
    expect(region.getAttribute('autocomplete')).toBe('address-level1');
    expect(value(page, 'Postal code')).toBe('SW1A 1AA');
    expect(byLabel(page, 'ZIP code')).toBeUndefined();
  });

  it('falls back to the United States for a country outside the list', async () => {
    const page = (await render('&country=XX')).container;
    expect(value(page, 'Country')).toBe('US');
  });

  it('empties the state when the country changes', async () => {
    const page = (await render('&state=IL')).container;
    expect(value(page, 'State')).toBe('IL');
    await typeInto(byLabel(page, 'Country') ?? null, 'DE');
    await waitFor(() => expect(value(page, 'State / Province / Region')).toBe(''));
    expect(byLabel(page, 'State')).toBeUndefined();
  });

  it('sends the country with the address; a German address needs no region', async () => {
    const bodies: { shippingAddress: Record<string, string> }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (_input, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return Response.json(
          { order: { id: 'u-order-1', reviewToken: 'b'.repeat(64) } },
          { status: 201 },
        );
      }),
    );
    const view = await render();
    const page = view.container;
    await typeInto(byLabel(page, 'Country') ?? null, 'DE');
    const fields: [string, string][] = [
      ['Email', 'grete@example.de'],
      ['Phone', '+49 30 1234567'],
      ['First name', 'Grete'],
      ['Last name', 'Müller'],
      ['Street address', 'Torstraße 1'],
      ['City', 'Berlin'],
      ['Postal code', '10115'],
    ];
    for (const [label, text] of fields) await typeInto(byLabel(page, label) ?? null, text);
    await click(byText(page, 'Continue to Payment', 'button') ?? null);
    await waitFor(() =>
      expect(view.router.state.location.pathname).toBe('/universal-payment/u-order-1'),
    );
    expect(bodies[0]?.shippingAddress).toMatchObject({
      city: 'Berlin',
      country: 'DE',
      state: '',
      zipCode: '10115',
    });
  });
});
