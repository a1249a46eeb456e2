import { describe, expect, test } from 'bun:test';
import { getAddress } from 'viem';
import { type IncomingTransfer, payerOf } from './refund-payer.ts';

const shopper = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
const other = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
const payout = '0xa0ee7a142d267c1f36714e4a8f75612f20a79720';
const at = (from: string, value: bigint, second: number): IncomingTransfer => ({
  from,
  value,
  blockTimestamp: BigInt(second),
});
const rules = (windowEndsAt: number | null = 100_000) => ({
  expected: 10_000_000n,
  windowEndsAt,
  excluded: new Set([payout]),
});

describe('the payer of a deposit address', () => {
  test('is the sender of the payment, checksummed', () => {
    expect(payerOf([at(shopper, 10_000_000n, 10)], rules())).toBe(getAddress(shopper));
  });

  test('a transfer after the amount was reached never counts (dust after a payment)', () => {
    const transfers = [at(shopper, 10_000_000n, 10), at(other, 50_000_000n, 20)];
    expect(payerOf(transfers, rules())).toBe(getAddress(shopper));
  });

  test('dust before the payment loses to the payment: the largest sender counts', () => {
    const transfers = [at(other, 1n, 5), at(shopper, 4_000_000n, 10)];
    expect(payerOf(transfers, rules())).toBe(getAddress(shopper));
  });

  test('after a window that closed with money in it, later transfers do not count', () => {
    const transfers = [at(shopper, 2_000_000n, 50), at(other, 3_000_000n, 200)];
    expect(payerOf(transfers, rules(100_000))).toBe(getAddress(shopper));
  });

  test('a payment that all arrived late is its sender’s', () => {
    expect(payerOf([at(shopper, 4_000_000n, 200)], rules(100_000))).toBe(getAddress(shopper));
  });

  test('the store’s payout wallet is never the payer', () => {
    expect(payerOf([at(payout, 10_000_000n, 10)], rules())).toBeNull();
    expect(payerOf([at(payout, 9_000_000n, 10), at(shopper, 1n, 11)], rules())).toBe(
      getAddress(shopper),
    );
  });

  test('the earliest sender wins a tie', () => {
    const transfers = [at(shopper, 3n, 10), at(other, 3n, 11)];
    expect(payerOf(transfers, rules())).toBe(getAddress(shopper));
  });
});
