// The auth limits' policy: spraying slows the client, guessing slows the account for the clients
// that guessed, the owner on a clean client is never refused, bursts and sign-ups are capped.
import { describe, expect, test } from 'bun:test';
import { AUTH_LIMITS, AuthLimits, signUpRateLimits } from './limits.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function limitsAt() {
  const clock = { now: 0 };
  return { clock, limits: new AuthLimits({ ...AUTH_LIMITS, now: () => clock.now }) };
}

describe('sign-in limits', () => {
  test('one client spraying usernames waits after 10 failures, twice longer each time', () => {
    const { limits } = limitsAt();
    for (let i = 0; i < 10; i++) {
      expect(limits.signInWait(`user-${i}`, '203.0.113.9')).toBe(0);
      limits.signInFailed(`user-${i}`, '203.0.113.9');
    }
    expect(limits.signInWait('user-10', '203.0.113.9')).toBe(0);
    limits.signInFailed('user-10', '203.0.113.9');
    expect(limits.signInWait('user-11', '203.0.113.9')).toBe(SECOND);
    limits.signInFailed('user-11', '203.0.113.9');
    expect(limits.signInWait('user-12', '203.0.113.9')).toBe(2 * SECOND);
    // Another client is not slowed down.
    expect(limits.signInWait('user-12', '198.51.100.4')).toBe(0);
  });

  test('a success does not wipe the client: its own account cannot launder a spray', () => {
    const { limits } = limitsAt();
    for (let i = 0; i < 11; i++) limits.signInFailed(`user-${i}`, '203.0.113.9');
    limits.signInSucceeded('mine', '203.0.113.9');
    expect(limits.signInWait('user-12', '203.0.113.9')).toBe(SECOND);
  });

  test('guesses on one account from many clients slow every guessing client, not the owner', () => {
    const { limits } = limitsAt();
    for (let i = 0; i < 8; i++) limits.signInFailed('hopper', `203.0.113.${i}`);
    // 5 free, then 1 s, 2 s, 4 s: every client that guessed waits the account's 4 s.
    expect(limits.signInWait('hopper', '203.0.113.0')).toBe(4 * SECOND);
    expect(limits.signInWait('hopper', '203.0.113.7')).toBe(4 * SECOND);
    // The owner on a client that has not failed signs in at once.
    expect(limits.signInWait('hopper', '198.51.100.4')).toBe(0);
    // A guessing client may still sign in elsewhere (its own failures are few).
    expect(limits.signInWait('grace', '203.0.113.0')).toBe(0);
  });

  test('a client that succeeded on the account is no longer held by its wait', () => {
    const { limits } = limitsAt();
    for (let i = 0; i < 7; i++) limits.signInFailed('hopper', '203.0.113.1');
    expect(limits.signInWait('hopper', '203.0.113.1')).toBe(2 * SECOND);
    limits.signInSucceeded('hopper', '203.0.113.1');
    expect(limits.signInWait('hopper', '203.0.113.1')).toBe(0);
  });

  test('the waits end, and an hour without failures forgets them', () => {
    const { clock, limits } = limitsAt();
    for (let i = 0; i < 30; i++) limits.signInFailed(`user-${i}`, '203.0.113.9');
    expect(limits.signInWait('user-0', '203.0.113.9')).toBe(15 * MINUTE);
    clock.now += 15 * MINUTE;
    expect(limits.signInWait('user-0', '203.0.113.9')).toBe(0);
    clock.now += 45 * MINUTE;
    limits.signInFailed('someone', '198.51.100.4');
    expect(limits.clients.hasFailed('203.0.113.9')).toBe(false);
  });

  test('a client has at most 2 sign-ins in flight', () => {
    const { limits } = limitsAt();
    expect(limits.startSignIn('203.0.113.9')).toBe(true);
    expect(limits.startSignIn('203.0.113.9')).toBe(true);
    expect(limits.startSignIn('203.0.113.9')).toBe(false);
    expect(limits.startSignIn('198.51.100.4')).toBe(true);
    limits.endSignIn('203.0.113.9');
    expect(limits.startSignIn('203.0.113.9')).toBe(true);
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
