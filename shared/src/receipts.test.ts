import { describe, expect, it } from 'vitest';
import { receiptIsEmailed } from './receipts.ts';

describe('receiptIsEmailed', () => {
  it('emails store orders and signed universal links, never unsigned ones', () => {
    expect(receiptIsEmailed(null)).toBe(true);
    expect(receiptIsEmailed({ checkoutSessionId: 'cs_1' })).toBe(true);
    expect(receiptIsEmailed({ isUniversal: true, signed: true })).toBe(true);
    expect(receiptIsEmailed({ isUniversal: true, signed: false })).toBe(false);
    expect(receiptIsEmailed({ isUniversal: true })).toBe(false);
  });
});
