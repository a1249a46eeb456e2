import { describe, expect, it } from 'vitest';
import { buildDemoCheckoutUrl, parseCheckoutParams } from './checkout-url.ts';

const ADDRESS = '0x742d35Cc6634C0532925a3b844Bc9e7595f0bEb0';
const ITEMS = JSON.stringify([{ title: 'Tee', priceUsdc: '10.00', quantity: 2 }]);

/** A query string from pairs, encoded the way browsers do. */
function query(pairs: Record<string, string>) {
  return new URLSearchParams(pairs).toString();
}

const required = { storeName: 'Shop', items: ITEMS, paymentAddress: ADDRESS };

/** The error of parsing `pairs`, or 'ok'. */
function parseError(pairs: Record<string, string>) {
  const result = parseCheckoutParams(query(pairs));
  return result.ok ? 'ok' : result.error;
}

describe('parseCheckoutParams errors (docs/messages.md#checkout-link-errors)', () => {
  const missing = 'Missing required parameters: storeName, items, and paymentAddress are required';

  it.each(['storeName', 'items', 'paymentAddress'])('requires %s', (name) => {
    expect(parseError({ ...required, [name]: '' })).toBe(missing);
    const { [name as keyof typeof required]: _, ...rest } = required;
    expect(parseError(rest)).toBe(missing);
  });

  it('rejects items that are not JSON', () => {
    for (const items of ['[{title:1}]', 'not json', '[']) {
      expect(parseError({ ...required, items })).toBe(
        'Invalid items format. Items must be valid JSON array.',
      );
    }
  });

  it('rejects a malformed payment address', () => {
    for (const paymentAddress of [
      '0x123',
      ADDRESS.slice(2),
      `${ADDRESS}a`,
      `0x${'z'.repeat(40)}`,
    ]) {
      expect(parseError({ ...required, paymentAddress })).toBe(
        'Invalid payment address format. Must be a valid Ethereum address.',
      );
    }
  });

  it('checks items JSON before the address, and both after presence', () => {
    expect(parseError({ ...required, items: 'x', paymentAddress: 'bad' })).toBe(
      'Invalid items format. Items must be valid JSON array.',
    );
    expect(parseError({ storeName: '', items: 'x', paymentAddress: 'bad' })).toBe(missing);
  });

  it.each([
    ['items not an array', { items: '{"title":"Tee"}' }],
    ['empty items', { items: '[]' }],
    ['numeric price', { items: '[{"title":"Tee","priceUsdc":10,"quantity":1}]' }],
    ['negative price', { items: '[{"title":"Tee","priceUsdc":"-1","quantity":1}]' }],
    ['3-decimal price', { items: '[{"title":"Tee","priceUsdc":"1.001","quantity":1}]' }],
    ['string quantity', { items: '[{"title":"Tee","priceUsdc":"1","quantity":"1"}]' }],
    ['zero quantity', { items: '[{"title":"Tee","priceUsdc":"1","quantity":0}]' }],
    ['missing title', { items: '[{"priceUsdc":"1","quantity":1}]' }],
    ['bad theme', { theme: 'blue' }],
    ['bad colour', { accentColor: 'cyan' }],
    ['bad boolean', { shipping: 'yes' }],
    ['bad shipping price', { standardShipping: 'abc' }],
    ['script return URL', { returnUrl: 'javascript:alert(1)' }],
    ['bad webhook URL', { webhookUrl: 'not a url' }],
  ])('fails generically on %s', (_, patch) => {
    expect(parseError({ ...required, ...patch })).toBe('Failed to parse checkout parameters');
  });
});

describe('parseCheckoutParams values', () => {
  it('parses the minimum link with shipping off', () => {
    expect(parseCheckoutParams(`?${query(required)}`)).toEqual({
      ok: true,
      value: {
        storeName: 'Shop',
        items: [{ title: 'Tee', priceUsdc: '10.00', quantity: 2 }],
        paymentAddress: ADDRESS,
        shipping: false,
        freeShipping: false,
      },
    });
  });

  it('reads optional parameters from URLSearchParams and drops empty ones', () => {
    const params = new URLSearchParams({
      ...required,
      theme: 'light',
      accentColor: '#06b6d4',
      shipping: 'true',
      freeShipping: '1',
      standardShipping: '8.99',
      expressShipping: '',
      customerEmail: 'ada@example.com',
      state: 'IL',
    });
    const result = parseCheckoutParams(params);
    expect(result.ok && result.value).toMatchObject({
      theme: 'light',
      accentColor: '#06b6d4',
      shipping: true,
      freeShipping: true,
      standardShipping: '8.99',
      customerEmail: 'ada@example.com',
      state: 'IL',
    });
    expect(result.ok && 'expressShipping' in result.value).toBe(false);
  });
});

const DEMO_PAYOUT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('buildDemoCheckoutUrl', () => {
  it('links one 0.25 USDC item with theme dark, accent colour and a demo order id', () => {
    const url = buildDemoCheckoutUrl(1_732_000_000_000, () => 0, { paymentAddress: DEMO_PAYOUT });
    expect(url.startsWith('/universal-checkout?')).toBe(true);
    expect(url).toContain('accentColor=%2306b6d4');
    const result = parseCheckoutParams(url.slice(url.indexOf('?')));
    expect(result).toEqual({
      ok: true,
      value: {
        storeName: 'Demo Store',
        items: [{ title: 'Demo Product', priceUsdc: '0.25', quantity: 1 }],
        paymentAddress: DEMO_PAYOUT,
        theme: 'dark',
        accentColor: '#06b6d4',
        externalOrderId: 'demo-1732000000000-000000000',
        shipping: false,
        freeShipping: false,
      },
    });
  });
});
