// The hosted checkout's first form values: the session's pre-fill, a full name split in two, and
// the first shipping option chosen.
import type { PublicCheckoutSession } from '@store/shared';
import { describe, expect, test } from 'vitest';
import { sessionDefaults } from './session-form.tsx';

const session = (patch: Partial<PublicCheckoutSession> = {}): PublicCheckoutSession => ({
  id: 'cs_test',
  status: 'open',
  store: {
    name: 'Shop',
    logoUrl: null,
    theme: 'dark',
    primaryColor: '#6366f1',
    secondaryColor: '#8b5cf6',
    accentColor: '#06b6d4',
  },
  items: [{ title: 'Shirt', priceUsdc: '20.00', quantity: 1 }],
  shippingOptions: [],
  subtotalUsdc: '20.00',
  discountCode: null,
  discountUsdc: '0.00',
  taxUsdc: '0.00',
  currency: 'USDC',
  customer: null,
  returnUrl: null,
  cancelUrl: null,
  expiresAt: '2030-01-01T00:00:00.000Z',
  orderId: null,
  ...patch,
});

describe('sessionDefaults', () => {
  test('empty without a pre-fill, no shipping option without options', () => {
    expect(sessionDefaults(session())).toMatchObject({
      customerEmail: '',
      firstName: '',
      lastName: '',
      shippingOptionId: undefined,
    });
  });

  test('a full name is split at its first space; explicit first and last names win', () => {
    const named = sessionDefaults(
      session({ customer: { email: 'g@example.com', name: 'Grace Brewster Hopper' } }),
    );
    expect(named).toMatchObject({
      customerEmail: 'g@example.com',
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
    });
    const explicit = sessionDefaults(
      session({ customer: { name: 'Grace Hopper', firstName: 'Amazing', zipCode: '22202' } }),
    );
    expect(explicit).toMatchObject({ firstName: 'Amazing', lastName: 'Hopper', zipCode: '22202' });
  });

  test('the first shipping option is chosen', () => {
    const options = [
      { id: 'std', label: 'Standard', priceUsdc: '4.00' },
      { id: 'pickup', label: 'Pick up', priceUsdc: '0.00' },
    ];
    expect(sessionDefaults(session({ shippingOptions: options })).shippingOptionId).toBe('std');
  });
});
