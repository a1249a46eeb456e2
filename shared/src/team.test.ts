import { describe, expect, it } from 'vitest';
import {
  effectiveRole,
  mayRefund,
  roleAllows,
  roleAtMost,
  STORE_PERMISSIONS,
  STORE_ROLES,
} from './team.ts';

describe('roleAllows', () => {
  it('gives each role what the issue defines, and nothing more', () => {
    const table = Object.fromEntries(
      STORE_ROLES.map((role) => [role, STORE_PERMISSIONS.filter((p) => roleAllows(role, p))]),
    );
    expect(table).toEqual({
      owner: ['read', 'operate', 'refund', 'manage', 'payout', 'team', 'audit'],
      admin: ['read', 'operate', 'refund', 'manage', 'audit'],
      staff: ['read', 'operate', 'refund'],
      viewer: ['read'],
    });
  });
});

describe('an API key carries its member’s role or less', () => {
  it.each([
    ['viewer', 'owner', true],
    ['staff', 'admin', true],
    ['admin', 'admin', true],
    ['owner', 'admin', false],
    ['admin', 'staff', false],
  ] as const)('%s at most %s: %s', (role, than, expected) => {
    expect(roleAtMost(role, than)).toBe(expected);
  });
  it('acts with the lesser role', () => {
    expect(effectiveRole('admin', 'viewer')).toBe('viewer');
    expect(effectiveRole('staff', 'owner')).toBe('staff');
    expect(effectiveRole('staff', null)).toBe('staff');
  });
});

describe('mayRefund', () => {
  it('lets owners and admins refund any amount, staff up to the limit, viewers never', () => {
    expect(mayRefund('owner', '1000.00', null)).toBe(true);
    expect(mayRefund('admin', '1000.00', '5.00')).toBe(true);
    expect(mayRefund('staff', '5.00', '5.00')).toBe(true);
    expect(mayRefund('staff', '5.000001', '5.00')).toBe(false);
    expect(mayRefund('staff', '0.01', null)).toBe(false);
    expect(mayRefund('viewer', '0.01', '100.00')).toBe(false);
  });
});
