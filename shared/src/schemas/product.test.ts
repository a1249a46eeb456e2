import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { firstIssueMessage } from './common.ts';
import {
  CreateProductSchema,
  isAboveCap,
  parseInventoryInput,
  UpdateProductSchema,
} from './product.ts';

const valid = { storeId: 'store-1', title: 'Hoodie', priceUsdc: '12.99' };

/** First issue message of a product form with `patch` applied. */
function productError(patch: Record<string, unknown>) {
  return firstIssueMessage(v.safeParse(CreateProductSchema, { ...valid, ...patch }));
}

describe('product form', () => {
  it('fills the defaults', () => {
    expect(v.parse(CreateProductSchema, valid)).toEqual({
      ...valid,
      inventory: 0,
      isPublished: true,
    });
  });

  it("requires a price: 'Price is required'", () => {
    expect(productError({ priceUsdc: '' })).toBe('Price is required');
    expect(productError({ priceUsdc: '  ' })).toBe('Price is required');
    expect(productError({ priceUsdc: undefined })).toBe('Price is required');
  });

  it("requires a price above 0: 'Price must be a positive number'", () => {
    for (const price of ['0', '0.00', '-1', 'abc', '1e2', '-0.01']) {
      expect(productError({ priceUsdc: price })).toBe('Price must be a positive number');
    }
    expect(productError({ priceUsdc: '0.01' })).toBeUndefined();
    expect(productError({ priceUsdc: '99999999.99' })).toBeUndefined();
  });

  it('keeps prices within decimal(10,2)', () => {
    const message = 'Price can have at most 8 digits before and 2 after the decimal point';
    expect(productError({ priceUsdc: '12.999' })).toBe(message);
    expect(productError({ priceUsdc: '123456789' })).toBe(message);
  });

  it('gives the field message when the price key is missing', () => {
    const { priceUsdc: _, ...rest } = valid;
    expect(firstIssueMessage(v.safeParse(CreateProductSchema, rest))).toBe('Price is required');
  });

  it('requires title and store', () => {
    expect(productError({ title: '' })).toBe('Title is required');
    expect(productError({ storeId: '' })).toBe('Store is required');
    expect(productError({ storeId: undefined })).toBe('Store is required');
  });

  it('rejects a negative or fractional inventory', () => {
    expect(productError({ inventory: -1 })).toBe('Inventory must be a whole number of 0 or more');
    expect(productError({ inventory: 1.5 })).toBe('Inventory must be a whole number of 0 or more');
    expect(productError({ inventory: 12 })).toBeUndefined();
  });
});

describe('parseInventoryInput', () => {
  it.each([
    ['12', 12],
    ['0', 0],
    ['007', 7],
    [' 42 ', 42],
    ['12abc', 12],
    ['3.7', 3],
    ['abc', 0],
    ['', 0],
    ['-5', 0],
    ['99999999999999999999999999', 2_147_483_647],
    ['2147483648', 2_147_483_647],
  ])('%j -> %d', (input, expected) => {
    expect(parseInventoryInput(input)).toBe(expected);
  });
});

describe('product update', () => {
  it('accepts any subset, fills no defaults and never moves the product to another store', () => {
    expect(v.parse(UpdateProductSchema, { priceUsdc: '15.00', storeId: 'other' })).toEqual({
      priceUsdc: '15.00',
    });
  });

  it('applies the form rules to the fields it gets', () => {
    const error = (body: Record<string, unknown>) =>
      firstIssueMessage(v.safeParse(UpdateProductSchema, body));
    expect(error({ priceUsdc: '0' })).toBe('Price must be a positive number');
    expect(error({ title: ' ' })).toBe('Title is required');
    expect(error({ inventory: -2 })).toBe('Inventory must be a whole number of 0 or more');
  });
});

describe('price cap', () => {
  it('is checked as a price is, with its own messages; null removes it', () => {
    const error = (maxPriceUsdc: unknown) =>
      firstIssueMessage(v.safeParse(UpdateProductSchema, { maxPriceUsdc }));
    expect(error('0')).toBe('Price cap must be a positive number');
    expect(error('')).toBe('Price cap must be a positive number');
    expect(error('1.234')).toBe(
      'Price cap can have at most 8 digits before and 2 after the decimal point',
    );
    expect(v.parse(UpdateProductSchema, { maxPriceUsdc: null })).toEqual({ maxPriceUsdc: null });
    expect(v.parse(UpdateProductSchema, { maxPriceUsdc: ' 5 ' })).toEqual({ maxPriceUsdc: '5' });
  });

  it('a price above the cap, by amount (not by text)', () => {
    expect(isAboveCap('5.01', '5')).toBe(true);
    expect(isAboveCap('5.00', '5')).toBe(false);
    expect(isAboveCap('10', '9.99')).toBe(true);
    expect(isAboveCap('999', null)).toBe(false);
    expect(isAboveCap('999', '')).toBe(false);
  });
});
