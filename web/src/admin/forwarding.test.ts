// The orders page's texts: the forwarding badge and the stock warning; and the order schema keeps
// the stock shortfall while ignoring a malformed one.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  forwardingLabel,
  forwardingNote,
  isForwardingUnsettled,
  stockShortfallText,
} from './forwarding.ts';
import { MerchantOrderSchema } from './types.ts';

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

describe('MerchantOrderSchema metadata', () => {
  const order = {
    id: 'o1',
    storeId: 's1',
    customerEmail: 'a@example.com',
    items: [{ title: 'Lamp', quantity: 1, priceUsdc: '10.00' }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.00',
    status: 'paid',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
  };

  it('keeps the stock shortfall', () => {
    const shortfall = [{ productId: 'p1', title: 'Lamp', ordered: 1, available: 0 }];
    const parsed = v.parse(MerchantOrderSchema, { ...order, stockShortfall: shortfall });
    expect(parsed.stockShortfall).toEqual(shortfall);
  });

  it('ignores a malformed shortfall rather than hiding the order', () => {
    const parsed = v.parse(MerchantOrderSchema, { ...order, stockShortfall: 'x' });
    expect(parsed.stockShortfall).toBeUndefined();
  });
});
