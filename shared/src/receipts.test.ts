import { describe, expect, it } from 'vitest';
import { receiptIsEmailed } from './receipts.ts';

describe('receiptIsEmailed', () => {
  it('emails store orders and signed universal links, never unsigned ones', () => {
    expect(receiptIsEmailed('storefront')).toBe(true);
    expect(receiptIsEmailed('checkout_session')).toBe(true);
    expect(receiptIsEmailed('signed_link')).toBe(true);
    expect(receiptIsEmailed('unsigned_link')).toBe(false);
  });
});
