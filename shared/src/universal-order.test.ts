import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseCheckoutParams } from './checkout-url.ts';
import type { UniversalCheckoutForm } from './schemas/order.ts';
import { CreateUniversalOrderSchema } from './schemas/universal.ts';
import { buildUniversalOrderBody, initialUniversalShipping } from './universal-order.ts';

const items = JSON.stringify([
  { title: 'Poster', priceUsdc: '10.00', quantity: 2 },
  { title: 'Sticker', priceUsdc: '0.25', quantity: 1 },
]);
const address = '0x1111111111111111111111111111111111111111';
const form: UniversalCheckoutForm = {
  customerEmail: 'ada@example.com',
  phone: '555',
  firstName: 'Ada',
  lastName: 'L',
  street: '1 Main',
  city: 'NYC',
  country: 'US',
  state: 'NY',
  zipCode: '10001',
  shippingMethod: 'express',
};

function params(extra: Record<string, string>) {
  const result = parseCheckoutParams(
    new URLSearchParams({ storeName: 'Shop', items, paymentAddress: address, ...extra }),
  );
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('universal order body', () => {
  it('adds the chosen shipping price, generated product ids and the metadata', () => {
    const link = params({
      shipping: 'true',
      expressShipping: '17.99',
      returnUrl: 'https://shop.example/done',
      theme: 'light',
      accentColor: '#ff0000',
      externalOrderId: 'ORDER-1',
    });
    const body = buildUniversalOrderBody(link, form, 1700000000000, () => 0.5);
    expect(v.is(CreateUniversalOrderSchema, body)).toBe(true);
    expect(body).toMatchObject({
      subtotalUsdc: '20.25',
      shippingUsdc: '17.99',
      totalUsdc: '38.24',
      shippingMethod: 'express',
      storePaymentAddress: address,
      externalOrderId: 'ORDER-1',
      metadata: {
        returnUrl: 'https://shop.example/done',
        theme: 'light',
        colors: { primary: null, secondary: null, accent: '#ff0000' },
      },
    });
    expect(body.items[0]?.productId).toMatch(/^universal-1700000000000-[0-9a-z]{9}$/);
  });

  it('charges no shipping when the link has none, whatever the form holds', () => {
    const body = buildUniversalOrderBody(params({}), form, 1, Math.random);
    expect(body.shippingUsdc).toBe('0.00');
    expect(body.totalUsdc).toBe('20.25');
    expect(body.shippingMethod).toBeUndefined();
  });

  it('picks free, else priced standard, else express as the first method', () => {
    expect(initialUniversalShipping(params({}))).toBeUndefined();
    expect(initialUniversalShipping(params({ shipping: 'true', freeShipping: 'true' }))).toBe(
      'free',
    );
    expect(initialUniversalShipping(params({ shipping: 'true', standardShipping: '8.99' }))).toBe(
      'standard',
    );
    expect(initialUniversalShipping(params({ shipping: 'true' }))).toBe('express');
  });
});
