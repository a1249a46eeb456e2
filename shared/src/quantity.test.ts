import { describe, expect, it } from 'vitest';
import {
  canDecrement,
  canIncrement,
  clampQuantity,
  maxQuantity,
  quantityOrDefault,
} from './quantity.ts';

describe('quantity selector', () => {
  it('max is the inventory, or 99 when it is 0 or absent', () => {
    expect(maxQuantity(5)).toBe(5);
    expect(maxQuantity(1)).toBe(1);
    expect(maxQuantity(150)).toBe(150);
    expect(maxQuantity(0)).toBe(99);
    expect(maxQuantity(undefined)).toBe(99);
    expect(maxQuantity(null)).toBe(99);
    expect(maxQuantity(-3)).toBe(99);
    expect(maxQuantity(Number.NaN)).toBe(99);
  });

  it('clamps into [1, max]', () => {
    expect(clampQuantity(0, 5)).toBe(1);
    expect(clampQuantity(-2, 5)).toBe(1);
    expect(clampQuantity(7, 5)).toBe(5);
    expect(clampQuantity(3, 5)).toBe(3);
    expect(clampQuantity(120, 0)).toBe(99);
    expect(clampQuantity(2.9, 5)).toBe(2);
    expect(clampQuantity(Number.NaN, 5)).toBe(1);
  });

  it('disables minus at 1 and plus at the max', () => {
    expect(canDecrement(1)).toBe(false);
    expect(canDecrement(2)).toBe(true);
    expect(canIncrement(4, 5)).toBe(true);
    expect(canIncrement(5, 5)).toBe(false);
    expect(canIncrement(98)).toBe(true);
    expect(canIncrement(99)).toBe(false);
    expect(canIncrement(99, 0)).toBe(false);
  });

  it('falls back to 1 for a missing or invalid quantity', () => {
    expect(quantityOrDefault('3')).toBe(3);
    expect(quantityOrDefault(4)).toBe(4);
    expect(quantityOrDefault('')).toBe(1);
    expect(quantityOrDefault('0')).toBe(1);
    expect(quantityOrDefault('-2')).toBe(1);
    expect(quantityOrDefault('abc')).toBe(1);
    expect(quantityOrDefault(undefined)).toBe(1);
    expect(quantityOrDefault(1.5)).toBe(1);
  });
});
