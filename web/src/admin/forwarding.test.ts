// The orders page's texts: the forwarding badge and the stock warning; and the order schemas: the
// API's one shape for answers, and orders an earlier version saved read in that shape.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  forwardingLabel,
  forwardingNote,
  isForwardingUnsettled,
  stockShortfallText,
} from './forwarding.ts';
import { CachedOrdersSchema, MerchantOrderSchema } from './types.ts';

describe('forwardingLabel', () => {
  it('names each forwarding status as the merchant reads it', () => {
    expect(forwardingLabel('completed')).toBe('forwarded');
    expect(forwardingLabel('none')).toBe('pending');
    expect(forwardingLabel('forwarding')).toBe('pending');
    expect(forwardingLabel('retrying')).toBe('retrying');
    expect(forwardingLabel('waiting_relayer')).toBe('retrying');
    expect(forwardingLabel('failed')).toBe('failed');
    expect(forwardingLabel('canceled')).toBe('canceled');
  });

  it('re-reads only what can still change by itself', () => {
    expect(['none', 'forwarding', 'retrying', 'waiting_relayer'].every(isForwardingUnsettled)).toBe(
      true,
    );
    expect(isForwardingUnsettled('completed')).toBe(false);
    expect(isForwardingUnsettled('failed')).toBe(false);
    expect(isForwardingUnsettled('canceled')).toBe(false);
  });
});

describe('forwardingNote', () => {
  it("says a forwarding waiting for the relayer is the platform's side and goes by itself", () => {
    expect(
      forwardingNote({
        status: 'waiting_relayer',
        lastError: 'waiting for relayer: the relayer is out of ETH for gas',
      }),
    ).toBe(
      "Waiting for the platform's relayer to pay the gas (the relayer is out of ETH for gas); " +
        'your payment is safe and is forwarded by itself, nothing to do on your side',
    );
  });

  it('shows the last error of a retrying or failed forwarding, nothing otherwise', () => {
    expect(forwardingNote({ status: 'failed', lastError: 'blacklisted' })).toBe('blacklisted');
    expect(forwardingNote({ status: 'retrying', lastError: 'timeout' })).toBe('timeout');
    expect(forwardingNote({ status: 'completed', lastError: null })).toBeNull();
    expect(forwardingNote({ status: 'canceled', lastError: 'the payment left the chain' })).toBe(
      'the payment left the chain',
    );
  });
});

describe('stockShortfallText', () => {
  it('counts what could not be taken from stock', () => {
    expect(stockShortfallText([{ productId: 'p1', title: 'Lamp', ordered: 3, available: 1 }])).toBe(
      'Stock ran out: 2 × Lamp could not be taken from stock — refund or restock',
    );
  });

  it('lists every line', () => {
    const lines = [
      { productId: 'p1', title: 'Lamp', ordered: 2, available: 0 },
      { productId: 'p2', title: 'Mug', ordered: 1, available: 0 },
    ];
    expect(stockShortfallText(lines)).toBe(
      'Stock ran out: 2 × Lamp, 1 × Mug could not be taken from stock — refund or restock',
    );
  });
});

describe('order schemas', () => {
  /** An order as the admin saved it before orders had a source, a discount or a tax. */
  const saved = {
    id: 'o1',
    storeId: 's1',
    customerEmail: 'a@example.com',
    items: [{ productId: 'p1', title: 'Lamp', quantity: 1, priceUsdc: '10.00' }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.00',
    status: 'paid',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
  const shortfall = [{ productId: 'p1', title: 'Lamp', ordered: 1, available: 0 }];

  it("reads the API's answer as the API's one order shape, refusing one short of a field", () => {
    const answer = {
      ...saved,
      source: 'checkout_session',
      payeeAddress: null,
      discountCode: 'SPRING',
      discountUsdc: '1.00',
      taxUsdc: '0.00',
      shippingAddress: null,
      paymentChain: 'base',
      paymentTxHash: null,
      paymentAddress: null,
      metadata: null,
      stockShortfall: shortfall,
    };
    const parsed = v.parse(MerchantOrderSchema, answer);
    expect(parsed.source).toBe('checkout_session');
    expect(parsed.stockShortfall).toEqual(shortfall);
    const { discountUsdc: _, ...short } = answer;
    expect(v.safeParse(MerchantOrderSchema, short).success).toBe(false);
  });

  it('reads an order saved by an earlier version as a storefront order with no discount or tax', () => {
    const [order] = v.parse(CachedOrdersSchema, [{ ...saved, stockShortfall: shortfall }]);
    expect(order?.source).toBe('storefront');
    expect(order?.discountUsdc).toBe('0.00');
    expect(order?.taxUsdc).toBe('0.00');
    expect(order?.stockShortfall).toEqual(shortfall);
  });

  it('drops a malformed shortfall, and leaves out an order that cannot be read, not the list', () => {
    const orders = v.parse(CachedOrdersSchema, [
      { ...saved, stockShortfall: 'x' },
      { ...saved, id: 'o2', totalUsdc: 'lots' },
      { ...saved, id: 'o3' },
    ]);
    expect(orders.map((o) => o.id)).toEqual(['o1', 'o3']);
    expect(orders[0]?.stockShortfall).toBeUndefined();
  });
});
