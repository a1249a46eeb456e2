import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  DISCOUNT_MESSAGES,
  DiscountInputSchema,
  type DiscountRule,
  describeDiscount,
  discountAmount,
  discountRefusal,
} from './discounts.ts';

const mug = { productId: 'A1', priceUsdc: '20.00', quantity: 2 };
const pin = { productId: 'b2', priceUsdc: '5.00', quantity: 1 };
const rule = (patch: Partial<DiscountRule>): DiscountRule => ({
  code: 'X',
  kind: 'percent',
  percentBps: 1000,
  amountUsdc: null,
  minimumSubtotalUsdc: '0.00',
  productIds: null,
  ...patch,
});

describe('discount amount', () => {
  it('takes a percentage of the eligible lines, rounded half up to the cent', () => {
    expect(discountAmount([mug, pin], rule({}))).toBe(4_500_000n);
    expect(discountAmount([mug, pin], rule({ productIds: ['a1'] }))).toBe(4_000_000n);
    expect(discountAmount([{ ...pin, priceUsdc: '0.05' }], rule({ percentBps: 1000 }))).toBe(
      10_000n,
    );
  });

  it('takes a fixed amount, never more than the eligible lines', () => {
    expect(discountAmount([mug, pin], rule({ kind: 'fixed', amountUsdc: '7.50' }))).toBe(
      7_500_000n,
    );
    expect(
      discountAmount([mug, pin], rule({ kind: 'fixed', amountUsdc: '50.00', productIds: ['B2'] })),
    ).toBe(5_000_000n);
  });

  it('says why a code cannot apply: the minimum, or none of its products', () => {
    expect(discountRefusal([mug], rule({ minimumSubtotalUsdc: '40.01' }))).toBe(
      DISCOUNT_MESSAGES.minimum('40.01'),
    );
    expect(discountRefusal([mug], rule({ minimumSubtotalUsdc: '40.00' }))).toBeUndefined();
    expect(discountRefusal([mug], rule({ productIds: ['b2'] }))).toBe(DISCOUNT_MESSAGES.noProducts);
  });

  it('names a rule for people', () => {
    expect(describeDiscount(rule({ percentBps: 1250 }))).toBe('12.5% off');
    expect(describeDiscount(rule({ kind: 'fixed', amountUsdc: '5.00', productIds: ['a'] }))).toBe(
      '5.00 USDC off one product',
    );
  });
});

describe('discount input', () => {
  it('upper-cases codes and checks kind, amounts and caps', () => {
    const ok = v.parse(DiscountInputSchema, {
      code: ' spring-25 ',
      kind: 'percent',
      percentBps: 2500,
    });
    expect(ok).toMatchObject({ code: 'SPRING-25', minimumSubtotalUsdc: '0.00', isActive: true });
    const message = (input: unknown) =>
      v.safeParse(DiscountInputSchema, input).issues?.[0]?.message;
    expect(message({ code: 'ab', kind: 'percent', percentBps: 10 })).toBe(DISCOUNT_MESSAGES.code);
    expect(message({ code: 'abc', kind: 'percent' })).toBe(DISCOUNT_MESSAGES.percent);
    expect(message({ code: 'abc', kind: 'percent', percentBps: 10_001 })).toBe(
      DISCOUNT_MESSAGES.percent,
    );
    expect(message({ code: 'abc', kind: 'fixed', amountUsdc: '0' })).toBe(DISCOUNT_MESSAGES.amount);
    expect(message({ code: 'abc', kind: 'fixed', amountUsdc: '1', maxUses: 0 })).toBe(
      DISCOUNT_MESSAGES.maxUses,
    );
  });
});
