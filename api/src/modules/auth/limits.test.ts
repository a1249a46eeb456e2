// The auth limits' values and the per-process cap on sign-ins in flight.
// Note: the sign-in backoff is counted in Postgres; its policy (spraying, guessing, the owner, the
// hour, several processes, bursts) is tested in test/auth-shared-backoff.test.ts.
import { describe, expect, test } from 'bun:test';
import type { Database } from '../../db/client.ts';
import { AUTH_LIMITS, AuthLimits, signUpRateLimits } from './limits.ts';

const MINUTE = 60 * 1000;

describe('sign-in limits', () => {
  test('10 free failures per client, 5 per account, 2 sign-ins in flight', () => {
    expect(AUTH_LIMITS).toMatchObject({
      clientFreeFailures: 10,
      accountFreeFailures: 5,
      clientConcurrency: 2,
    });
  });

  test('a client has at most 2 sign-ins in flight', () => {
    // Note: the cap is the process's own; the database is never asked.
    const limits = new AuthLimits({} as Database);
    expect(limits.startSignIn('203.0.113.9')).toBe(true);
    expect(limits.startSignIn('203.0.113.9')).toBe(true);
    expect(limits.startSignIn('203.0.113.9')).toBe(false);
    expect(limits.startSignIn('198.51.100.4')).toBe(true);
    limits.endSignIn('203.0.113.9');
    expect(limits.startSignIn('203.0.113.9')).toBe(true);
    limits.endSignIn('203.0.113.9');
    limits.endSignIn('203.0.113.9');
    limits.endSignIn('198.51.100.4');
    expect(limits.clientsInFlight).toBe(0);
  });
});

// Note: sign-ups are counted in Postgres; their behaviour is tested in test/auth.test.ts and
// test/rate-limits.test.ts.
describe('sign-up limits', () => {
  test('5 accounts an hour per client, and 20 tries', () => {
    expect(signUpRateLimits(AUTH_LIMITS)).toEqual({
      tries: { bucket: 'sign-up:tries', max: 20, windowMs: 60 * MINUTE },
      accounts: { bucket: 'sign-up:accounts', max: 5, windowMs: 60 * MINUTE },
    });
  });
});
