// Merchant accounts on a real Postgres: sign-up rules, sign-in, the session cookie, sign-out.
import { beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { sessions, users } from '../src/db/schema.ts';
import { hashToken } from '../src/http/session.ts';
import { apiClient, sessionCookieOf } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
const password = 'correct horse battery';

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
    const expiresInDays = ((stored[0]?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(29.9);
    expect(expiresInDays).toBeLessThanOrEqual(30);
  });

  test('refuses a taken username with 409, whatever its case', async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'taken', password });
    const again = await t.shopper.post('/api/auth/sign-up', { username: 'TAKEN', password });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'conflict',
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

  test('after 10 wrong passwords the username waits, even with the right one', async () => {
    await t.shopper.post('/api/auth/sign-up', { username: 'hopper', password });
    for (let i = 0; i < 10; i++) {
      const wrong = await t.shopper.post('/api/auth/sign-in', {
        username: 'hopper',
        password: `guess-${i}xx`,
      });
      expect(wrong.status).toBe(401);
    }
    const locked = await t.shopper.post('/api/auth/sign-in', { username: 'Hopper', password });
    expect(locked.status).toBe(429);
    expect(locked.body.error).toEqual({
      code: 'rate_limited',
      message: 'Too many failed sign-in attempts; try again in 15 minutes',
    });
    expect(
      (await t.shopper.post('/api/auth/sign-in', { username: 'grace', password })).status,
    ).toBe(200);
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
    const production = apiClient(createTestApp(t.testDb, { LOCAL_MODE: 'false' }));
    const response = await production.post('/api/auth/sign-up', { username: 'secure', password });
    expect(response.headers.get('set-cookie')).toContain('; Secure');
  });
});
