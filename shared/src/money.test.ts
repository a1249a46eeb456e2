import { describe, expect, it } from 'vitest';
import {
  divideRoundHalfUp,
  formatUsdc,
  formatUsdcFull,
  InvalidAmountError,
  isPriceString,
  multiplyUsdc,
  normalizePriceString,
  parsePrice,
  parseUsdc,
  percentOf,
  roundToCent,
  splitFee,
  sumUsdc,
  tryParseUsdc,
} from './money.ts';

describe('parseUsdc', () => {
  it.each([
    ['12.99', 12_990_000n],
    ['0.25', 250_000n],
    ['10', 10_000_000n],
    ['0', 0n],
    ['0.000001', 1n],
    ['1.5', 1_500_000n],
    ['007.10', 7_100_000n],
    ['123456789012345678901234567890.123456', 123456789012345678901234567890123456n],
  ])('parses %s', (input, expected) => {
    expect(parseUsdc(input)).toBe(expected);
  });

  it.each([
    '-1',
    '+1',
    '1.0000001',
    'abc',
    '',
    ' 1',
    '1 ',
    '1.',
    '.5',
    '1e3',
    '1,5',
    '0x10',
    'NaN',
    'Infinity',
    '1.2.3',
  ])('rejects %j', (input) => {
    expect(() => parseUsdc(input)).toThrow(InvalidAmountError);
    expect(tryParseUsdc(input)).toBeUndefined();
  });
});

describe('formatUsdc', () => {
  it.each([
    [12_990_000n, '12.99'],
    [0n, '0.00'],
    [1n, '0.00'],
    [4_999n, '0.00'],
    [5_000n, '0.01'],
    [10_000n, '0.01'],
    [1_994_999n, '1.99'],
    [1_995_000n, '2.00'],
    [100_000_000n, '100.00'],
    [-1_995_000n, '-2.00'],
    [-5_000n, '-0.01'],
    [99_999_999_990_000n, '99999999.99'],
    [10n ** 30n, '1000000000000000000000000.00'],
  ])('formats %s as %s', (amount, expected) => {
    expect(formatUsdc(amount)).toBe(expected);
  });

  it('formats all 6 decimals exactly', () => {
    expect(formatUsdcFull(12_990_000n)).toBe('12.990000');
    expect(formatUsdcFull(1n)).toBe('0.000001');
    expect(formatUsdcFull(-1n)).toBe('-0.000001');
    expect(formatUsdcFull(123_456_789n)).toBe('123.456789');
  });

  it('round-trips through parse', () => {
    for (const text of ['0.000001', '12.990000', '98765.432101']) {
      expect(formatUsdcFull(parseUsdc(text))).toBe(text);
    }
    expect(normalizePriceString('10')).toBe('10.00');
    expect(normalizePriceString('0.5')).toBe('0.50');
  });
});

describe('arithmetic', () => {
  it('sums, including an empty list', () => {
    expect(sumUsdc([])).toBe(0n);
    expect(sumUsdc([1n, 2n, 12_990_000n])).toBe(12_990_003n);
  });

  it('multiplies by integer quantities only', () => {
    expect(multiplyUsdc(12_990_000n, 3)).toBe(38_970_000n);
    expect(multiplyUsdc(1n, 0)).toBe(0n);
    expect(multiplyUsdc(10n ** 20n, 10n ** 10n)).toBe(10n ** 30n);
    expect(() => multiplyUsdc(1n, 1.5)).toThrow(InvalidAmountError);
    expect(() => multiplyUsdc(1n, -1)).toThrow(InvalidAmountError);
    expect(() => multiplyUsdc(1n, Number.NaN)).toThrow(InvalidAmountError);
  });

  it('divides rounding half away from zero', () => {
    expect(divideRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divideRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divideRoundHalfUp(-5n, 10n)).toBe(-1n);
    expect(divideRoundHalfUp(15n, 10n)).toBe(2n);
    expect(() => divideRoundHalfUp(1n, 0n)).toThrow(InvalidAmountError);
  });

  it('rounds to the cent half up', () => {
    expect(roundToCent(12_994_999n)).toBe(12_990_000n);
    expect(roundToCent(12_995_000n)).toBe(13_000_000n);
  });
});

describe('percentOf (8% tax, half up to the cent)', () => {
  it.each([
    [100_000_000n, 8_000_000n], // 100.00 -> 8.00
    [12_990_000n, 1_040_000n], // 12.99 * 8% = 1.0392 -> 1.04
    [62_500n, 10_000n], // 0.0625 * 8% = 0.005 -> 0.01 (half up)
    [62_499n, 0n], // 0.00499992 -> 0.00
    [250_000n, 20_000n], // 0.25 -> 0.02
    [1n, 0n],
    [0n, 0n],
    [99_999_999_990_000n, 8_000_000_000_000n], // 99999999.99 * 8% = 7999999.9992 -> 8000000.00
  ])('8%% of %s is %s', (amount, expected) => {
    expect(percentOf(amount, 800n)).toBe(expected);
  });
});

describe('splitFee (2% rounded down)', () => {
  it.each([
    [0n, 0n, 0n],
    [1n, 1n, 0n],
    [49n, 49n, 0n],
    [50n, 49n, 1n],
    [99n, 98n, 1n],
    [100n, 98n, 2n],
    [1_000_000n, 980_000n, 20_000n],
    [12_990_000n, 12_730_200n, 259_800n],
    [12_345_678n, 12_098_765n, 246_913n],
  ])('splits %s into merchant %s and fee %s', (received, merchant, fee) => {
    expect(splitFee(received)).toEqual({ merchant, fee });
  });

  it('always adds up and never gives the merchant less than 98%', () => {
    for (const received of [1n, 7n, 49n, 51n, 333n, 999_999n, 10n ** 24n + 17n]) {
      const { merchant, fee } = splitFee(received);
      expect(merchant + fee).toBe(received);
      expect(merchant * 100n >= received * 98n).toBe(true);
      expect(fee >= 0n).toBe(true);
    }
  });

  it('rejects negative amounts and out-of-range fees', () => {
    expect(() => splitFee(-1n)).toThrow(InvalidAmountError);
    expect(() => splitFee(100n, 10_001n)).toThrow(InvalidAmountError);
    expect(splitFee(100n, 0n)).toEqual({ merchant: 100n, fee: 0n });
  });
});

describe('price strings (decimal(10,2))', () => {
  it.each(['12.99', '0.25', '10', '0', '99999999.99', '1.5', '00000001'])('accepts %s', (s) => {
    expect(isPriceString(s)).toBe(true);
  });

  it.each(['12.999', '123456789', '123456789.00', '-1', '', '1.', '.5', 'abc', '1e2', ' 1'])(
    'rejects %j',
    (s) => {
      expect(isPriceString(s)).toBe(false);
    },
  );

  it('parsePrice enforces the price format', () => {
    expect(parsePrice('12.99')).toBe(12_990_000n);
    expect(() => parsePrice('12.999')).toThrow(InvalidAmountError);
  });
});
