import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ZERO_ADDRESS } from '../address.ts';
import { LIMIT_MESSAGES, MAX_ORDER_LINES, TEXT_LIMITS } from '../limits.ts';
import { PAYOUT_ADDRESS_MESSAGES } from '../messages.ts';
import { firstIssueMessage } from './common.ts';
import { CreateUniversalOrderSchema, CreateUniversalWalletSchema } from './universal.ts';

const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '555',
  street: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};
const items = [
  { productId: 'universal-1-abc', title: 'Tee', priceUsdc: '10.00', quantity: 1, imageUrl: null },
];
const common = {
  externalOrderId: 'ORDER-1-ABC',
  storeName: 'External Shop',
  storePaymentAddress: `0x${'d'.repeat(40)}`,
  webhookUrl: 'https://shop.example.com/hooks/usdc',
  customerEmail: 'ada@example.com',
  shippingAddress: address,
  items,
  subtotalUsdc: '10.00',
  shippingUsdc: '0.00',
  totalUsdc: '10.00',
};

describe('universal-orders bodies', () => {
  it('accepts the checkout body with status pending, keeping only the branding of its metadata', () => {
    const parsed = v.parse(CreateUniversalOrderSchema, {
      ...common,
      metadata: { isUniversal: true, theme: 'light', storePaymentAddress: `0x${'e'.repeat(40)}` },
    });
    expect(parsed.status).toBe('pending');
    expect(parsed.metadata).toEqual({ theme: 'light' });
  });

  it('refuses what a stranger could use to make an order heavy or unpayable', () => {
    const issue = (body: object) =>
      firstIssueMessage(v.safeParse(CreateUniversalOrderSchema, { ...common, ...body }));
    const line = items[0];
    expect(issue({ items: Array.from({ length: 10_000 }, () => line) })).toBe(
      LIMIT_MESSAGES.tooManyLines,
    );
    expect(issue({ items: Array.from({ length: MAX_ORDER_LINES }, () => line) })).toBeUndefined();
    expect(issue({ storeName: 'x'.repeat(TEXT_LIMITS.name + 1) })).toBe(
      'Store name must be at most 120 characters',
    );
    expect(issue({ storePaymentAddress: ZERO_ADDRESS })).toBe(PAYOUT_ADDRESS_MESSAGES.zero);
    expect(issue({ externalOrderId: 'x'.repeat(201) })).toBe(
      'External order id must be at most 200 characters',
    );
    expect(issue({ webhookUrl: `https://example.com/${'a'.repeat(3000)}` })).toBe(
      'Webhook URL must be at most 2,048 characters',
    );
  });

  it('accepts the payment page body with paymentChain', () => {
    expect(v.parse(CreateUniversalWalletSchema, common).paymentChain).toBe('base');
  });

  it('allows externalOrderId and webhookUrl to be absent', () => {
    const { externalOrderId: _id, webhookUrl: _url, ...rest } = common;
    expect(v.is(CreateUniversalOrderSchema, rest)).toBe(true);
  });

  it('rejects a bad payout address and non-http webhook URLs', () => {
    expect(
      firstIssueMessage(
        v.safeParse(CreateUniversalOrderSchema, { ...common, storePaymentAddress: '0x123' }),
      ),
    ).toBe('Invalid payment address format. Must be a valid Ethereum address.');
    for (const webhookUrl of ['javascript:alert(1)', 'ftp://x.example', 'not a url']) {
      expect(v.is(CreateUniversalOrderSchema, { ...common, webhookUrl })).toBe(false);
    }
  });
});
