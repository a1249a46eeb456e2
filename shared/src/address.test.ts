import { describe, expect, it } from 'vitest';
import { isEthereumAddress, isHexColor, isHttpUrl } from './address.ts';
import { hasValidChecksum } from './address-checksum.ts';

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

describe('hasValidChecksum (EIP-55)', () => {
  it('accepts the EIP-55 examples and addresses without a checksum (one case)', () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED',
    ])
      expect(hasValidChecksum(address), address).toBe(true);
  });

  it('refuses a mixed-case address whose case is off, and anything that is no address', () => {
    expect(hasValidChecksum('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(hasValidChecksum('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(hasValidChecksum('0xnot-an-address')).toBe(false);
    expect(hasValidChecksum('')).toBe(false);
  });
});
