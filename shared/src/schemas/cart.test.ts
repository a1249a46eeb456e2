import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CartStateSchema, isOutdatedCartItem } from './cart.ts';

describe('cart state', () => {
  it('defaults the selected chain to base', () => {
    const state = v.parse(CartStateSchema, { carts: {} });
    expect(state.selectedChain).toBe('base');
  });

  it('keeps carts per store and flags lines without a storeId', () => {
    const line = { productId: 'p1', title: 'Tee', priceUsdc: '10.00', quantity: 2 };
    const state = v.parse(CartStateSchema, {
      carts: { s1: [{ ...line, storeId: 's1' }], legacy: [line] },
      currentStoreId: 's1',
    });
    expect(state.carts.s1?.map(isOutdatedCartItem)).toEqual([false]);
    expect(state.carts.legacy?.map(isOutdatedCartItem)).toEqual([true]);
    expect(v.is(CartStateSchema, { carts: { s1: [{ ...line, quantity: 0 }] } })).toBe(false);
  });
});
