// Merchant accounts on a real Postgres: sign-up rules, sign-in, the session cookie, sign-out.
import { beforeAll, describe, expect, test } from 'bun:test';
import { eq, like, sql } from 'drizzle-orm';
import { rateLimits, sessions, users } from '../src/db/schema.ts';
import { hashKey } from '../src/http/attempt-limiter.ts';
import { hashToken } from '../src/http/session.ts';
import { apiClient, sessionCookieOf } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
const password = 'correct horse battery';
const HOUR_MS = 60 * 60 * 1000;

/**
 * A new API on the test database behind a trusted proxy, and a client per address.
 * Note: the sign-in failures are counted in the database, shared by every app on it: each test
 * uses addresses and usernames of its own.
 */
function behindProxy(env: Record<string, string> = {}) {
  const app = createTestApp(t.testDb, { TRUST_PROXY: 'true', ...env });
  const api = apiClient(app);
  const from = (address: string) => ({
    post: (path: string, body: unknown) =>
      api.post(path, body, { headers: { 'x-forwarded-for': `${address}, 10.0.0.1` } }),
  });
  return { app, api, from };
}

/** The sign-in backoff's rows ("bucket key" to hits). */
async function signInRows(): Promise<Map<string, number>> {
  const rows = await t.testDb.database.db
    .select()
    .from(rateLimits)
    .where(like(rateLimits.bucket, 'sign-in:%'));
  return new Map(rows.map((row) => [`${row.bucket} ${row.key}`, row.hits]));
}

/** The stored session row of a `session=…` cookie. */
async function sessionRow(cookie: string) {
  const [row] = await t.testDb.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(cookie.slice('session='.length))));
  return row;
}

/** Moves a session's clock: its times as if it had been created and last used `ms` earlier. */
async function ageSession(cookie: string, ms: number) {
  await t.testDb.database.db
    .update(sessions)
    .set({
      createdAt: sql`${sessions.createdAt} - ${`${ms} milliseconds`}::interval`,
      expiresAt: sql`${sessions.expiresAt} - ${`${ms} milliseconds`}::interval`,
    })
    .where(eq(sessions.tokenHash, hashToken(cookie.slice('session='.length))));
}

