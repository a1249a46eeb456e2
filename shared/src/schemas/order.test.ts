import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { US_STATE_CODES } from '../us-states.ts';
import { firstIssueMessage, issuesByField } from './common.ts';
import {
  CreateOrderSchema,
  StoreCheckoutFormSchema,
  shippingAddressFromForm,
  UniversalCheckoutFormSchema,
} from './order.ts';

const form = {
  customerEmail: 'ada@example.com',
  phone: '+1 555 0100',
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};

/** First issue message of the store checkout form with `patch` applied. */
function formError(patch: Record<string, unknown>) {
  return firstIssueMessage(v.safeParse(StoreCheckoutFormSchema, { ...form, ...patch }));
}

describe('customer and shipping form', () => {
  it.each([
    ['customerEmail', '', 'Invalid email address'],
    ['customerEmail', 'not-an-email', 'Invalid email address'],
    ['customerEmail', 'a@b', 'Invalid email address'],
    ['customerEmail', undefined, 'Invalid email address'],
    ['phone', '', 'Phone number is required'],
    ['firstName', '', 'First name is required'],
    ['lastName', ' ', 'Last name is required'],
    ['street', '', 'Street address is required'],
    ['city', '', 'City is required'],
    ['state', '', 'State is required'],
    ['state', undefined, 'State is required'],
    ['zipCode', '', 'ZIP code is required'],
  ])('%s = %j -> %s', (field, value, message) => {
    expect(formError({ [field]: value })).toBe(message);
  });

  it('accepts every US state code including DC, and nothing else', () => {
    expect(US_STATE_CODES).toHaveLength(51);
    for (const state of US_STATE_CODES) expect(formError({ state })).toBeUndefined();
    expect(formError({ state: 'DC' })).toBeUndefined();
    expect(formError({ state: 'PR' })).toBe('State must be a US state code');
    expect(formError({ state: 'il' })).toBe('State must be a US state code');
  });

  it('checks fields in form order and reports each field once', () => {
    const result = v.safeParse(StoreCheckoutFormSchema, {});
    expect(firstIssueMessage(result)).toBe('Invalid email address');
    expect(Object.values(issuesByField(result))).toEqual([
      'Invalid email address',
      'Phone number is required',
      'First name is required',
      'Last name is required',
      'Street address is required',
      'City is required',
      'State is required',
      'ZIP code is required',
    ]);
  });

  it('store checkout defaults the method to free; universal leaves it optional', () => {
    expect(v.parse(StoreCheckoutFormSchema, form).shippingMethod).toBe('free');
    expect(v.parse(UniversalCheckoutFormSchema, form).shippingMethod).toBeUndefined();
    expect(v.parse(UniversalCheckoutFormSchema, { ...form, shippingMethod: 'express' })).toEqual({
      ...form,
      country: 'US',
      shippingMethod: 'express',
    });
  });

  it('allows only free, standard or express', () => {
    for (const shippingMethod of ['free', 'standard', 'express']) {
      expect(formError({ shippingMethod })).toBeUndefined();
    }
    expect(formError({ shippingMethod: 'overnight' })).toBe(
      'Shipping method must be free, standard or express',
    );
  });

  it('trims fields and builds the shipping address with the customer email', () => {
    const parsed = v.parse(StoreCheckoutFormSchema, { ...form, city: '  Springfield ' });
    expect(shippingAddressFromForm(parsed)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 555 0100',
      street: '1 Main St',
      city: 'Springfield',
      country: 'US',
      state: 'IL',
      zipCode: '62701',
    });
  });
});

