import { afterEach, describe, expect, it } from 'vitest';
import { StorefrontDb } from './db.ts';
import { LEGACY_CART_STORAGE_KEY } from './legacy-cart.ts';

let opened: StorefrontDb | undefined;
afterEach(async () => {
  await opened?.delete();
  opened = undefined;
});

describe('moving the localStorage cart into IndexedDB', () => {
  it('imports per-store lines, flags lines without a store as outdated, and forgets the old key', async () => {
    localStorage.setItem(
      LEGACY_CART_STORAGE_KEY,
      JSON.stringify({
        state: {
          carts: {
            s1: [{ productId: 'p1', storeId: 's1', title: 'Mug', priceUsdc: '12.50', quantity: 2 }],
            legacy: [{ productId: 'p0', title: 'Old poster', priceUsdc: '5.00', quantity: 1 }],
          },
          shippingAddress: { city: 'Austin' },
          selectedChain: 'base',
          currentStoreId: 's1',
        },
        version: 0,
      }),
    );
    opened = new StorefrontDb('legacy-import-test');
    await opened.open();
    const lines = await opened.cartItems.toArray();
    expect(lines.map((line) => [line.key, line.quantity])).toEqual(
      expect.arrayContaining([
        ['s1/p1', 2],
        ['-/p0', 1],
      ]),
    );
    expect((await opened.settings.get('shippingAddress'))?.value).toEqual({ city: 'Austin' });
    expect(localStorage.getItem(LEGACY_CART_STORAGE_KEY)).toBeNull();
  });

  it('ignores a legacy value it cannot read', async () => {
    localStorage.setItem(LEGACY_CART_STORAGE_KEY, '{not json');
    opened = new StorefrontDb('legacy-garbage-test');
    await opened.open();
    expect(await opened.cartItems.count()).toBe(0);
    expect(localStorage.getItem(LEGACY_CART_STORAGE_KEY)).toBeNull();
  });
});