describe('POST /api/auth/sign-up', () => {
  test('creates the account, signs it in with an HttpOnly SameSite=Lax cookie', async () => {
    const response = await t.shopper.post('/api/auth/sign-up', { username: 'Ada_Shop', password });
    expect(response.status).toBe(201);
    expect(response.body.user).toEqual({ id: expect.any(String), username: 'ada_shop' });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^session=[\w-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Max-Age=2592000');
    // Local mode runs on plain http, where a Secure cookie would never come back.
    expect(cookie).not.toContain('Secure');
    const me = await t.shopper.get('/api/auth/me', { cookie: sessionCookieOf(response) });
    expect(me.body).toEqual({ user: response.body.user });
  });

  test('stores an argon2id hash, never the password, and only the token hash', async () => {
    const response = await t.shopper.post('/api/auth/sign-up', {
      username: 'hash-check',
      password,
    });
    const [row] = await t.testDb.database.db
      .select()
      .from(users)
      .where(eq(users.username, 'hash-check'));
    expect(row?.password).toStartWith('$argon2id$');
    expect(row?.password).not.toContain(password);
    const token = sessionCookieOf(response).slice('session='.length);
    const stored = await t.testDb.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(token)));
    expect(stored).toHaveLength(1);
    // A new session ends after 12 hours unused (each use slides it, up to 30 days).
    const expiresInHours = ((stored[0]?.expiresAt.getTime() ?? 0) - Date.now()) / HOUR_MS;
    expect(expiresInHours).toBeGreaterThan(11.9);
    expect(expiresInHours).toBeLessThanOrEqual(12);
  });

  test('refuses a taken username with 409, whatever its case', async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'taken', password });
    const again = await t.shopper.post('/api/auth/sign-up', { username: 'TAKEN', password });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'already_exists',
      message: 'That username is already taken',
    });
  });

  test.each([
    [{ password }, 'Username is required'],
    [
      { username: 'a b', password },
      'Username must be 3 to 32 characters: lowercase letters, numbers, hyphens or underscores',
    ],
    [{ username: 'newbie' }, 'Password is required'],
    [{ username: 'newbie', password: 'short' }, 'Password must be at least 8 characters'],
  ])('%j -> 422 %s', async (body, message) => {
    const response = await t.shopper.post('/api/auth/sign-up', body);
    expect(response.status).toBe(422);
    expect(response.body.error).toEqual({ code: 'validation_failed', message });
  });

  test.each([
    [
      { username: 'weakling', password: 'password' },
      'Choose a stronger password: this is a heavily used password',
    ],
    [
      { username: 'weakling', password: 'qwertyuiop' },
      'Choose a stronger password: this is a frequently used password',
    ],
    [
      { username: 'samesame', password: 'SameSame' },
      'Choose a password that does not contain your username',
    ],
    [
      { username: 'lovelace', password: 'ada lovelace rules the analytical engine' },
      'Choose a password that does not contain your username',
    ],
  ])('a weak password %j -> 422 %s, and no account', async (body, message) => {
    const response = await t.shopper.post('/api/auth/sign-up', body);
    expect(response.status).toBe(422);
    expect(response.body.error).toEqual({ code: 'validation_failed', message });
    const rows = await t.testDb.database.db
      .select()
      .from(users)
      .where(eq(users.username, body.username));
    expect(rows).toHaveLength(0);
  });

  test('one client signs up at most 5 accounts an hour (429 with Retry-After); others still can', async () => {
    const proxied = behindProxy({ LOCAL_MODE: 'false' });
    const client = proxied.from('203.0.113.50');
    for (let i = 0; i < 5; i++) {
      const response = await client.post('/api/auth/sign-up', { username: `burst-${i}`, password });
      expect(response.status).toBe(201);
    }
    const refused = await client.post('/api/auth/sign-up', { username: 'burst-5', password });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many sign-ups from your network; try again in 60 minutes',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3590);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    const other = await proxied
      .from('198.51.100.50')
      .post('/api/auth/sign-up', { username: 'burst-other', password });
    expect(other.status).toBe(201);
  });
});