describe('addresses by country', () => {
  const germany = { ...form, country: 'DE', state: '', zipCode: '10115', city: 'Berlin' };

  it('keeps the US rules and messages with or without country US', () => {
    expect(formError({ country: 'US' })).toBeUndefined();
    expect(formError({ country: 'US', state: '' })).toBe('State is required');
    expect(formError({ country: 'US', state: 'Bavaria' })).toBe('State must be a US state code');
    expect(formError({ country: 'US', zipCode: '' })).toBe('ZIP code is required');
    expect(v.parse(StoreCheckoutFormSchema, form).country).toBe('US');
  });

  it('accepts a German address with a postcode and no region', () => {
    const parsed = v.parse(StoreCheckoutFormSchema, germany);
    expect(parsed).toMatchObject({ country: 'DE', state: '', zipCode: '10115' });
    expect(shippingAddressFromForm(parsed)).toMatchObject({ country: 'DE', city: 'Berlin' });
    expect(formError({ ...germany, state: undefined, zipCode: undefined })).toBeUndefined();
  });

  it('accepts a UK address with a region and a spaced postcode', () => {
    const uk = { ...form, country: 'GB', city: 'London', state: 'Greater London' };
    expect(formError({ ...uk, zipCode: 'SW1A 1AA' })).toBeUndefined();
    expect(formError({ ...uk, zipCode: 'SW1A/1AA' })).toBe(
      'Postal code can only contain letters, numbers, spaces and hyphens',
    );
    expect(formError({ ...uk, state: 'x'.repeat(201) })).toBe(
      'State / Province / Region must be at most 200 characters',
    );
  });

  it('still requires the other fields elsewhere, in form order', () => {
    const result = v.safeParse(StoreCheckoutFormSchema, { country: 'DE' });
    expect(Object.values(issuesByField(result))).toEqual([
      'Invalid email address',
      'Phone number is required',
      'First name is required',
      'Last name is required',
      'Street address is required',
      'City is required',
    ]);
  });

  it('refuses a country outside the list on the country field', () => {
    for (const country of ['XX', 'de', 'UK', '', 7]) {
      const result = v.safeParse(StoreCheckoutFormSchema, { ...germany, country });
      expect(issuesByField(result)).toEqual({ country: 'Choose a country from the list' });
    }
  });

  it('gives the order body the same rules', () => {
    const address = shippingAddressFromForm(v.parse(StoreCheckoutFormSchema, germany));
    const body = {
      storeId: 's1',
      customerEmail: form.customerEmail,
      shippingAddress: address,
      items: [{ productId: 'p1', title: 'Mug', priceUsdc: '10.00', quantity: 1 }],
      subtotalUsdc: '10.00',
      shippingUsdc: '0.00',
      totalUsdc: '10.80',
    };
    expect(v.parse(CreateOrderSchema, body).shippingAddress).toEqual(address);
    const { country: _, ...usAddress } = { ...address, state: 'IL', zipCode: '62701' };
    expect(
      v.parse(CreateOrderSchema, { ...body, shippingAddress: usAddress }).shippingAddress,
    ).toMatchObject({ country: 'US', state: 'IL' });
    expect(
      firstIssueMessage(
        v.safeParse(CreateOrderSchema, { ...body, shippingAddress: { ...address, country: 'XX' } }),
      ),
    ).toBe('Choose a country from the list');
  });
});

describe('POST /api/orders body', () => {
  const { customerEmail, ...rest } = form;
  const body = {
    storeId: 'store-1',
    customerEmail,
    shippingAddress: { ...rest, email: customerEmail },
    items: [{ productId: 'p1', title: 'Hoodie', priceUsdc: '12.99', quantity: 2 }],
    subtotalUsdc: '25.98',
    shippingUsdc: '12.99',
    totalUsdc: '41.05',
  };

  it('accepts the documented body and defaults status to pending', () => {
    expect(v.parse(CreateOrderSchema, body).status).toBe('pending');
  });

  it('rejects an empty cart, bad money strings and other statuses', () => {
    expect(firstIssueMessage(v.safeParse(CreateOrderSchema, { ...body, items: [] }))).toBe(
      'Cart is empty',
    );
    expect(v.is(CreateOrderSchema, { ...body, totalUsdc: '41.055' })).toBe(false);
    expect(v.is(CreateOrderSchema, { ...body, totalUsdc: 41.05 })).toBe(false);
    expect(v.is(CreateOrderSchema, { ...body, status: 'paid' })).toBe(false);
    const zeroQuantity = { ...body, items: [{ ...body.items[0], quantity: 0 }] };
    expect(v.is(CreateOrderSchema, zeroQuantity)).toBe(false);
  });
});
