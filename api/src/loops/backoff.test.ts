import { describe, expect, test } from 'bun:test';
import { backoffDelayMs } from './backoff.ts';

describe('backoffDelayMs', () => {
  test('doubles from the base at each attempt, up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffDelayMs(n, 1000, 60_000))).toEqual([
      1000, 1000, 2000, 4000, 8000,
    ]);
    expect(backoffDelayMs(7, 1000, 60_000)).toBe(60_000);
    expect(backoffDelayMs(500, 1000, 60_000)).toBe(60_000);
  });
});
