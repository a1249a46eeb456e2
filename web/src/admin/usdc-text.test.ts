import { describe, expect, it } from 'vitest';
import { exactUsdcText, usdcText } from './usdc-text.ts';

describe('usdcText', () => {
  it('shows cents with the token, grouped by thousands, never a dollar sign', () => {
    expect(usdcText('0')).toBe('0.00 USDC');
    expect(usdcText('142.250000')).toBe('142.25 USDC');
    expect(usdcText('1234567.005')).toBe('1,234,567.01 USDC');
    expect(usdcText(999_999n)).toBe('1.00 USDC');
  });
});

describe('exactUsdcText', () => {
  it('keeps every base unit, drops zeros past the cents, signs a negative amount', () => {
    expect(exactUsdcText('25.401600')).toBe('25.4016 USDC');
    expect(exactUsdcText('2.000000')).toBe('2.00 USDC');
    expect(exactUsdcText('1234.5')).toBe('1,234.50 USDC');
    expect(exactUsdcText(-2_000_001n)).toBe('-2.000001 USDC');
    expect(exactUsdcText('-1234.000000')).toBe('-1,234.00 USDC');
  });
});
