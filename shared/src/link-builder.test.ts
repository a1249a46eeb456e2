import { describe, expect, it } from 'vitest';
import { parseCheckoutParams } from './checkout-url.ts';
import { buildCheckoutUrl, type LinkBuilderState, validateLinkBuilder } from './link-builder.ts';

const ADDRESS = '0x742d35Cc6634C0532925a3b844Bc9e7595f0bEb0';

const builder: LinkBuilderState = {
  storeName: 'External Shop & Co',
  paymentAddress: ADDRESS,
  externalOrderId: 'ORDER-1732000000000-ABC123XYZ',
  webhookUrl: 'https://shop.example.com/hooks/usdc?token=a+b',
  items: [
    { title: 'Tee "Classic"', priceUsdc: '19.99', quantity: '2' },
    { title: '', priceUsdc: '5.00', quantity: '1' },
    { title: 'Sticker', priceUsdc: '', quantity: '1' },
    { title: 'Mug', priceUsdc: '8.5', quantity: '' },
  ],
  theme: 'light',
  primaryColor: '#112233',
  accentColor: '#abc',
  returnUrl: 'https://shop.example.com/done',
  shippingEnabled: true,
  freeShipping: false,
  standardShipping: '8.99',
  expressShipping: '',
  prefill: { customerEmail: 'ada@example.com', city: 'Springfield', phone: '' },
};

describe('validateLinkBuilder (SPEC §5 order)', () => {
  it.each([
    [{ storeName: ' ', paymentAddress: '' }, 'Store name is required'],
    [{ paymentAddress: '', externalOrderId: '' }, 'Payment address is required'],
    [{ externalOrderId: '', webhookUrl: '' }, 'External order ID is required'],
    [{ webhookUrl: '', items: [] }, 'Webhook URL is required'],
    [{ items: [] }, 'At least one complete item is required'],
    [
      { items: [{ title: 'A', priceUsdc: '', quantity: 1 }] },
      'At least one complete item is required',
    ],
    [
      { items: [{ title: '', priceUsdc: '1', quantity: 1 }] },
      'At least one complete item is required',
    ],
  ])('%j -> %s', (patch, message) => {
    expect(validateLinkBuilder({ ...builder, ...patch })).toEqual({ ok: false, error: message });
  });

  it('does not check the payment address format', () => {
    expect(validateLinkBuilder({ ...builder, paymentAddress: 'not-an-address' })).toEqual({
      ok: true,
      value: true,
    });
  });
});

describe('buildCheckoutUrl', () => {
  it('round-trips through parseCheckoutParams with only complete items', () => {
    const url = new URL(buildCheckoutUrl('https://pay.example.com/', builder));
    expect(url.origin + url.pathname).toBe('https://pay.example.com/universal-checkout');
    expect(parseCheckoutParams(url.search)).toEqual({
      ok: true,
      value: {
        storeName: 'External Shop & Co',
        items: [
          { title: 'Tee "Classic"', priceUsdc: '19.99', quantity: 2 },
          { title: 'Mug', priceUsdc: '8.5', quantity: 1 },
        ],
        paymentAddress: ADDRESS,
        externalOrderId: 'ORDER-1732000000000-ABC123XYZ',
        webhookUrl: 'https://shop.example.com/hooks/usdc?token=a+b',
        theme: 'light',
        primaryColor: '#112233',
        accentColor: '#abc',
        returnUrl: 'https://shop.example.com/done',
        shipping: true,
        freeShipping: false,
        standardShipping: '8.99',
        customerEmail: 'ada@example.com',
        city: 'Springfield',
      },
    });
  });

  it('adds shipping parameters only when shipping is enabled, freeShipping only when checked', () => {
    const off = new URL(buildCheckoutUrl('https://x.test', { ...builder, shippingEnabled: false }));
    for (const name of ['shipping', 'freeShipping', 'standardShipping', 'expressShipping']) {
      expect(off.searchParams.has(name)).toBe(false);
    }
    const free = new URL(buildCheckoutUrl('https://x.test', { ...builder, freeShipping: true }));
    expect(free.searchParams.get('freeShipping')).toBe('true');
    expect(free.searchParams.has('expressShipping')).toBe(false);
    expect(
      new URL(buildCheckoutUrl('https://x.test', builder)).searchParams.has('freeShipping'),
    ).toBe(false);
  });

  it('refuses to build an invalid link', () => {
    expect(() => buildCheckoutUrl('https://x.test', { ...builder, webhookUrl: '' })).toThrow(
      'Webhook URL is required',
    );
  });
});
