import { describe, expect, it } from 'vitest';
import { InvalidAmountError } from './money.ts';
import {
  cartShippingFee,
  defaultStoreShippingMethod,
  defaultUniversalShippingMethod,
  estimatedTax,
  includedTax,
  orderTaxIncluded,
  orderTaxLabel,
  shippingFor,
  storeCheckoutTotals,
  subtotalOf,
  universalCheckoutTotals,
  universalShippingFor,
} from './totals.ts';

const lines = [
  { priceUsdc: '12.99', quantity: 2 },
  { priceUsdc: '0.25', quantity: 3 },
];

describe('subtotal', () => {
  it('sums price x quantity exactly', () => {
    expect(subtotalOf(lines)).toBe(26_730_000n);
    expect(subtotalOf([])).toBe(0n);
    // 0.1 + 0.2 would be 0.30000000000000004 in floating point
    expect(
      subtotalOf([
        { priceUsdc: '0.1', quantity: 1 },
        { priceUsdc: '0.2', quantity: 1 },
      ]),
    ).toBe(300_000n);
    expect(subtotalOf([{ priceUsdc: '99999999.99', quantity: 1_000_000 }])).toBe(
      99_999_999_990_000_000_000n,
    );
  });

  it('throws on non-numeric prices or quantities (the UI shows Calculation Error)', () => {
    expect(() => subtotalOf([{ priceUsdc: 'abc', quantity: 1 }])).toThrow(InvalidAmountError);
    expect(() => subtotalOf([{ priceUsdc: '1.00', quantity: Number.NaN }])).toThrow(
      InvalidAmountError,
    );
  });
});

describe('store checkout', () => {
  it('prices shipping free 0, standard 12.99, express 24.99', () => {
    expect(shippingFor('free')).toBe(0n);
    expect(shippingFor('standard')).toBe(12_990_000n);
    expect(shippingFor('express')).toBe(24_990_000n);
  });

  it('defaults the method to free but the cart fee to standard until chosen', () => {
    expect(defaultStoreShippingMethod()).toBe('free');
    expect(cartShippingFee()).toBe(12_990_000n);
    expect(cartShippingFee('free')).toBe(0n);
    expect(cartShippingFee('express')).toBe(24_990_000n);
  });

  it('adds 8% tax rounded half up to the cent', () => {
    expect(estimatedTax(26_730_000n)).toBe(2_140_000n); // 2.1384 -> 2.14
    expect(estimatedTax(62_500n)).toBe(10_000n); // 0.005 -> 0.01
  });

  it('totals subtotal + shipping + tax, as bigint and 2-decimal strings', () => {
    expect(storeCheckoutTotals(lines, shippingFor('standard'))).toEqual({
      taxIncluded: false,
      subtotal: 26_730_000n,
      discount: 0n,
      shipping: 12_990_000n,
      tax: 2_140_000n,
      total: 41_860_000n,
      subtotalUsdc: '26.73',
      discountUsdc: '0.00',
      shippingUsdc: '12.99',
      taxUsdc: '2.14',
      totalUsdc: '41.86',
    });
    expect(storeCheckoutTotals([], 0n).totalUsdc).toBe('0.00');
  });

  it('takes a discount off the subtotal before tax, never more than the subtotal', () => {
    // 26.73 - 5.00 = 21.73; 8% tax 1.74 (1.7384); + 12.99 shipping.
    const discounted = storeCheckoutTotals(lines, shippingFor('standard'), 800, 5_000_000n);
    expect(discounted).toMatchObject({ discountUsdc: '5.00', taxUsdc: '1.74', totalUsdc: '36.46' });
    const all = storeCheckoutTotals(lines, 0n, 800, 99_000_000n);
    expect(all).toMatchObject({ discountUsdc: '26.73', taxUsdc: '0.00', totalUsdc: '0.00' });
  });
});

