// What an oversold order owes its payer.
import { describe, expect, test } from 'bun:test';
import { parseUsdc } from '@store/shared';
import { oversoldRefundAmount } from './oversold.ts';

const line = (productId: string, priceUsdc: string, quantity: number) => ({
  productId,
  title: productId,
  priceUsdc,
  quantity,
});
// 2 lamps at 25.00 and 1 vase at 12.99: 62.99 + 12.99 shipping + 5.04 tax = 81.02
const order = {
  items: [line('lamp', '25.00', 2), line('vase', '12.99', 1)],
  subtotalUsdc: '62.99',
  taxUsdc: '5.04',
  totalUsdc: '81.02',
};
const short = (shortfall: { productId: string; ordered: number; available: number }[]) => ({
  ...order,
  stockShortfall: shortfall.map((s) => ({ ...s, title: s.productId })),
});

describe('oversoldRefundAmount', () => {
  test('nothing short, nothing owed', () => {
    expect(oversoldRefundAmount({ ...order, stockShortfall: null })).toBe(0n);
    expect(oversoldRefundAmount(short([]))).toBe(0n);
  });

  test('everything short: the whole total, shipping included', () => {
    const all = short([
      { productId: 'lamp', ordered: 2, available: 0 },
      { productId: 'vase', ordered: 1, available: 0 },
    ]);
    expect(oversoldRefundAmount(all)).toBe(parseUsdc('81.02'));
  });

  test('one lamp of two short: its price and its share of the tax, rounded down', () => {
    const one = short([{ productId: 'lamp', ordered: 2, available: 1 }]);
    // 25.00 + 5.04 × 25.00 / 62.99 = 25.00 + 2.000317... → 27.000317 USDC
    expect(oversoldRefundAmount(one)).toBe(
      parseUsdc('25') + (5_040_000n * 25_000_000n) / 62_990_000n,
    );
    expect(oversoldRefundAmount(one)).toBeLessThan(parseUsdc('81.02'));
  });

  test("prices that include the tax: the units' price alone (their tax is inside it)", () => {
    // 62.99 with 19% inside (10.06) + 12.99 shipping = 75.98
    const included = {
      ...order,
      shippingUsdc: '12.99',
      discountUsdc: '0.00',
      taxUsdc: '10.06',
      totalUsdc: '75.98',
      stockShortfall: [{ productId: 'lamp', title: 'lamp', ordered: 2, available: 1 }],
    };
    expect(oversoldRefundAmount(included)).toBe(parseUsdc('25'));
    // The same figures with the tax added (total 86.04) still add its share.
    expect(oversoldRefundAmount({ ...included, totalUsdc: '86.04' })).toBe(
      parseUsdc('25') + (10_060_000n * 25_000_000n) / 62_990_000n,
    );
  });
});
