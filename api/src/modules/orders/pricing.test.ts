// Pricing a store order from the catalogue, without a database.
import { describe, expect, test } from 'bun:test';
import { resolveStoreSettings } from '@store/shared';
import { AppError } from '../../http/errors.ts';
import type { CreateOrderBody } from './model.ts';
import { type CatalogueProduct, priceOrder, shippingMethodOf } from './pricing.ts';

const tee: CatalogueProduct = {
  id: 'tee',
  title: 'Tee',
  priceUsdc: '19.99',
  imageUrl: 'https://example.com/tee.png',
  inventory: 0,
  trackInventory: false,
};
const catalogue = new Map([[tee.id, tee]]);

const body = (patch: Partial<CreateOrderBody> = {}): CreateOrderBody =>
  ({
    storeId: 's',
    customerEmail: 'a@b.co',
    items: [{ productId: 'tee', title: 'Old title', priceUsdc: '1.00', quantity: 3 }],
    // 59.97 + 12.99 + 4.80 tax (8% of 59.97 = 4.7976, rounded half up)
    subtotalUsdc: '59.97',
    shippingUsdc: '12.99',
    totalUsdc: '77.76',
    ...patch,
  }) as CreateOrderBody;

const messageOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.message}` : String(error);
  }
  return 'no error';
};

describe('priceOrder', () => {
  test('takes titles, prices and images from the catalogue and recomputes the totals', () => {
    const priced = priceOrder(body(), catalogue);
    expect(priced.items).toEqual([
      {
        productId: 'tee',
        title: 'Tee',
        priceUsdc: '19.99',
        quantity: 3,
        imageUrl: tee.imageUrl,
        stockTracked: false,
      },
    ]);
    expect(priced.shippingMethod).toBe('standard');
    expect(priced.totals.totalUsdc).toBe('77.76');
    expect(priced.totals.taxUsdc).toBe('4.80');
  });

  test('accepts equal amounts written differently ("10.8" is 10.80)', () => {
    const pen = { ...tee, id: 'pen', title: 'Pen', priceUsdc: '10.00' };
    const items = [{ productId: 'pen', title: 'Pen', priceUsdc: '10', quantity: 1 }];
    const order = body({ items, subtotalUsdc: '10', shippingUsdc: '0', totalUsdc: '10.8' });
    const priced = priceOrder(order, new Map([[pen.id, pen]]));
    expect(priced.totals.totalUsdc).toBe('10.80');
    expect(priced.shippingMethod).toBe('free');
  });

  test('an untracked product sells up to 99 a line; a tracked one what is left, none sold out', () => {
    const one = (quantity: number) => ({
      items: [{ productId: 'mug', title: 'Mug', priceUsdc: '10.00', quantity }],
      subtotalUsdc: (10 * quantity).toFixed(2),
      shippingUsdc: '0',
      totalUsdc: (10.8 * quantity).toFixed(2),
    });
    const mug = (patch: Partial<CatalogueProduct>) =>
      new Map([['mug', { ...tee, id: 'mug', title: 'Mug', priceUsdc: '10.00', ...patch }]]);
    expect(messageOf(() => priceOrder(body(one(99)), mug({})))).toBe('no error');
    expect(messageOf(() => priceOrder(body(one(100)), mug({})))).toBe(
      '422 You can order at most 99 of "Mug"',
    );
    const tracked = (inventory: number) => mug({ trackInventory: true, inventory });
    expect(priceOrder(body(one(2)), tracked(2)).items[0]?.stockTracked).toBe(true);
    expect(messageOf(() => priceOrder(body(one(3)), tracked(2)))).toBe(
      '422 Only 2 of "Mug" left in stock',
    );
    expect(messageOf(() => priceOrder(body(one(1)), tracked(0)))).toBe('422 "Mug" is sold out');
  });

  test('refuses totals that differ by a cent', () => {
    expect(messageOf(() => priceOrder(body({ totalUsdc: '77.75' }), catalogue))).toBe(
      '422 Order totals do not match current prices; refresh and try again',
    );
  });

  test('refuses a product not in the catalogue, naming it as the shopper saw it', () => {
    const items = [{ productId: 'gone', title: 'Old Mug', priceUsdc: '1.00', quantity: 1 }];
    expect(messageOf(() => priceOrder(body({ items }), catalogue))).toBe(
      '422 "Old Mug" is no longer available; remove it from your cart and try again',
    );
  });
});

describe('shippingMethodOf', () => {
  test('names the method whose price was sent, and refuses other amounts', () => {
    expect(shippingMethodOf({ shippingUsdc: '0' })).toBe('free');
    expect(shippingMethodOf({ shippingUsdc: '24.99' })).toBe('express');
    expect(shippingMethodOf({ shippingUsdc: '0.00', shippingMethod: 'express' })).toBe('express');
    expect(messageOf(() => shippingMethodOf({ shippingUsdc: '8.99' }))).toBe(
      '422 Shipping must be free (0.00), standard (12.99) or express (24.99)',
    );
  });
});

describe("the store's settings", () => {
  const settings = resolveStoreSettings({
    taxRateBps: 500,
    shippingOptions: {
      free: { enabled: false, priceUsdc: '0.00', delivery: '10 days' },
      standard: { enabled: true, priceUsdc: '4.50', delivery: '3-5 days' },
      express: { enabled: true, priceUsdc: '9.00', delivery: 'Next day' },
    },
  });

  test("prices with the store's tax rate and its own shipping price", () => {
    // 59.97 + 4.50 + 5% of 59.97 (2.9985 -> 3.00)
    const order = body({ shippingUsdc: '4.50', totalUsdc: '67.47', shippingMethod: 'standard' });
    const priced = priceOrder(order, catalogue, settings);
    expect(priced.totals).toMatchObject({
      taxUsdc: '3.00',
      shippingUsdc: '4.50',
      totalUsdc: '67.47',
    });
  });

  test('refuses the default prices and the 8% tax when the store set its own', () => {
    expect(
      messageOf(() => priceOrder(body({ shippingMethod: 'standard' }), catalogue, settings)),
    ).toBe('422 Order totals do not match current prices; refresh and try again');
  });

  test('refuses a method the store does not offer, and names the offered prices', () => {
    const free = body({ shippingUsdc: '0.00', totalUsdc: '62.97', shippingMethod: 'free' });
    expect(messageOf(() => priceOrder(free, catalogue, settings))).toBe(
      '422 Free shipping is not offered by this store; choose another method',
    );
    expect(messageOf(() => shippingMethodOf({ shippingUsdc: '0' }, settings))).toBe(
      '422 Shipping must be standard (4.50) or express (9.00)',
    );
    expect(shippingMethodOf({ shippingUsdc: '9' }, settings)).toBe('express');
  });
});
