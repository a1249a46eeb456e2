// The limiter: doubling waits after the free failures, hashed keys, expired
// entries forgotten, and a bounded number of keys with the least recently touched evicted first.
import { describe, expect, test } from 'bun:test';
import { BackoffLimiter, hashKey, tooManyAttempts, waitText } from './attempt-limiter.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function backoff(
  now: () => number,
  patch: Partial<ConstructorParameters<typeof BackoffLimiter>[0]> = {},
) {
  return new BackoffLimiter({
    freeFailures: 3,
    baseDelayMs: SECOND,
    maxDelayMs: 15 * MINUTE,
    forgetAfterMs: 60 * MINUTE,
    maxKeys: 100,
    now,
    ...patch,
  });
}

describe('BackoffLimiter', () => {
  test('free failures cost nothing; then each failure doubles the wait, up to the cap', () => {
    let now = 0;
    const limiter = backoff(() => now);
    for (let i = 0; i < 3; i++) {
      limiter.fail('alice');
      expect(limiter.waitMs('alice')).toBe(0);
    }
    const waits: number[] = [];
    for (let i = 0; i < 14; i++) {
      limiter.fail('alice');
      waits.push(limiter.waitMs('alice'));
      now += limiter.waitMs('alice');
    }
    expect(waits.slice(0, 5)).toEqual([1, 2, 4, 8, 16].map((s) => s * SECOND));
    expect(waits.at(-1)).toBe(15 * MINUTE);
    expect(Math.max(...waits)).toBe(15 * MINUTE);
    expect(limiter.waitMs('bob')).toBe(0);
  });

  test('the wait runs down with the clock', () => {
    let now = 0;
    const limiter = backoff(() => now, { freeFailures: 0 });
    limiter.fail('carol');
    limiter.fail('carol');
    expect(limiter.waitMs('carol')).toBe(2 * SECOND);
    now += 1500;
    expect(limiter.waitMs('carol')).toBe(500);
    now += 500;
    expect(limiter.waitMs('carol')).toBe(0);
    // The failures are still on record: the next one waits longer.
    limiter.fail('carol');
    expect(limiter.waitMs('carol')).toBe(4 * SECOND);
  });

  test('reset forgets a key; failures are forgotten a while after the last one', () => {
    let now = 0;
    const limiter = backoff(() => now, { freeFailures: 0 });
    limiter.fail('dave');
    limiter.reset('dave');
    expect(limiter.hasFailed('dave')).toBe(false);
    limiter.fail('erin');
    now += 59 * MINUTE;
    expect(limiter.hasFailed('erin')).toBe(true);
    now += MINUTE;
    expect(limiter.hasFailed('erin')).toBe(false);
    limiter.fail('erin');
    expect(limiter.waitMs('erin')).toBe(SECOND);
  });

  test('stores keys hashed: a huge key takes no more room than a short one', () => {
    const limiter = backoff(() => 0);
    const huge = 'x'.repeat(900_000);
    limiter.fail(huge);
    expect(limiter.hasFailed(huge)).toBe(true);
    expect(limiter.hasFailed('x')).toBe(false);
    const stored = [
      ...(limiter as unknown as { store: { entries: Map<string, unknown> } }).store.entries.keys(),
    ];
    expect(stored).toEqual([hashKey(huge)]);
    expect(stored[0]).toHaveLength(64);
  });

  test('sweeps expired entries as it writes, oldest first', () => {
    let now = 0;
    const limiter = backoff(() => now);
    for (let i = 0; i < 50; i++) limiter.fail(`old-${i}`);
    now += 61 * MINUTE;
    limiter.fail('new');
    expect(limiter.size).toBe(1);
  });

  test('keeps at most maxKeys, evicting the least recently failed first', () => {
    let now = 0;
    const limiter = backoff(() => now, { maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) {
      limiter.fail(key);
      now += 1;
    }
    limiter.fail('a'); // a is now the most recent
    limiter.fail('d');
    expect(limiter.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].filter((key) => limiter.hasFailed(key))).toEqual(['a', 'c', 'd']);
    for (let i = 0; i < 10_000; i++) limiter.fail(`spray-${i}`);
    expect(limiter.size).toBe(3);
    expect(limiter.hasFailed('spray-9999')).toBe(true);
  });

  test('refuses a forget time shorter than the longest wait', () => {
    expect(() => backoff(() => 0, { forgetAfterMs: MINUTE })).toThrow();
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
