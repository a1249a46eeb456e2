import { describe, expect, it } from 'vitest';
import {
  formatOrderNumber,
  generateDemoOrderId,
  generateExternalOrderId,
  generateUniversalProductId,
  randomSuffix,
  shortOrderId,
  shortOrderIdUpper,
} from './order-id.ts';

/** A deterministic random source cycling through the given values. */
function sequence(...values: number[]) {
  let i = 0;
  return () => values[i++ % values.length] ?? 0;
}

const ID = '3f2b8c1e-9a4d-4e5f-8b7a-12ab34cd56ef';

describe('short order ids', () => {
  it('takes the last 8 characters', () => {
    expect(shortOrderId(ID)).toBe('34cd56ef');
    expect(shortOrderIdUpper(ID)).toBe('34CD56EF');
    expect(formatOrderNumber(ID)).toBe('#34cd56ef');
    expect(shortOrderId('abc')).toBe('abc');
  });
});

describe('generated ids', () => {
  const now = 1_732_000_000_000;

  it('draws base-36 characters, clamping random() = 1', () => {
    expect(randomSuffix(sequence(0, 0.5, 0.999999, 1), 4)).toBe('0izz');
    expect(randomSuffix(sequence(0.1))).toHaveLength(9);
  });

  it('formats ORDER-, demo- and universal- ids', () => {
    expect(generateExternalOrderId(now, sequence(0.5))).toBe(`ORDER-${now}-IIIIIIIII`);
    expect(generateDemoOrderId(now, sequence(0))).toBe(`demo-${now}-000000000`);
    expect(generateUniversalProductId(now, sequence(0.99))).toBe(`universal-${now}-zzzzzzzzz`);
    expect(generateExternalOrderId(now, Math.random)).toMatch(/^ORDER-\d{13}-[0-9A-Z]{9}$/);
  });
});
