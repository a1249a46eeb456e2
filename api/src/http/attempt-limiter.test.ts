// The sign-in limiter: refuses after N failures in the window, forgets them after it or a success.
import { describe, expect, test } from 'bun:test';
import { AttemptLimiter } from './attempt-limiter.ts';
import { AppError } from './errors.ts';

describe('AttemptLimiter', () => {
  test('refuses the key after 3 failures, with the wait; other keys are not affected', () => {
    let now = 0;
    const limiter = new AttemptLimiter(3, 15 * 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      limiter.check('alice');
      limiter.fail('alice');
      now += 1000;
    }
    expect(() => limiter.check('alice')).toThrow(
      'Too many failed sign-in attempts; try again in 15 minutes',
    );
    try {
      limiter.check('alice');
    } catch (error) {
      expect((error as AppError).status).toBe(429);
    }
    expect(() => limiter.check('bob')).not.toThrow();
    now += 15 * 60_000 - 2000;
    expect(() => limiter.check('alice')).not.toThrow();
  });

  test('a success forgets the failures', () => {
    const limiter = new AttemptLimiter(2, 60_000);
    limiter.fail('carol');
    limiter.fail('carol');
    expect(() => limiter.check('carol')).toThrow(AppError);
    limiter.reset('carol');
    expect(() => limiter.check('carol')).not.toThrow();
  });
});