describe('POST /api/auth/sign-in', () => {
  beforeAll(async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'grace', password });
  });

  test('opens a new session for the right password (username in any case)', async () => {
    const response = await t.shopper.post('/api/auth/sign-in', { username: 'Grace', password });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe('grace');
    const me = await t.shopper.get('/api/auth/me', { cookie: sessionCookieOf(response) });
    expect(me.status).toBe(200);
  });

  test('answers 401 with one message for a wrong password or an unknown user', async () => {
    for (const body of [
      { username: 'grace', password: 'wrong password' },
      { username: 'nobody', password },
    ]) {
      const response = await t.shopper.post('/api/auth/sign-in', body);
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({
        code: 'unauthorized',
        message: 'Invalid username or password',
      });
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  test('a failed sign-in keeps the current session; a successful one replaces it', async () => {
    const first = sessionCookieOf(
      await t.shopper.post('/api/auth/sign-in', { username: 'grace', password }),
    );
    await t.shopper.post(
      '/api/auth/sign-in',
      { username: 'grace', password: 'nope' },
      { cookie: first },
    );
    expect((await t.shopper.get('/api/auth/me', { cookie: first })).status).toBe(200);
    const second = await t.shopper.post(
      '/api/auth/sign-in',
      { username: 'grace', password },
      { cookie: first },
    );
    expect((await t.shopper.get('/api/auth/me', { cookie: first })).status).toBe(401);
    expect((await t.shopper.get('/api/auth/me', { cookie: sessionCookieOf(second) })).status).toBe(
      200,
    );
  });

  test('the owner signs in after 10 wrong guesses from another client; the guesser waits', async () => {
    const proxied = behindProxy();
    await t.shopper.post('/api/auth/sign-up', { username: 'hopper', password });
    const guesser = proxied.from('203.0.113.66');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const wrong = await guesser.post('/api/auth/sign-in', {
        username: 'hopper',
        password: `guess-${i}xx`,
      });
      statuses.push(wrong.status);
    }
    // 5 free failures on the account, then it waits 1 s, 2 s… for the clients that failed on it.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429, 429]);
    // The guesser finding the password during the wait gains nothing.
    const lucky = await guesser.post('/api/auth/sign-in', { username: 'hopper', password });
    expect(lucky.status).toBe(429);
    expect(lucky.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many failed sign-in attempts; try again in 1 second',
    });
    expect(lucky.headers.get('retry-after')).toBe('1');
    // The owner, on a client that has not been failing, is not refused.
    const owner = await proxied.from('198.51.100.7').post('/api/auth/sign-in', {
      username: 'Hopper',
      password,
    });
    expect(owner.status).toBe(200);
    expect(owner.body.user.username).toBe('hopper');
  });

  test('guesses spread over 10 clients do not lock the owner out either', async () => {
    const proxied = behindProxy();
    await t.shopper.post('/api/auth/sign-up', { username: 'lamarr', password });
    for (let i = 0; i < 10; i++) {
      const wrong = await proxied.from(`203.0.113.${100 + i}`).post('/api/auth/sign-in', {
        username: 'lamarr',
        password: `guess-${i}xx`,
      });
      expect(wrong.status).toBe(401);
    }
    const retry = await proxied
      .from('203.0.113.100')
      .post('/api/auth/sign-in', { username: 'lamarr', password: 'another guess' });
    expect(retry.status).toBe(429);
    const owner = await proxied
      .from('198.51.100.8')
      .post('/api/auth/sign-in', { username: 'lamarr', password });
    expect(owner.status).toBe(200);
  });

  test('one client spraying usernames gets 429 with Retry-After after 10 failures', async () => {
    const proxied = behindProxy();
    const sprayer = proxied.from('203.0.113.77');
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof sprayer.post>> | undefined;
    for (let i = 0; i < 12; i++) {
      const response = await sprayer.post('/api/auth/sign-in', {
        username: `victim-${i}`,
        password: 'Spring2024!',
      });
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses).toEqual([...Array<number>(11).fill(401), 429]);
    expect(refused?.headers.get('retry-after')).toBe('1');
    expect(refused?.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many failed sign-in attempts; try again in 1 second',
    });
    // Another client is not slowed down by it.
    await t.shopper.post('/api/auth/sign-up', { username: 'victim-x', password });
    const other = await proxied
      .from('198.51.100.9')
      .post('/api/auth/sign-in', { username: 'victim-x', password });
    expect(other.status).toBe(200);
  });

  test('an oversized username is refused with 422 before the limits remember anything', async () => {
    const proxied = behindProxy();
    const before = await signInRows();
    const huge = await proxied
      .from('203.0.113.88')
      .post('/api/auth/sign-in', { username: 'u'.repeat(900_000), password: 'whatever' });
    expect(huge.status).toBe(422);
    expect(huge.body.error).toEqual({
      code: 'validation_failed',
      message: 'Username must be at most 64 characters',
    });
    const longPassword = await proxied
      .from('203.0.113.88')
      .post('/api/auth/sign-in', { username: 'grace', password: 'p'.repeat(201) });
    expect(longPassword.status).toBe(422);
    expect(await signInRows()).toEqual(before);
    // A real failure is remembered, as hashed keys: the client, the account and the pair.
    await proxied
      .from('203.0.113.88')
      .post('/api/auth/sign-in', { username: 'grace', password: 'wrong password' });
    const after = await signInRows();
    expect(after.size).toBe(before.size + 2);
    expect(after.get(`sign-in:client ${hashKey('203.0.113.88')}`)).toBe(1);
    expect(after.get(`sign-in:pair ${hashKey('grace\n203.0.113.88')}`)).toBe(1);
    const account = `sign-in:account ${hashKey('grace')}`;
    expect(after.get(account)).toBe((before.get(account) ?? 0) + 1);
  });

  test('requires both fields', async () => {
    const response = await t.shopper.post('/api/auth/sign-in', { username: 'grace' });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe('Password is required');
  });
});

