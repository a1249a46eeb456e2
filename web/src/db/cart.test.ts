import { beforeEach, describe, expect, it } from 'vitest';
import {
  addToCart,
  type CartProduct,
  cartView,
  clearCart,
  lineTotalOf,
  readCart,
  readOutdatedItems,
  removeFromCart,
  setCartQuantity,
} from './cart.ts';
import { db } from './db.ts';

const mug: CartProduct = { productId: 'p-mug', storeId: 's1', title: 'Mug', priceUsdc: '12.50' };
const tee: CartProduct = { productId: 'p-tee', storeId: 's1', title: 'Tee', priceUsdc: '20.00' };
const hat: CartProduct = { productId: 'p-hat', storeId: 's2', title: 'Hat', priceUsdc: '9.99' };

beforeEach(async () => {
  await db.cartItems.clear();
  await db.settings.clear();
});

describe('cart rules (docs/rules.md#cart-rules)', () => {
  it('adding an item already in the cart increases its quantity', async () => {
    await addToCart(mug);
    await addToCart(mug, 2);
    const [line] = await readCart('s1');
    expect(line?.quantity).toBe(3);
    expect(await db.cartItems.count()).toBe(1);
  });

  it('never goes past the stock, and allows 99 when stock is not tracked', async () => {
    await addToCart({ ...mug, inventory: 4 }, 3);
    await addToCart({ ...mug, inventory: 4 }, 3);
    expect((await readCart('s1'))[0]?.quantity).toBe(4);
    await addToCart({ ...tee, inventory: 0 }, 150);
    expect((await readCart('s1'))[1]?.quantity).toBe(99);
  });

  it('says how many units an add really added when the limit caps it', async () => {
    expect(await addToCart({ ...mug, inventory: 5 }, 3)).toMatchObject({ added: 3, limit: 5 });
    const capped = await addToCart({ ...mug, inventory: 5 }, 4);
    expect(capped).toMatchObject({ added: 2, limit: 5 });
    expect(capped.row.quantity).toBe(5);
    expect(await addToCart({ ...mug, inventory: 5 })).toMatchObject({ added: 0, limit: 5 });
    expect(await addToCart({ ...tee, inventory: 0 }, 2)).toMatchObject({ added: 2, limit: 99 });
  });

  it('setting a quantity caps it at the limit and resolves to what was saved', async () => {
    await addToCart({ ...mug, inventory: 4 });
    expect(await setCartQuantity('s1', 'p-mug', 3)).toBe(3);
    expect(await setCartQuantity('s1', 'p-mug', 10)).toBe(4);
    expect((await readCart('s1'))[0]?.quantity).toBe(4);
    // A fresher stock from the catalogue becomes the line's limit.
    expect(await setCartQuantity('s1', 'p-mug', 10, 6)).toBe(6);
    expect((await readCart('s1'))[0]).toMatchObject({ quantity: 6, inventory: 6 });
    expect(await setCartQuantity('s1', 'p-mug', 2.7)).toBe(2);
    expect(await setCartQuantity('s1', 'p-none', 2)).toBe(0);
    expect(await setCartQuantity('s1', 'p-mug', 0)).toBe(0);
    expect(await readCart('s1')).toEqual([]);
  });

  it('a quantity of 0 or less removes the line', async () => {
    await addToCart(mug, 2);
    await setCartQuantity('s1', 'p-mug', 5);
    expect((await readCart('s1'))[0]?.quantity).toBe(5);
    await setCartQuantity('s1', 'p-mug', 0);
    expect(await readCart('s1')).toEqual([]);
    await addToCart(tee);
    await setCartQuantity('s1', 'p-tee', -1);
    expect(await readCart('s1')).toEqual([]);
  });

  it('keeps one cart per store: remove and clear touch only that store', async () => {
    await addToCart(mug);
    await addToCart(tee);
    await addToCart(hat);
    await removeFromCart('s1', 'p-mug');
    expect((await readCart('s1')).map((line) => line.title)).toEqual(['Tee']);
    await clearCart('s1');
    expect(await readCart('s1')).toEqual([]);
    expect((await readCart('s2')).map((line) => line.title)).toEqual(['Hat']);
  });

  it('clearing with no store known empties every cart', async () => {
    await addToCart(mug);
    await addToCart(hat);
    await clearCart();
    expect(await db.cartItems.count()).toBe(0);
  });

  it('remembers the store last added to', async () => {
    await addToCart(hat);
    expect((await db.settings.get('currentStoreId'))?.value).toBe('s2');
  });

  it('flags lines without a storeId as outdated, and they can be removed', async () => {
    await db.cartItems.put({
      key: '-/old',
      productId: 'old',
      title: 'Old line',
      priceUsdc: '1.00',
      quantity: 1,
      addedAt: 1,
    });
    await addToCart(mug);
    expect((await readOutdatedItems()).map((line) => line.title)).toEqual(['Old line']);
    await removeFromCart(undefined, 'old');
    expect(await readOutdatedItems()).toEqual([]);
    expect(await readCart('s1')).toHaveLength(1);
  });

  it("computes a line's total in exact cents", () => {
    expect(lineTotalOf({ priceUsdc: '4.99', quantity: 3 })).toBe('14.97');
    expect(lineTotalOf({ priceUsdc: '0.10', quantity: 3 })).toBe('0.30');
    expect(lineTotalOf({ priceUsdc: 'abc', quantity: 1 })).toBeUndefined();
  });

  it('sums count and subtotal in exact cents', async () => {
    await addToCart(mug, 3);
    await addToCart({ ...tee, priceUsdc: '0.10' }, 3);
    const view = cartView(await readCart('s1'));
    expect(view.count).toBe(6);
    expect(view.subtotalUsdc).toBe('37.80');
  });
});
