// The sign-in backoff shared by every API process: its policy on a real Postgres (spraying,
// guessing, the owner, the hour), then two apps on one Postgres (as two processes behind a load
// balancer): they count the same failures, a burst sent to both at once is counted before it is
// checked, the owner on a fresh client still signs in, and an hour forgets it all.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, like, sql } from 'drizzle-orm';
import type { App } from '../src/app.ts';
import { createDatabase } from '../src/db/client.ts';
import { rateLimits } from '../src/db/schema.ts';
import { hashKey } from '../src/http/attempt-limiter.ts';
import { AUTH_LIMITS } from '../src/modules/auth/limits.ts';
import { SignInBackoff } from '../src/modules/auth/shared-backoff.ts';
import { type ApiResponse, apiClient } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
const password = 'correct horse battery';

/** Two API apps on the test database, both behind a trusted proxy (clients by X-Forwarded-For). */
let apps: [App, App] | undefined;
function twoApps(): [App, App] {
  apps ??= [
    createTestApp(t.testDb, { TRUST_PROXY: 'true' }),
    createTestApp(t.testDb, { TRUST_PROXY: 'true' }),
  ];
  return apps;
}

/** A sign-in from `address` on app 0 or 1. */
function signIn(app: 0 | 1, address: string, username: string, pass: string) {
  return apiClient(twoApps()[app]).post(
    '/api/auth/sign-in',
    { username, password: pass },
    { headers: { 'x-forwarded-for': `${address}, 10.0.0.1` } },
  );
}

/** The stored sign-in rows of a key (hashed), by bucket. */
async function rowsOf(key: string) {
  return t.testDb.database.db
    .select({ bucket: rateLimits.bucket, hits: rateLimits.hits })
    .from(rateLimits)
    .where(and(like(rateLimits.bucket, 'sign-in:%'), eq(rateLimits.key, hashKey(key))));
}

