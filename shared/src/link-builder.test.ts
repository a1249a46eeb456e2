import { describe, expect, it } from 'vitest';
import { parseCheckoutParams } from './checkout-url.ts';
import {
  buildCheckoutUrl,
  type LinkBuilderState,
  linkBuilderIssues,
  validateLinkBuilder,
} from './link-builder.ts';

// Note: all lowercase (no checksum); a mixed-case address must pass its EIP-55 checksum.
const ADDRESS = '0x742d35cc6634c0532925a3b844bc9e7595f0beb0';

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

describe('validateLinkBuilder (the order of docs/rules.md#link-builder)', () => {
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

  it('accepts the complete builder', () => {
    expect(linkBuilderIssues(builder)).toEqual([]);
  });
});

describe('linkBuilderIssues: what the builder builds', () => {
  const item = (patch: Record<string, string>) => ({
    title: 'Poster',
    priceUsdc: '10',
    quantity: '1',
    ...patch,
  });

  it.each([
    [
      { paymentAddress: '0xnot-an-address' },
      'paymentAddress',
      'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
    ],
    [
      { paymentAddress: '0x742d35Cc6634C0532925a3b844Bc9e7595f0bEb0' },
      'paymentAddress',
      'This address has mixed-case letters that fail its checksum: a character may be mistyped',
    ],
    [
      { paymentAddress: `0x${'0'.repeat(40)}` },
      'paymentAddress',
      'The zero address cannot receive payouts: USDC sent there is lost',
    ],
    [
      { webhookUrl: 'not a url' },
      'webhookUrl',
      'Webhook URL must be a full URL such as https://shop.example.com/webhooks',
    ],
    [
      { webhookUrl: 'http://shop.example.com/hook' },
      'webhookUrl',
      'Webhook URL must start with https:// (http is only allowed for localhost)',
    ],
    [
      { webhookUrl: 'ftp://shop.example.com/hook' },
      'webhookUrl',
      'Webhook URL must be a full URL such as https://shop.example.com/webhooks',
    ],
    [
      { items: [item({ priceUsdc: '-3' })] },
      'items.0.priceUsdc',
      'Price must be a positive number',
    ],
    [{ items: [item({ priceUsdc: '0' })] }, 'items.0.priceUsdc', 'Price must be a positive number'],
    [
      { items: [item({ priceUsdc: '1.234' })] },
      'items.0.priceUsdc',
      'Price must be a positive number',
    ],
    [
      { items: [item({}), item({ quantity: '0' })] },
      'items.1.quantity',
      'Quantity must be a whole number of at least 1',
    ],
    [
      { items: [item({ quantity: '1.5' })] },
      'items.0.quantity',
      'Quantity must be a whole number of at least 1',
    ],
    [
      { items: [item({ imageUrl: 'javascript:alert(1)' })] },
      'items.0.imageUrl',
      'Image URL must be an http(s) URL',
    ],
    [{ accentColor: 'pink' }, 'accentColor', 'Must be a valid hex color'],
    [{ returnUrl: 'javascript:alert(1)' }, 'returnUrl', 'Return URL must be an http(s) URL'],
    [{ logoUrl: 'not a logo' }, 'logoUrl', 'Logo must be an http(s) URL or an emoji'],
    [
      { standardShipping: '-1' },
      'standardShipping',
      'Shipping price must be a number of at least 0 with at most 2 decimals',
    ],
    [{ prefill: { customerEmail: 'nope' } }, 'prefill.customerEmail', 'Invalid email address'],
  ] as const)('%j -> %s: %s', (patch, field, message) => {
    expect(linkBuilderIssues({ ...builder, ...patch })).toEqual([{ field, message }]);
  });

  it('lists the required-field messages first, then the format checks', () => {
    const issues = linkBuilderIssues({
      ...builder,
      storeName: '',
      paymentAddress: '0xnot-an-address',
      webhookUrl: 'not a url',
      items: [item({ priceUsdc: '-3' })],
    });
    expect(issues.map((issue) => issue.field)).toEqual([
      'storeName',
      'paymentAddress',
      'webhookUrl',
      'items.0.priceUsdc',
    ]);
    expect(validateLinkBuilder({ ...builder, paymentAddress: '0xnot-an-address' })).toEqual({
      ok: false,
      error: 'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
    });
  });

  it('allows http webhooks to this machine, for local testing', () => {
    expect(linkBuilderIssues({ ...builder, webhookUrl: 'http://127.0.0.1:9/hook' })).toEqual([]);
    expect(linkBuilderIssues({ ...builder, webhookUrl: 'http://localhost:3000/hook' })).toEqual([]);
  });

  it('leaves incomplete rows alone and an empty quantity falls back to 1', () => {
    expect(
      linkBuilderIssues({
        ...builder,
        items: [item({ quantity: '' }), { title: '', priceUsdc: '-3', quantity: '0' }],
      }),
    ).toEqual([]);
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
    expect(() =>
      buildCheckoutUrl('https://x.test', {
        ...builder,
        items: [{ title: 'A', priceUsdc: '-3', quantity: '1' }],
      }),
    ).toThrow('Price must be a positive number');
  });
});
