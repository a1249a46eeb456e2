import { describe, expect, it } from 'vitest';
import { usdcText } from './usdc-text.ts';

describe('usdcText', () => {
  it('shows cents with the token, grouped by thousands, never a dollar sign', () => {
    expect(usdcText('0')).toBe('0.00 USDC');
    expect(usdcText('142.250000')).toBe('142.25 USDC');
    expect(usdcText('1234567.005')).toBe('1,234,567.01 USDC');
    expect(usdcText(999_999n)).toBe('1.00 USDC');
  });
});
