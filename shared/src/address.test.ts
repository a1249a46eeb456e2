import { describe, expect, it } from 'vitest';
import { isEthereumAddress, isHexColor, isHttpUrl } from './address.ts';

describe('address and URL checks', () => {
  it('accepts 0x + 40 hex in any case only', () => {
    expect(isEthereumAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')).toBe(true);
    expect(isEthereumAddress(`0x${'A'.repeat(40)}`)).toBe(true);
    expect(isEthereumAddress(`0x${'a'.repeat(39)}`)).toBe(false);
    expect(isEthereumAddress(`0x${'a'.repeat(41)}`)).toBe(false);
    expect(isEthereumAddress('a'.repeat(42))).toBe(false);
    expect(isEthereumAddress(` 0x${'a'.repeat(40)}`)).toBe(false);
  });

  it('accepts #rgb and #rrggbb colours', () => {
    expect(isHexColor('#abc')).toBe(true);
    expect(isHexColor('#06B6D4')).toBe(true);
    expect(isHexColor('#abcd')).toBe(false);
    expect(isHexColor('06b6d4')).toBe(false);
  });

  it('accepts only absolute http(s) URLs', () => {
    expect(isHttpUrl('https://shop.example.com/return?x=1')).toBe(true);
    expect(isHttpUrl('http://localhost:3000/hook')).toBe(true);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpUrl('data:text/html,hi')).toBe(false);
    expect(isHttpUrl('/relative')).toBe(false);
  });
});