/** A refusal of the sign-in backoff with a wait of `seconds` (its message and Retry-After). */
function expectWrongSignInWait(response: ApiResponse, seconds = 1) {
  expect(response.status).toBe(429);
  expect(response.body.error).toEqual({
    code: 'rate_limited',
    message: `Too many failed sign-in attempts; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
  });
  expect(response.headers.get('retry-after')).toBe(String(seconds));
}

describe('sign-in backoff across two API processes', () => {
  test('one client spraying usernames over both apps waits on either after 11 failures', async () => {
    const sprayer = '203.0.113.10';
    // 11 failures, 6 on one app and 5 on the other: each app alone has seen fewer than 10.
    for (let i = 0; i < 11; i++) {
      const wrong = await signIn((i % 2) as 0 | 1, sprayer, `victim-${i}`, 'Spring2024!');
      expect(wrong.status).toBe(401);
    }
    expectWrongSignInWait(await signIn(0, sprayer, 'victim-11', 'Spring2024!'));
    expectWrongSignInWait(await signIn(1, sprayer, 'victim-12', 'Spring2024!'));
    // The client is stored once, as its hash (the refused tries not counted).
    expect(await rowsOf(sprayer)).toEqual([{ bucket: 'sign-in:client', hits: 11 }]);
    // Another client is not slowed down.
    expect((await signIn(1, '198.51.100.10', 'victim-13', 'Spring2024!')).status).toBe(401);
  });

  test('guesses on one account over both apps hold the guessers on either; the owner signs in', async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'hopper', password });
    const guessers = ['203.0.113.20', '203.0.113.21'];
    // 6 failures on the account (5 free), 3 per app, from two clients.
    for (let i = 0; i < 6; i++) {
      const wrong = await signIn(
        (i % 2) as 0 | 1,
        guessers[i % 2] as string,
        'hopper',
        `guess-${i}x`,
      );
      expect(wrong.status).toBe(401);
    }
    // Each guessing client is held on either app, even with the right password.
    for (const guesser of guessers)
      for (const app of [0, 1] as const)
        expectWrongSignInWait(await signIn(app, guesser, 'hopper', password));
    // The owner, on a client that has not been failing, is not refused on either app.
    for (const app of [0, 1] as const) {
      const owner = await signIn(app, `198.51.100.2${app}`, 'Hopper', password);
      expect(owner.status).toBe(200);
      expect(owner.body.user.username).toBe('hopper');
    }
    // A stranger's first guess is let through (a fresh client may try once), then it is held too,
    // by the account's 7th failure (2 s).
    expect((await signIn(1, '203.0.113.22', 'hopper', 'one guess')).status).toBe(401);
    expectWrongSignInWait(await signIn(0, '203.0.113.22', 'hopper', 'another guess'), 2);
  });

  test('wrong sign-ins sent at once to both apps are counted before they are checked', async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'lovelace', password });
    const clients = ['203.0.113.30', '203.0.113.31', '203.0.113.32', '203.0.113.33'];
    // 4 failures on the account, each client one (on alternate apps): no wait yet (5 are free).
    for (const [i, client] of clients.entries()) {
      const wrong = await signIn((i % 2) as 0 | 1, client, 'lovelace', `first-${i}x`);
      expect(wrong.status).toBe(401);
    }
    // Then each client sends one more guess to each app, all at once: 8 guesses. Each is counted
    // before its password is checked, so the 5th (free) and the 6th (which starts the account's
    // wait) are checked; the other 6 find the wait.
    const burst = await Promise.all(
      clients.flatMap((client, i) =>
        ([0, 1] as const).map((app) => signIn(app, client, 'lovelace', `burst-${i}-${app}x`)),
      ),
    );
    const statuses = burst.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 429, 429, 429, 429, 429, 429]);
    for (const refused of burst.filter((response) => response.status === 429))
      expectWrongSignInWait(refused);
    const [account] = await rowsOf('lovelace');
    expect(account).toEqual({ bucket: 'sign-in:account', hits: 6 });
  });

  test('the cap of 2 sign-ins in flight per client is kept by each process', async () => {
    const client = '203.0.113.50';
    // 3 at once on one app, 1 more on the other: the one beyond 2 on the first app is refused.
    const [a, b, c, d] = await Promise.all([
      signIn(0, client, 'busy-0', 'Spring2024!'),
      signIn(0, client, 'busy-1', 'Spring2024!'),
      signIn(0, client, 'busy-2', 'Spring2024!'),
      signIn(1, client, 'busy-3', 'Spring2024!'),
    ]);
    expect([a, b, c, d].map((response) => response.status)).toEqual([401, 401, 429, 401]);
    expect(c?.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many sign-in attempts at once; try again in 1 second',
    });
    expect(c?.headers.get('retry-after')).toBe('1');
    // Not counted: 3 failures.
    expect(await rowsOf(client)).toEqual([{ bucket: 'sign-in:client', hits: 3 }]);
  });

  test('an hour after the last failure the waits are forgotten', async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'noether', password });
    const guesser = '203.0.113.40';
    // The client's 11 failures, the last 6 on the account: both the client and the account wait.
    for (let i = 0; i < 5; i++)
      expect((await signIn(0, guesser, `other-${i}`, 'Spring2024!')).status).toBe(401);
    for (let i = 0; i < 6; i++)
      expect((await signIn((i % 2) as 0 | 1, guesser, 'noether', `guess-${i}x`)).status).toBe(401);
    expectWrongSignInWait(await signIn(1, guesser, 'other-9', 'Spring2024!'));
    expectWrongSignInWait(await signIn(0, guesser, 'noether', password));
    // An hour passes (the rows' windows end: the last failure was an hour ago).
    await t.testDb.database.db
      .update(rateLimits)
      .set({ windowEndsAt: sql`${rateLimits.windowEndsAt} - interval '1 hour'` })
      .where(like(rateLimits.bucket, 'sign-in:%'));
    // Forgotten: the next failure is the client's first again, and the right password works.
    expect((await signIn(1, guesser, 'other-10', 'Spring2024!')).status).toBe(401);
    expect(await rowsOf(guesser)).toEqual([{ bucket: 'sign-in:client', hits: 1 }]);
    const owner = await signIn(0, guesser, 'noether', password);
    expect(owner.status).toBe(200);
  });
});

describe('the backoff on Postgres, from two connection pools (as two processes)', () => {
  let pools: ReturnType<typeof createDatabase>[] = [];
  let backoffs: [SignInBackoff, SignInBackoff];
  beforeAll(() => {
    pools = [createDatabase(t.testDb.url, { max: 5 }), createDatabase(t.testDb.url, { max: 5 })];
    backoffs = pools.map((pool) => new SignInBackoff(pool.db, AUTH_LIMITS)) as [
      SignInBackoff,
      SignInBackoff,
    ];
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  });

  /** A failed sign-in through pool `i`: the attempt taken and kept; false when it had to wait. */
  async function fail(account: string, client: string, i = 0): Promise<boolean> {
    return (await backoffs[i % 2 === 0 ? 0 : 1].take(account, client)).attempt !== null;
  }
  const waitMs = (account: string, client: string, i = 0) =>
    backoffs[i % 2 === 0 ? 0 : 1].waitMs(account, client);
  /** Moves the clock: every sign-in row's last failure `ms` earlier. */
  async function elapse(ms: number) {
    await t.testDb.database.db
      .update(rateLimits)
      .set({ windowEndsAt: sql`${rateLimits.windowEndsAt} - ${`${ms} milliseconds`}::interval` })
      .where(like(rateLimits.bucket, 'sign-in:%'));
  }
  /** A wait of about `ms` (the clock moved on a little since it started). */
  function expectWait(actual: number, ms: number) {
    expect(actual).toBeLessThanOrEqual(ms);
    expect(actual).toBeGreaterThan(ms - 500);
  }

  test('one client spraying usernames waits after 10 failures, twice longer each time', async () => {
    const client = '192.0.2.1';
    for (let i = 0; i < 10; i++) {
      expect(await waitMs(`spray-${i}`, client, i)).toBe(0);
      expect(await fail(`spray-${i}`, client, i)).toBe(true);
    }
    expect(await waitMs('spray-10', client)).toBe(0);
    expect(await fail('spray-10', client, 1)).toBe(true);
    expectWait(await waitMs('spray-11', client, 0), 1000);
    expectWait(await waitMs('spray-11', client, 1), 1000);
    // Refused during the wait, and not counted.
    const refused = await backoffs[1].take('spray-11', client);
    expect(refused.attempt).toBeNull();
    expectWait(refused.waitMs, 1000);
    await elapse(1000);
    expect(await fail('spray-11', client)).toBe(true);
    expectWait(await waitMs('spray-12', client, 1), 2000);
    // Another client is not slowed down.
    expect(await waitMs('spray-12', '192.0.2.2')).toBe(0);
  });

  test('a success does not wipe the client: its own account cannot launder a spray', async () => {
    const client = '192.0.2.3';
    for (let i = 0; i < 11; i++) expect(await fail(`launder-${i}`, client, i)).toBe(true);
    await elapse(1000);
    const mine = await backoffs[1].take('mine', client);
    if (!mine.attempt) throw new Error('the wait should be over');
    await backoffs[0].giveBack(mine.attempt, { clearPair: true });
    // Still 11 failures: the next one is the 12th (2 s), not the 1st.
    expect(await fail('launder-12', client)).toBe(true);
    expectWait(await waitMs('launder-13', client), 2000);
  });

  test('guesses on one account from many clients slow every guessing client, not the owner', async () => {
    for (let i = 0; i < 8; i++) {
      // Each client's first guess is let through, the account's wait notwithstanding.
      expect(await fail('ada', `192.0.2.${10 + i}`, i)).toBe(true);
    }
    // 5 free, then 1 s, 2 s, 4 s: every client that guessed waits the account's 4 s.
    expectWait(await waitMs('ada', '192.0.2.10', 0), 4000);
    expectWait(await waitMs('ada', '192.0.2.17', 1), 4000);
    // The owner on a client that has not failed signs in at once.
    expect(await waitMs('ada', '198.51.100.50')).toBe(0);
    // A guessing client may still sign in elsewhere (its own failures are few).
    expect(await waitMs('grace', '192.0.2.10')).toBe(0);
  });

  test('a client that succeeded on the account is no longer held by its wait', async () => {
    const [owner, stranger] = ['192.0.2.30', '192.0.2.31'];
    expect(await fail('curie', stranger)).toBe(true);
    for (let i = 0; i < 5; i++) expect(await fail('curie', owner, i)).toBe(true);
    // 6 failures: 1 s for both clients.
    expectWait(await waitMs('curie', owner), 1000);
    expectWait(await waitMs('curie', stranger, 1), 1000);
    await elapse(1000);
    const right = await backoffs[1].take('curie', owner);
    if (!right.attempt) throw new Error('the wait should be over');
    await backoffs[1].giveBack(right.attempt, { clearPair: true });
    // The stranger's 7th failure: 2 s, for the stranger only.
    expect(await fail('curie', stranger)).toBe(true);
    expectWait(await waitMs('curie', stranger), 2000);
    expect(await waitMs('curie', owner)).toBe(0);
  });

  test('an attempt given back leaves nothing counted', async () => {
    const client = '192.0.2.40';
    const taken = await backoffs[0].take('turing', client);
    if (!taken.attempt) throw new Error('nothing waits');
    await backoffs[1].giveBack(taken.attempt);
    const rows = await t.testDb.database.db
      .select({ bucket: rateLimits.bucket, hits: rateLimits.hits })
      .from(rateLimits)
      .where(
        sql`${rateLimits.key} in (${hashKey(client)}, ${hashKey('turing')}, ${hashKey(`turing\n${client}`)})`,
      );
    expect(rows.map((row) => row.hits)).toEqual([0, 0, 0]);
    // Hits of 0 count as nothing: 10 more failures are still free.
    for (let i = 0; i < 10; i++) expect(await fail(`given-${i}`, client, i)).toBe(true);
    expect(await waitMs('given-10', client)).toBe(0);
  });

  test('the waits end, are 15 minutes at most, and an hour without failures forgets them', async () => {
    const client = '192.0.2.50';
    for (let i = 0; i < 11; i++) expect(await fail(`long-${i}`, client, i)).toBe(true);
    // 19 more failures, each after its wait: 1 s, 2 s… (the 30th would be 2^19 s) capped at 15 min.
    for (let i = 11; i < 30; i++) {
      await elapse(15 * 60 * 1000);
      expect(await fail(`long-${i}`, client, i)).toBe(true);
    }
    expectWait(await waitMs('long-30', client), 15 * 60 * 1000);
    await elapse(15 * 60 * 1000);
    expect(await waitMs('long-30', client)).toBe(0);
    await elapse(45 * 60 * 1000);
    // Forgotten: the next failure is the client's first.
    expect(await fail('long-30', client)).toBe(true);
    const [row] = await rowsOf(client);
    expect(row).toEqual({ bucket: 'sign-in:client', hits: 1 });
  });

  test('20 failures of one client sent at once through both pools: 11 taken, 9 refused', async () => {
    const client = '192.0.2.60';
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        backoffs[i % 2 === 0 ? 0 : 1].take(`burst-${i}`, client),
      ),
    );
    expect(takes.filter((take) => take.attempt !== null)).toHaveLength(11);
    for (const refused of takes.filter((take) => take.attempt === null))
      expect(refused.waitMs).toBeGreaterThan(0);
    expect(await rowsOf(client)).toEqual([{ bucket: 'sign-in:client', hits: 11 }]);
  });

  test('a fresh client sending 10 guesses at once on a waiting account gets one through', async () => {
    for (let i = 0; i < 6; i++) expect(await fail('hamilton', `192.0.2.${70 + i}`, i)).toBe(true);
    const fresh = '192.0.2.79';
    const takes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => backoffs[i % 2 === 0 ? 0 : 1].take('hamilton', fresh)),
    );
    expect(takes.filter((take) => take.attempt !== null)).toHaveLength(1);
  });
});
