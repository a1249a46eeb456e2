// Pure helpers of the admin forms and pages: what an edit sends, the upload hints, the CSV export
// and the sign-in redirect guard.
import { describe, expect, it } from 'vitest';
import { editedBody, imageHint, productBody, productFormDefaults } from './form-values.ts';
import { csvField, ordersToCsv } from './orders-csv.ts';
import { safeRedirect } from './session.ts';
import type { MerchantOrder } from './types.ts';

describe('editedBody', () => {
  it('sends only the fields the merchant changed, parsed', () => {
    const before = { name: 'Moon', slug: 'moon', description: '' };
    const after = { name: ' Moon Shop ', slug: 'moon', description: '' };
    expect(editedBody(before, after, { name: 'Moon Shop', slug: 'moon', description: '' })).toEqual(
      { name: 'Moon Shop' },
    );
  });

  it('treats null and empty text as the same', () => {
    expect(editedBody({ description: null }, { description: '' }, { description: '' })).toEqual({});
  });
});

describe('productBody', () => {
  it('parses the inventory text as docs/rules.md#product-form says', () => {
    const values = { ...productFormDefaults('s1'), title: 'Mug', priceUsdc: '4.99' };
    expect(productBody({ ...values, inventory: '12 units' }).inventory).toBe(12);
    expect(productBody({ ...values, inventory: 'many' }).inventory).toBe(0);
    expect(productBody({ ...values, inventory: '-3' }).inventory).toBe(0);
  });

  it('sends an empty price cap as none, a typed one as typed', () => {
    const values = { ...productFormDefaults('s1'), title: 'Zine', priceUsdc: '4.50' };
    expect(productBody(values).maxPriceUsdc).toBeNull();
    expect(productBody({ ...values, maxPriceUsdc: ' 5 ' }).maxPriceUsdc).toBe('5');
    expect(productFormDefaults('s1', { maxPriceUsdc: '5.00' }).maxPriceUsdc).toBe('5.00');
    expect(productFormDefaults('s1', { maxPriceUsdc: null }).maxPriceUsdc).toBe('');
  });
});

describe('imageHint', () => {
  it('words the upload hints', () => {
    expect(imageHint('logo')).toBe('PNG, JPG or SVG, max 2MB');
    expect(imageHint('product')).toBe('PNG, JPG or WebP, max 5MB');
  });
});

describe('ordersToCsv', () => {
  const order: MerchantOrder = {
    id: 'o-1',
    storeId: 's1',
    source: 'storefront',
    payeeAddress: null,
    customerEmail: '=cmd@example.com',
    shippingAddress: null,
    items: [{ productId: 'p-1', title: 'Mug "XL"', quantity: 2, priceUsdc: '4.00' }],
    subtotalUsdc: '8.00',
    discountCode: null,
    discountUsdc: '0.00',
    shippingUsdc: '0.00',
    taxUsdc: '0.64',
    totalUsdc: '8.64',
    status: 'paid',
    paymentChain: 'base',
    paymentTxHash: null,
    paymentAddress: null,
    metadata: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };

  it('quotes fields, doubles quotes and neutralises formulas', () => {
    const csv = ordersToCsv([order], () => 'Moon Shop', 'Local chain 31337');
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header?.startsWith('"Order ID","Created At","Store","Customer","Status"')).toBe(true);
    expect(row).toContain(
      '"Moon Shop","\'=cmd@example.com","paid","2 x Mug ""XL""","8.00","","0.00","0.00","0.64","8.64","no","Local chain 31337",""',
    );
    expect(csvField(null)).toBe('""');
  });
});

describe('safeRedirect', () => {
  it('returns to paths of this app only', () => {
    expect(safeRedirect('/admin/orders?status=paid')).toBe('/admin/orders?status=paid');
    expect(safeRedirect(undefined)).toBe('/admin');
    expect(safeRedirect('https://evil.example')).toBe('/admin');
    expect(safeRedirect('//evil.example')).toBe('/admin');
    expect(safeRedirect('/\\evil.example')).toBe('/admin');
  });
});
