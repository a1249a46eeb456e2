import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PAYOUT_ADDRESS_MESSAGES } from '../messages.ts';
import { firstIssueMessage, issuesByField } from './common.ts';
import { CreateStoreSchema, StoreAnalyticsSchema, UpdateStoreSchema } from './store.ts';

const ADDRESS = '0x742d35Cc6634C0532925a3b844Bc9e7595f0bEb0';
const valid = { name: 'My Store', slug: 'my-store' };

/** First issue message of creating a store with `patch` applied to a valid form. */
function createError(patch: Record<string, unknown>) {
  return firstIssueMessage(v.safeParse(CreateStoreSchema, { ...valid, ...patch }));
}

describe('store form', () => {
  it('fills the defaults, with no tax and free shipping only', () => {
    expect(v.parse(CreateStoreSchema, valid)).toEqual({
      name: 'My Store',
      slug: 'my-store',
      theme: 'dark',
      primaryColor: '#6366f1',
      secondaryColor: '#8b5cf6',
      accentColor: '#06b6d4',
      ownerId: 'admin',
      isActive: true,
      taxRateBps: 0,
      shippingOptions: {
        free: { enabled: true, priceUsdc: '0.00', delivery: '7-10 business days' },
        standard: { enabled: false, priceUsdc: '12.99', delivery: '5-7 business days' },
        express: { enabled: false, priceUsdc: '24.99', delivery: '2-3 business days' },
      },
    });
  });

  it('gives the field message, not a generic key error, when fields are missing', () => {
    expect(firstIssueMessage(v.safeParse(CreateStoreSchema, {}))).toBe('Store name is required');
    expect(firstIssueMessage(v.safeParse(CreateStoreSchema, { name: 'A' }))).toBe(
      'Store slug is required',
    );
  });

  it('requires a name', () => {
    expect(createError({ name: '' })).toBe('Store name is required');
    expect(createError({ name: '   ' })).toBe('Store name is required');
    expect(createError({ name: undefined })).toBe('Store name is required');
  });

  it('requires a slug first, then checks its characters', () => {
    expect(createError({ slug: '' })).toBe('Store slug is required');
    expect(createError({ slug: undefined })).toBe('Store slug is required');
    expect(createError({ slug: 'My Store' })).toBe(
      'Slug can only contain lowercase letters, numbers, and hyphens',
    );
    expect(createError({ slug: 'my_store' })).toBe(
      'Slug can only contain lowercase letters, numbers, and hyphens',
    );
    expect(createError({ slug: 'store-2' })).toBeUndefined();
  });

  it('accepts no payment address, else 0x + 40 hex', () => {
    const message = 'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)';
    expect(createError({ paymentAddress: '' })).toBeUndefined();
    expect(createError({ paymentAddress: null })).toBeUndefined();
    expect(createError({ paymentAddress: ADDRESS })).toBeUndefined();
    expect(createError({ paymentAddress: ADDRESS.slice(0, -1) })).toBe(message);
    expect(createError({ paymentAddress: `${ADDRESS}0` })).toBe(message);
    expect(createError({ paymentAddress: ADDRESS.replace('0x', '0X') })).toBe(message);
    expect(createError({ paymentAddress: `0x${'g'.repeat(40)}` })).toBe(message);
  });

  it('accepts light or dark themes only', () => {
    expect(v.parse(CreateStoreSchema, { ...valid, theme: 'light' }).theme).toBe('light');
    expect(createError({ theme: 'blue' })).toBe('Theme must be light or dark');
  });

  it('accepts #abc and #aabbcc colours only', () => {
    for (const color of ['#abc', '#AABBCC', '#6366f1']) {
      expect(createError({ primaryColor: color })).toBeUndefined();
    }
    for (const color of ['abc', '#abcd', '#aabbccdd', '#ggg', 'red', '']) {
      expect(createError({ accentColor: color })).toBe('Must be a valid hex color');
    }
    expect(createError({ secondaryColor: '#12' })).toBe('Must be a valid hex color');
  });

  it('reports the first message of each field', () => {
    const result = v.safeParse(CreateStoreSchema, { name: '', slug: 'Bad Slug', accentColor: 'x' });
    expect(issuesByField(result)).toEqual({
      name: 'Store name is required',
      slug: 'Slug can only contain lowercase letters, numbers, and hyphens',
      accentColor: 'Must be a valid hex color',
    });
  });
});

describe('store update', () => {
  it('leaves unsent fields out instead of resetting them to defaults', () => {
    expect(v.parse(UpdateStoreSchema, { name: 'Renamed' })).toEqual({ name: 'Renamed' });
  });

  it('applies the same rules to sent fields', () => {
    expect(firstIssueMessage(v.safeParse(UpdateStoreSchema, { slug: '' }))).toBe(
      'Store slug is required',
    );
    expect(firstIssueMessage(v.safeParse(UpdateStoreSchema, { primaryColor: '#12345' }))).toBe(
      'Must be a valid hex color',
    );
  });
});

describe('store analytics', () => {
  it('carries revenue as a 2-decimal string', () => {
    const ok = { activeProducts: 3, totalRevenue30Days: '120.50', totalOrders30Days: 4 };
    expect(v.is(StoreAnalyticsSchema, ok)).toBe(true);
    expect(v.is(StoreAnalyticsSchema, { ...ok, totalRevenue30Days: 120.5 })).toBe(false);
  });
});

describe('store caps', () => {
  it('refuses a 500 KB description, an over-long name and the zero payout address', () => {
    const base = { name: 'Shop', slug: 'shop' };
    const issue = (body: object) =>
      firstIssueMessage(v.safeParse(CreateStoreSchema, { ...base, ...body }));
    expect(issue({ description: 'x'.repeat(500_000) })).toBe(
      'Description must be at most 5,000 characters',
    );
    expect(issue({ description: 'x'.repeat(5_000) })).toBeUndefined();
    expect(issue({ name: 'n'.repeat(121) })).toBe('Store name must be at most 120 characters');
    expect(issue({ paymentAddress: '0x0000000000000000000000000000000000000000' })).toBe(
      PAYOUT_ADDRESS_MESSAGES.zero,
    );
    expect(issue({ slug: 'a'.repeat(65) })).toBe('Slug must be at most 64 characters');
  });
});
