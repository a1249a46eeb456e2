import { describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from './messages.ts';
import type { StoreCheckoutForm } from './schemas/order.ts';
import { prepareStoreOrder } from './store-checkout.ts';
import { resolveStoreSettings, STORE_SETTINGS_MESSAGES } from './store-settings.ts';

const form: StoreCheckoutForm = {
  customerEmail: 'ada@example.com',
  phone: '555-0100',
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: '1 Main St',
  city: 'Springfield',
  country: 'US',
  state: 'DC',
  zipCode: '20001',
  shippingMethod: 'standard',
};
const mug = { productId: 'p1', title: 'Mug', priceUsdc: '10.00', quantity: 2 };

describe('prepareStoreOrder', () => {
  it('builds the body with 8% tax in the total and the chosen shipping', () => {
    const result = prepareStoreOrder([mug], 's1', form);
    expect(result.ok && result.value).toMatchObject({
      storeId: 's1',
      customerEmail: 'ada@example.com',
      subtotalUsdc: '20.00',
      shippingUsdc: '12.99',
      totalUsdc: '34.59',
      status: 'pending',
      shippingMethod: 'standard',
      shippingAddress: { email: 'ada@example.com', state: 'DC', firstName: 'Ada' },
      items: [{ productId: 'p1', title: 'Mug', priceUsdc: '10.00', quantity: 2, imageUrl: null }],
    });
  });

  it('stops on an empty cart first', () => {
    expect(prepareStoreOrder([], undefined, form)).toEqual({
      ok: false,
      error: { title: CHECKOUT_MESSAGES.cartEmpty },
    });
  });

  it('stops with Calculation Error when a price is not a number', () => {
    const result = prepareStoreOrder([{ ...mug, priceUsdc: 'abc' }], 's1', form);
    expect(result).toEqual({ ok: false, error: CHECKOUT_MESSAGES.calculationError });
  });

  it('stops with Store Error when the store is unknown', () => {
    expect(prepareStoreOrder([mug], '', form)).toEqual({
      ok: false,
      error: CHECKOUT_MESSAGES.storeError,
    });
  });
});

describe("prepareStoreOrder with the store's settings", () => {
  const settings = resolveStoreSettings({
    taxRateBps: 500,
    shippingOptions: {
      free: { enabled: false, priceUsdc: '0.00', delivery: '10 days' },
      standard: { enabled: true, priceUsdc: '4.50', delivery: '3-5 days' },
      express: { enabled: true, priceUsdc: '9.00', delivery: 'Next day' },
    },
  });

  it("prices with the store's tax rate and shipping price", () => {
    const result = prepareStoreOrder([mug], 's1', form, settings);
    // 20.00 + 4.50 + 5% of 20.00
    expect(result.ok && result.value).toMatchObject({
      subtotalUsdc: '20.00',
      shippingUsdc: '4.50',
      totalUsdc: '25.50',
    });
  });

  it('refuses a method the store does not offer', () => {
    const result = prepareStoreOrder([mug], 's1', { ...form, shippingMethod: 'free' }, settings);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.description).toBe(STORE_SETTINGS_MESSAGES.methodOff('Free'));
  });
});
