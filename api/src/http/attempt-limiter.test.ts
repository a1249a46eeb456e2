// The limits' shared parts: keys stored hashed, and the 429's text and Retry-After.
import { describe, expect, test } from 'bun:test';
import { hashKey, tooManyAttempts, waitText } from './attempt-limiter.ts';

const MINUTE = 60 * 1000;

describe('hashKey', () => {
  test('64 hex digits however long the key, and the same for the same key', () => {
    const huge = 'x'.repeat(900 * 1024);
    expect(hashKey(huge)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(huge)).toBe(hashKey('x'.repeat(900 * 1024)));
    expect(hashKey('a')).not.toBe(hashKey('b'));
  });
});

describe('the 429', () => {
  test('says how long to wait and sets Retry-After in whole seconds', () => {
    const set = { headers: {} as Record<string, unknown> };
    const error = tooManyAttempts(set, 1500, 'Too many failed sign-in attempts');
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toBe('Too many failed sign-in attempts; try again in 2 seconds');
    expect(set.headers['retry-after']).toBe('2');
  });

  test.each([
    [1, '1 second'],
    [1000, '1 second'],
    [90_000, '90 seconds'],
    [15 * MINUTE, '15 minutes'],
    [60 * MINUTE, '60 minutes'],
    [3 * 60 * MINUTE, '3 hours'],
  ])('%i ms reads "%s"', (ms, text) => {
    expect(waitText(ms)).toBe(text);
  });
});