describe('universal checkout', () => {
  it('picks the default method: free if enabled, else standard if priced, else express', () => {
    expect(defaultUniversalShippingMethod({ shipping: false, freeShipping: true })).toBeUndefined();
    expect(defaultUniversalShippingMethod({ shipping: true, freeShipping: true })).toBe('free');
    expect(defaultUniversalShippingMethod({ shipping: true, standardShipping: '8.99' })).toBe(
      'standard',
    );
    expect(defaultUniversalShippingMethod({ shipping: true, expressShipping: '17.99' })).toBe(
      'express',
    );
    expect(defaultUniversalShippingMethod({ shipping: true })).toBe('express');
  });

  it('prices shipping from the link, else the defaults; free or no method adds 0', () => {
    const options = { shipping: true, standardShipping: '8.99', expressShipping: '17.99' };
    expect(universalShippingFor('standard', options)).toBe(8_990_000n);
    expect(universalShippingFor('express', options)).toBe(17_990_000n);
    expect(universalShippingFor('free', options)).toBe(0n);
    expect(universalShippingFor(undefined, options)).toBe(0n);
    expect(universalShippingFor('standard', { shipping: true })).toBe(12_990_000n);
    expect(universalShippingFor('express', { shipping: true })).toBe(24_990_000n);
  });

  it('totals subtotal + shipping without tax', () => {
    expect(universalCheckoutTotals(lines, 'express', { expressShipping: '17.99' })).toEqual({
      subtotal: 26_730_000n,
      shipping: 17_990_000n,
      total: 44_720_000n,
      subtotalUsdc: '26.73',
      shippingUsdc: '17.99',
      totalUsdc: '44.72',
    });
    expect(universalCheckoutTotals(lines, undefined, {}).totalUsdc).toBe('26.73');
  });
});

describe("the store's tax rate", () => {
  it('taxes at the given basis points, rounding half up to the cent', () => {
    // 5% of 20.00 = 1.00; 7.25% of 10.01 = 0.725725 -> 0.73
    expect(estimatedTax(20_000_000n, 500)).toBe(1_000_000n);
    expect(estimatedTax(10_010_000n, 725)).toBe(730_000n);
    expect(estimatedTax(10_000_000n, 0)).toBe(0n);
    const totals = storeCheckoutTotals([{ priceUsdc: '20.00', quantity: 1 }], 4_500_000n, 500);
    expect(totals).toMatchObject({ taxUsdc: '1.00', shippingUsdc: '4.50', totalUsdc: '25.50' });
  });
});

describe('tax included in the prices', () => {
  it('is gross x rate / (1 + rate), rounded half up to the cent, and not added', () => {
    // 19% inside 119.00 is 19.00; inside 10.00 it is 1.5966 -> 1.60; 7% inside 0.15 is 0.0098 -> 0.01.
    expect(includedTax(119_000_000n, 1900)).toBe(19_000_000n);
    expect(includedTax(10_000_000n, 1900)).toBe(1_600_000n);
    expect(includedTax(150_000n, 700)).toBe(10_000n);
    expect(includedTax(10_000_000n, 0)).toBe(0n);
    const totals = storeCheckoutTotals(
      [{ priceUsdc: '119.00', quantity: 1 }],
      4_900_000n,
      1900,
      0n,
      true,
    );
    expect(totals).toMatchObject({
      taxIncluded: true,
      taxUsdc: '19.00',
      shippingUsdc: '4.90',
      totalUsdc: '123.90',
    });
  });

  it('takes the discount off before finding the tax inside', () => {
    // 119.00 - 19.00 = 100.00 gross; 19% inside: 15.966 -> 15.97.
    const totals = storeCheckoutTotals(
      [{ priceUsdc: '119.00', quantity: 1 }],
      0n,
      1900,
      19_000_000n,
      true,
    );
    expect(totals).toMatchObject({ taxUsdc: '15.97', totalUsdc: '100.00', taxIncluded: true });
  });

  it('a zero rate includes nothing and reads as no tax', () => {
    const totals = storeCheckoutTotals([{ priceUsdc: '10.00', quantity: 1 }], 0n, 0, 0n, true);
    expect(totals).toMatchObject({ taxUsdc: '0.00', totalUsdc: '10.00', taxIncluded: false });
  });

  it("reads from an order's stored figures whether its tax was included or added", () => {
    const included = {
      subtotalUsdc: '119.00',
      shippingUsdc: '4.90',
      taxUsdc: '19.00',
      totalUsdc: '123.90',
    };
    const added = {
      subtotalUsdc: '100.00',
      shippingUsdc: '4.90',
      taxUsdc: '19.00',
      totalUsdc: '123.90',
    };
    const none = {
      subtotalUsdc: '100.00',
      shippingUsdc: '4.90',
      taxUsdc: '0.00',
      totalUsdc: '104.90',
    };
    expect(orderTaxIncluded(included)).toBe(true);
    expect(orderTaxIncluded(added)).toBe(false);
    expect(orderTaxIncluded(none)).toBe(false);
    expect(orderTaxIncluded({ ...included, subtotalUsdc: '124.00', discountUsdc: '5.00' })).toBe(
      true,
    );
    expect(orderTaxLabel(included, '19%')).toBe('Tax included (19%)');
    expect(orderTaxLabel(added)).toBe('Tax');
  });
});