describe('sessions', () => {
  test('GET /api/auth/me is 401 without a cookie, with a forged one, and after expiry', async () => {
    for (const cookie of [undefined, 'session=forged-token']) {
      const response = await t.shopper.get('/api/auth/me', { cookie });
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({ code: 'unauthorized', message: 'Sign in to continue' });
    }
    const signedUp = await t.shopper.post('/api/auth/sign-up', { username: 'expiring', password });
    const cookie = sessionCookieOf(signedUp);
    await t.testDb.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(cookie.slice('session='.length))));
    expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(401);
  });

  test('a session unused for 13 hours is refused (the idle timeout is 12)', async () => {
    const cookie = sessionCookieOf(
      await t.shopper.post('/api/auth/sign-up', { username: 'idle', password }),
    );
    expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(200);
    await ageSession(cookie, 13 * HOUR_MS);
    const response = await t.shopper.get('/api/auth/me', { cookie });
    expect(response.status).toBe(401);
    expect(response.body.error.message).toBe('Sign in to continue');
  });

  test('each use slides the expiry 12 hours ahead, at most once a minute, never past 30 days', async () => {
    const cookie = sessionCookieOf(
      await t.shopper.post('/api/auth/sign-up', { username: 'busy', password }),
    );
    const hoursLeft = async () =>
      (((await sessionRow(cookie))?.expiresAt.getTime() ?? 0) - Date.now()) / HOUR_MS;
    // Used every 11 hours: alive after 22 hours, each use giving it 12 more.
    for (let i = 0; i < 2; i++) {
      await ageSession(cookie, 11 * HOUR_MS);
      expect(await hoursLeft()).toBeLessThan(1.01);
      expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(200);
      expect(await hoursLeft()).toBeGreaterThan(11.9);
    }
    // Used again 30 seconds later: not written again.
    await ageSession(cookie, 30_000);
    const before = (await sessionRow(cookie))?.expiresAt.getTime();
    expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(200);
    expect((await sessionRow(cookie))?.expiresAt.getTime()).toBe(before as number);
    // 29 days and 23 hours old, last used almost 12 hours ago: a use gives it only the hour left
    // of its 30 days, after which it ends however much it is used.
    await t.testDb.database.db
      .update(sessions)
      .set({
        createdAt: new Date(Date.now() - 30 * 24 * HOUR_MS + HOUR_MS),
        expiresAt: new Date(Date.now() + 5 * 60_000),
      })
      .where(eq(sessions.tokenHash, hashToken(cookie.slice('session='.length))));
    expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(200);
    const left = await hoursLeft();
    expect(left).toBeGreaterThan(0.95);
    expect(left).toBeLessThanOrEqual(1);
    await ageSession(cookie, HOUR_MS + 60_000);
    expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(401);
  });

  test('sign-out deletes the session and clears the cookie', async () => {
    const cookie = sessionCookieOf(
      await t.shopper.post('/api/auth/sign-up', { username: 'leaving', password }),
    );
    const response = await t.shopper.post('/api/auth/sign-out', undefined, { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toStartWith('session=; Path=/; HttpOnly');
    expect(response.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(401);
    const rows = await t.testDb.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(cookie.slice('session='.length))));
    expect(rows).toHaveLength(0);
  });

  test('outside local mode the cookie is Secure', async () => {
    // Note: a client of its own: sign-ups are counted per client in the shared database.
    const production = behindProxy({ LOCAL_MODE: 'false' }).from('192.0.2.44');
    const response = await production.post('/api/auth/sign-up', { username: 'secure', password });
    expect(response.headers.get('set-cookie')).toContain('; Secure');
  });
});
