import { describe, expect, it } from 'vitest';
import {
  aboveRefundCap,
  may,
  mayInSome,
  mayRefundIn,
  refundCapIn,
  roleIn,
  storesAllowing,
} from './permissions.ts';

describe('what the admin shows a role', () => {
  it('follows the shared permission table', () => {
    expect(may({ role: 'viewer' }, 'read')).toBe(true);
    expect(may({ role: 'viewer' }, 'operate')).toBe(false);
    expect(may({ role: 'staff' }, 'refund')).toBe(true);
    expect(may({ role: 'staff' }, 'manage')).toBe(false);
    expect(may({ role: 'admin' }, 'audit')).toBe(true);
    expect(may({ role: 'admin' }, 'payout')).toBe(false);
    expect(may({ role: 'owner' }, 'team')).toBe(true);
    expect(may(undefined, 'read')).toBe(false);
  });

  it('offers refunds to staff only with a limit', () => {
    expect(mayRefundIn({ role: 'staff', refundLimitUsdc: '25.00' })).toBe(true);
    expect(mayRefundIn({ role: 'staff', refundLimitUsdc: null })).toBe(false);
    expect(mayRefundIn({ role: 'staff', refundLimitUsdc: '0.00' })).toBe(false);
    expect(mayRefundIn({ role: 'admin', refundLimitUsdc: null })).toBe(true);
    expect(mayRefundIn({ role: 'viewer' })).toBe(false);
    expect(mayRefundIn(undefined)).toBe(false);
  });

  it('caps a staff member’s refunds at their limit, and no one else’s', () => {
    expect(refundCapIn({ role: 'staff', refundLimitUsdc: '25.00' })).toBe('25.00');
    expect(refundCapIn({ role: 'admin', refundLimitUsdc: '25.00' })).toBeNull();
    expect(refundCapIn({ role: 'owner' })).toBeNull();
    expect(refundCapIn({})).toBeNull();
    expect(refundCapIn(undefined)).toBeNull();
  });

  it('tells an amount above a staff member’s limit, as the API counts it', () => {
    expect(aboveRefundCap('2.50', '2.51')).toBe(true);
    expect(aboveRefundCap('2.50', '2.50')).toBe(false);
    expect(aboveRefundCap('2.50', ' 1 ')).toBe(false);
    expect(aboveRefundCap('2.50', '2.500001')).toBe(true);
    expect(aboveRefundCap(null, '1000000')).toBe(false);
    expect(aboveRefundCap('2.50', 'ten')).toBe(false);
  });

  it('treats a store made on this device as its creator’s', () => {
    expect(roleIn({})).toBe('owner');
    expect(may({}, 'payout')).toBe(true);
  });

  it('offers a page when some store allows it, or before any store', () => {
    expect(mayInSome([], 'team')).toBe(true);
    expect(mayInSome([{ role: 'viewer' }, { role: 'staff' }], 'team')).toBe(false);
    expect(mayInSome([{ role: 'viewer' }, { role: 'admin' }], 'audit')).toBe(true);
    const stores = [{ item: { role: 'viewer' as const } }, { item: { role: 'owner' as const } }];
    expect(storesAllowing(stores, 'team')).toEqual([stores[1]]);
  });
});
