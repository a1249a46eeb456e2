// Recoverable merchant accounts on a real Postgres: the email and its single-use verification link,
// password reset by an emailed single-use link (every session ends), the account page's password
// and email changes, its sessions list, paid-order notices per store; no user enumeration, and
// another merchant or a visitor refused.
import { describe, expect, test } from 'bun:test';
import { ACCOUNT_EMAIL_MESSAGES } from '@store/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { accountTokens, emailOutbox, sessions, users } from '../src/db/schema.ts';
import { hashToken } from '../src/http/session.ts';
import { apiClient, newMerchant, sessionCookieOf, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['ada', 'bob'] });
const password = 'correct horse battery';
const db = () => t.testDb.database.db;

/** The newest queued mail of `kind` to `to`, with the token of its link. */
async function lastMail(to: string, kind: string) {
  const [mail] = await db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, kind)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  const url = new URL(String(mail?.payload?.url));
  return { mail, url, token: url.searchParams.get('token') ?? '' };
}

async function mailCount(to: string) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
  return rows.length;
}

/** A new merchant with a verified email. */
async function verifiedMerchant(prefix: string) {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const username = `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
  const response = await t.shopper.post(
    '/api/auth/sign-up',
    { username, password, email },
    { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' } },
  );
  expect(response.status).toBe(201);
  const cookie = sessionCookieOf(response);
  const { token } = await lastMail(email, 'verify_email');
  expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
  return { email, username, cookie, api: apiClient(t.app, cookie), id: response.body.user.id };
}

describe('sign-up with an email', () => {
  test('stores it lowercased, unverified, and mails a 24-hour link built from the public origin', async () => {
    const response = await t.shopper.post('/api/auth/sign-up', {
      username: 'mailer-one',
      password,
      email: '  Grace.Hopper@Example.COM ',
    });
    expect(response.status).toBe(201);
    const [user] = await db().select().from(users).where(eq(users.username, 'mailer-one'));
    expect(user?.email).toBe('grace.hopper@example.com');
    expect(user?.emailVerifiedAt).toBeNull();
    const { mail, url, token } = await lastMail('grace.hopper@example.com', 'verify_email');
    expect(mail?.userId).toBe(user?.id as string);
    expect(mail?.orderId).toBeNull();
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost/verify-email');
    // Only the token's SHA-256 is stored.
    const [row] = await db()
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect(row?.purpose).toBe('verify_email');
    const ttl = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(ttl - 24 * 3600_000)).toBeLessThan(5000);
    const stored = await db().select({ hash: accountTokens.tokenHash }).from(accountTokens);
    expect(stored.map((r) => r.hash)).not.toContain(token);
  });

  test('a malformed email is refused with a clear message', async () => {
    const response = await t.shopper.post('/api/auth/sign-up', {
      username: 'mailer-bad',
      password,
      email: 'not-an-email',
    });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe(ACCOUNT_EMAIL_MESSAGES.emailInvalid);
  });

  test('a verified email of another account: the same answer as any sign-up, and its owner is told instead', async () => {
    const other = await verifiedMerchant('taken');
    const fresh = await t.shopper.post('/api/auth/sign-up', {
      username: 'mailer-fresh',
      password,
      email: 'fresh-address@example.com',
    });
    const response = await t.shopper.post('/api/auth/sign-up', {
      username: 'mailer-two',
      password,
      email: other.email.toUpperCase(),
    });
    // Nothing in the answer tells the address has an account.
    expect(response.status).toBe(fresh.status);
    expect(Object.keys(response.body)).toEqual(Object.keys(fresh.body));
    expect(response.body.user.username).toBe('mailer-two');
    const signedUp = apiClient(t.app, sessionCookieOf(response));
    const page = (await signedUp.get('/api/auth/account')).body;
    const freshPage = (await apiClient(t.app, sessionCookieOf(fresh)).get('/api/auth/account'))
      .body;
    expect(page).toMatchObject({ email: other.email, emailVerified: false, pendingEmail: null });
    expect({ ...freshPage, username: '', email: '' }).toEqual({ ...page, username: '', email: '' });
    // No link reaches the address for the new account: its owner gets a notice, and keeps it.
    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, other.email))
      .orderBy(desc(emailOutbox.createdAt));
    expect(mails[0]).toMatchObject({ kind: 'email_in_use', userId: other.id });
    expect(mails[0]?.payload).toMatchObject({ username: other.username });
    expect(mails.filter((mail) => mail.userId === response.body.user.id)).toEqual([]);
    const [owner] = await db().select().from(users).where(eq(users.id, other.id));
    expect(owner?.email).toBe(other.email);
    expect(owner?.emailVerifiedAt).not.toBeNull();
    // Adding it from the account page answers the same way too.
    const added = await signedUp.post('/api/auth/account/email', {
      email: other.email,
      currentPassword: password,
    });
    expect(added.status).toBe(200);
    expect(added.body.message).toBe(`We sent a verification link to ${other.email}`);
    const notices = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, other.email), eq(emailOutbox.kind, 'email_in_use')));
    expect(notices).toHaveLength(2);
  });
});

describe('an address given but never verified', () => {
  test('does not block a sign-up with it: the new account gets the link and wins it by opening it', async () => {
    await t.shopper.post('/api/auth/sign-up', {
      username: 'squat-signup',
      password,
      email: 'mine@example.com',
    });
    const response = await t.shopper.post('/api/auth/sign-up', {
      username: 'real-owner',
      password,
      email: 'mine@example.com',
    });
    expect(response.status).toBe(201);
    const owner = apiClient(t.app, sessionCookieOf(response));
    // As after any sign-up: nothing tells another account gave the address.
    expect((await owner.get('/api/auth/account')).body).toMatchObject({
      email: 'mine@example.com',
      emailVerified: false,
      pendingEmail: null,
    });
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.userId, response.body.user.id));
    const token = new URL(String(mail?.payload?.url)).searchParams.get('token') ?? '';
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
    expect((await owner.get('/api/auth/account')).body).toMatchObject({
      email: 'mine@example.com',
      emailVerified: true,
    });
    const [squatter] = await db().select().from(users).where(eq(users.username, 'squat-signup'));
    expect(squatter?.email).toBeNull();
  });
});

describe('email verification', () => {
  test('the link works once', async () => {
    const email = 'once@example.com';
    await t.shopper.post('/api/auth/sign-up', { username: 'verify-once', password, email });
    const { token } = await lastMail(email, 'verify_email');
    const first = await t.shopper.post('/api/auth/verify-email', { token });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('once@example.com is verified');
    const [user] = await db().select().from(users).where(eq(users.username, 'verify-once'));
    expect(user?.emailVerifiedAt).not.toBeNull();
    const again = await t.shopper.post('/api/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(ACCOUNT_EMAIL_MESSAGES.linkInvalid);
  });

  test('an expired link and an unknown one are refused', async () => {
    const email = 'late@example.com';
    await t.shopper.post('/api/auth/sign-up', { username: 'verify-late', password, email });
    const { token } = await lastMail(email, 'verify_email');
    await db()
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(400);
    expect((await t.shopper.post('/api/auth/verify-email', { token: 'x'.repeat(43) })).status).toBe(
      400,
    );
    expect(
      (await t.shopper.post('/api/auth/verify-email', { token: 'x'.repeat(101) })).status,
    ).toBe(422);
  });

  test('an existing account adds one from the account page; a second link replaces the first', async () => {
    const settings = await t.ada.api.get('/api/auth/account');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ email: null, emailVerified: false, totpEnabled: false });
    const first = await t.ada.api.post('/api/auth/account/email', {
      email: 'ada@shop.example',
      currentPassword: password,
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('We sent a verification link to ada@shop.example');
    const { token: firstToken } = await lastMail('ada@shop.example', 'verify_email');
    const resent = await t.ada.api.post('/api/auth/account/email/resend');
    expect(resent.status).toBe(200);
    const { token } = await lastMail('ada@shop.example', 'verify_email');
    expect(token).not.toBe(firstToken);
    expect((await t.shopper.post('/api/auth/verify-email', { token: firstToken })).status).toBe(
      400,
    );
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
    const after = await t.ada.api.get('/api/auth/account');
    expect(after.body).toMatchObject({ email: 'ada@shop.example', emailVerified: true });
  });

  test('changing a verified email needs the password and keeps the old one until the new is verified', async () => {
    const m = await verifiedMerchant('mover');
    const noPassword = await m.api.post('/api/auth/account/email', { email: 'new@mover.example' });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.error.message).toBe(ACCOUNT_EMAIL_MESSAGES.currentPasswordRequired);
    const wrong = await m.api.post('/api/auth/account/email', {
      email: 'new@mover.example',
      currentPassword: 'wrong password here',
    });
    expect(wrong.body.error.message).toBe(ACCOUNT_EMAIL_MESSAGES.currentPasswordWrong);
    const changed = await m.api.post('/api/auth/account/email', {
      email: 'new@mover.example',
      currentPassword: password,
    });
    expect(changed.status).toBe(200);
    const pending = await m.api.get('/api/auth/account');
    expect(pending.body).toMatchObject({
      email: m.email,
      emailVerified: true,
      pendingEmail: 'new@mover.example',
    });
    const { token } = await lastMail('new@mover.example', 'verify_email');
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
    const done = await m.api.get('/api/auth/account');
    expect(done.body).toMatchObject({ email: 'new@mover.example', pendingEmail: null });
  });

  test('an address another account only gave (never verified) goes to the one that verifies it', async () => {
    const squatter = await newMerchant(t.app, 'squat');
    await squatter.api.post('/api/auth/account/email', {
      email: 'contested@example.com',
      currentPassword: password,
    });
    const owner = await newMerchant(t.app, 'owner');
    const claimed = await owner.api.post('/api/auth/account/email', {
      email: 'contested@example.com',
      currentPassword: password,
    });
    expect(claimed.status).toBe(200);
    expect((await owner.api.get('/api/auth/account')).body).toMatchObject({
      email: 'contested@example.com',
      emailVerified: false,
      pendingEmail: null,
    });
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, owner.user.id), eq(emailOutbox.kind, 'verify_email')));
    const token = new URL(String(mail?.payload?.url)).searchParams.get('token') ?? '';
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
    const [mine] = await db().select().from(users).where(eq(users.id, owner.user.id));
    const [theirs] = await db().select().from(users).where(eq(users.id, squatter.user.id));
    expect(mine?.email).toBe('contested@example.com');
    expect(mine?.emailVerifiedAt).not.toBeNull();
    expect(theirs?.email).toBeNull();
    // Now verified, it is never anyone else's: a later claim only tells its owner.
    const late = await squatter.api.post('/api/auth/account/email', {
      email: 'contested@example.com',
      currentPassword: password,
    });
    expect(late.status).toBe(200);
    const [still] = await db().select().from(users).where(eq(users.id, owner.user.id));
    expect(still?.email).toBe('contested@example.com');
    const [notice] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, owner.user.id), eq(emailOutbox.kind, 'email_in_use')));
    expect(notice?.toAddress).toBe('contested@example.com');
  });
});

describe('password reset', () => {
  test('the same answer for a known, an unknown and an unverified address; only the known one is mailed', async () => {
    const m = await verifiedMerchant('forgot');
    await t.shopper.post('/api/auth/sign-up', {
      username: 'unverified-forgot',
      password,
      email: 'unverified-forgot@example.com',
    });
    const answers = [];
    for (const email of [m.email, 'nobody@example.com', 'unverified-forgot@example.com']) {
      const before = await mailCount(email);
      const response = await t.shopper.post('/api/auth/forgot-password', { email });
      answers.push({ status: response.status, body: response.body });
      answers.push({ mailed: (await mailCount(email)) - before });
    }
    const same = { status: 200, body: { message: ACCOUNT_EMAIL_MESSAGES.forgotSent } };
    expect(answers).toEqual([same, { mailed: 1 }, same, { mailed: 0 }, same, { mailed: 0 }]);
  });

  test('the link sets a new password once, ends every session, and expires after an hour', async () => {
    const m = await verifiedMerchant('reset');
    const second = await t.shopper.post('/api/auth/sign-in', { username: m.username, password });
    const otherCookie = sessionCookieOf(second);
    await t.shopper.post('/api/auth/forgot-password', { email: m.email.toUpperCase() });
    const { url, token } = await lastMail(m.email, 'reset_password');
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost/reset-password');
    const [row] = await db()
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    const ttl = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(ttl - 3600_000)).toBeLessThan(5000);
    expect((await t.shopper.post('/api/auth/reset-password/check', { token })).status).toBe(200);
    // A weak password is refused by the policy and leaves the link usable.
    const weak = await t.shopper.post('/api/auth/reset-password', { token, password: 'password1' });
    expect(weak.status).toBe(422);
    const newPassword = 'violet staple orbit lantern';
    const reset = await t.shopper.post('/api/auth/reset-password', {
      token,
      password: newPassword,
    });
    expect(reset.status).toBe(200);
    // Every session of the account ended.
    expect((await t.shopper.get('/api/auth/me', { cookie: m.cookie })).status).toBe(401);
    expect((await t.shopper.get('/api/auth/me', { cookie: otherCookie })).status).toBe(401);
    const left = await db().select().from(sessions).where(eq(sessions.userId, m.id));
    expect(left).toHaveLength(0);
    // Single use.
    const again = await t.shopper.post('/api/auth/reset-password', {
      token,
      password: 'another fine passphrase',
    });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(ACCOUNT_EMAIL_MESSAGES.linkInvalid);
    // The old password no longer works, the new one does.
    expect(
      (await t.shopper.post('/api/auth/sign-in', { username: m.username, password })).status,
    ).toBe(401);
    expect(
      (await t.shopper.post('/api/auth/sign-in', { username: m.username, password: newPassword }))
        .status,
    ).toBe(200);
    // An hour later a new link no longer works.
    await t.shopper.post('/api/auth/forgot-password', { email: m.email });
    const { token: late } = await lastMail(m.email, 'reset_password');
    await db()
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.tokenHash, hashToken(late)));
    expect(
      (await t.shopper.post('/api/auth/reset-password', { token: late, password: newPassword }))
        .status,
    ).toBe(400);
  });

  test('the link lists the API keys that still work; the reset revokes them all when asked, else they stay', async () => {
    const m = await verifiedMerchant('keys-reset');
    const kept = (await m.api.post('/api/api-keys', { name: 'Warehouse' })).body;
    const gone = (await m.api.post('/api/api-keys', { name: 'Old' })).body;
    await m.api.delete(`/api/api-keys/${gone.id}`);
    const stranger = (await t.bob.api.post('/api/api-keys', { name: 'Bob server' })).body;
    const keyWorks = async (key: string) =>
      (await t.shopper.get('/api/orders', { headers: { authorization: `Bearer ${key}` } }))
        .status === 200;
    const resetWith = async (revokeApiKeys: boolean | undefined, newPassword: string) => {
      await t.shopper.post('/api/auth/forgot-password', { email: m.email });
      const { token } = await lastMail(m.email, 'reset_password');
      const check = await t.shopper.post('/api/auth/reset-password/check', { token });
      expect(check.status).toBe(200);
      const reset = await t.shopper.post('/api/auth/reset-password', {
        token,
        password: newPassword,
        ...(revokeApiKeys === undefined ? {} : { revokeApiKeys }),
      });
      expect(reset.status).toBe(200);
      return { check: check.body, reset: reset.body };
    };
    // Left out (or false), the keys stay; the check lists the working one, never a key itself.
    const first = await resetWith(undefined, 'violet staple orbit lantern');
    expect(first.check.apiKeys).toEqual([
      expect.objectContaining({ id: kept.id, name: 'Warehouse', keyPrefix: kept.keyPrefix }),
    ]);
    expect(JSON.stringify(first.check)).not.toContain(kept.key);
    expect(first.reset.message).toBe('Password changed. Sign in with your new password.');
    expect(await keyWorks(kept.key)).toBe(true);
    // Asked, every key of the account is revoked, and the answer says so.
    const second = await resetWith(true, 'amber kettle quarry mosaic');
    expect(second.reset.message).toBe(
      'Password changed. Your API key was revoked. Sign in with your new password.',
    );
    expect(await keyWorks(kept.key)).toBe(false);
    expect(await keyWorks(stranger.key)).toBe(true);
    const third = await resetWith(true, 'copper meadow signal thistle');
    expect(third.check.apiKeys).toEqual([]);
  });

  test('a verification token is no reset token', async () => {
    await t.shopper.post('/api/auth/sign-up', {
      username: 'cross-purpose',
      password,
      email: 'cross@example.com',
    });
    const { token } = await lastMail('cross@example.com', 'verify_email');
    const response = await t.shopper.post('/api/auth/reset-password', {
      token,
      password: 'violet staple orbit lantern',
    });
    expect(response.status).toBe(400);
  });

  test('forgot-password is rate-limited per client and per address', async () => {
    const app = createTestApp(t.testDb, { TRUST_PROXY: 'true' });
    const api = apiClient(app);
    const from = (address: string, email: string) =>
      api.post(
        '/api/auth/forgot-password',
        { email },
        { headers: { 'x-forwarded-for': `${address}, 10.0.0.1` } },
      );
    for (let i = 0; i < 10; i++)
      expect((await from('203.0.113.50', `x${i}@example.com`)).status).toBe(200);
    const refused = await from('203.0.113.50', 'x11@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toStartWith(
      'Too many password reset requests; try again in',
    );
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // One address from many clients: 5 an hour.
    for (let i = 0; i < 5; i++)
      expect((await from(`198.51.100.${i}`, 'target@example.com')).status).toBe(200);
    expect((await from('198.51.100.99', 'target@example.com')).status).toBe(429);
  });
});

describe('account page: password and sessions', () => {
  test('sign-in records the browser; the list shows this device first and hides token hashes', async () => {
    const m = await verifiedMerchant('sessions');
    const phone = await t.shopper.post(
      '/api/auth/sign-in',
      { username: m.username, password },
      { headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1' } },
    );
    const phoneCookie = sessionCookieOf(phone);
    const list = await m.api.get('/api/auth/account/sessions');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body[0].current).toBe(true);
    const mine = list.body.find((s: { current: boolean }) => s.current);
    const other = list.body.find((s: { current: boolean }) => !s.current);
    expect(mine.userAgent).toContain('Chrome/131.0');
    expect(other.userAgent).toContain('iPhone');
    expect(other.lastSeenAt).toEqual(expect.any(String));
    const hashes = (await db().select().from(sessions).where(eq(sessions.userId, m.id))).map(
      (s) => s.tokenHash,
    );
    for (const s of list.body) expect(hashes).not.toContain(s.id);
    // Another merchant cannot end it (404), the owner can.
    expect((await t.bob.api.delete(`/api/auth/account/sessions/${other.id}`)).status).toBe(404);
    expect((await t.shopper.delete(`/api/auth/account/sessions/${other.id}`)).status).toBe(401);
    const ended = await m.api.delete(`/api/auth/account/sessions/${other.id}`);
    expect(ended.status).toBe(200);
    expect((await t.shopper.get('/api/auth/me', { cookie: phoneCookie })).status).toBe(401);
    expect((await m.api.delete(`/api/auth/account/sessions/${other.id}`)).status).toBe(404);
  });

  test('last seen is written at most once a minute', async () => {
    const m = await verifiedMerchant('seen');
    const read = async () => {
      const [row] = await db()
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(m.cookie.slice('session='.length))));
      return row?.lastSeenAt?.getTime();
    };
    await db()
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '2 minutes'` })
      .where(eq(sessions.userId, m.id));
    await m.api.get('/api/auth/me');
    const first = await read();
    expect(Date.now() - (first ?? 0)).toBeLessThan(5000);
    await m.api.get('/api/auth/me');
    expect(await read()).toBe(first);
  });

  test('end all others keeps this session only', async () => {
    const m = await verifiedMerchant('endall');
    const cookies = [];
    for (let i = 0; i < 2; i++)
      cookies.push(
        sessionCookieOf(
          await t.shopper.post('/api/auth/sign-in', { username: m.username, password }),
        ),
      );
    const ended = await m.api.post('/api/auth/account/sessions/end-others');
    expect(ended.body.message).toBe('Ended 2 other sessions');
    for (const cookie of cookies)
      expect((await t.shopper.get('/api/auth/me', { cookie })).status).toBe(401);
    expect((await m.api.get('/api/auth/me')).status).toBe(200);
  });

  test('change password needs the current one, follows the policy and ends the other sessions', async () => {
    const m = await verifiedMerchant('changer');
    const other = sessionCookieOf(
      await t.shopper.post('/api/auth/sign-in', { username: m.username, password }),
    );
    const wrong = await m.api.post('/api/auth/account/password', {
      currentPassword: 'not my password',
      newPassword: 'violet staple orbit lantern',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toBe(ACCOUNT_EMAIL_MESSAGES.currentPasswordWrong);
    const weak = await m.api.post('/api/auth/account/password', {
      currentPassword: password,
      newPassword: 'password123',
    });
    expect(weak.status).toBe(422);
    expect(weak.body.error.message).toStartWith('Choose a stronger password');
    const changed = await m.api.post('/api/auth/account/password', {
      currentPassword: password,
      newPassword: 'violet staple orbit lantern',
    });
    expect(changed.status).toBe(200);
    expect((await t.shopper.get('/api/auth/me', { cookie: other })).status).toBe(401);
    expect((await m.api.get('/api/auth/me')).status).toBe(200);
    const [user] = await db().select().from(users).where(eq(users.id, m.id));
    expect(user?.passwordChangedAt).not.toBeNull();
  });

  test('the account routes refuse a visitor (401) and an API key (403)', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/account'],
      ['GET', '/api/auth/account/sessions'],
      ['POST', '/api/auth/account/sessions/end-others'],
      ['POST', '/api/auth/account/totp/setup'],
    ] as const)
      expect((await t.shopper.call(method, path)).status).toBe(401);
    const key = await t.ada.api.post('/api/api-keys', { name: 'ci' });
    const withKey = await t.shopper.get('/api/auth/account', {
      headers: { authorization: `Bearer ${key.body.key}` },
    });
    expect(withKey.status).toBe(403);
  });
});

describe('paid-order emails per store', () => {
  test('the owner turns them off and on; another merchant and a visitor cannot', async () => {
    const store = await t.ada.api.post('/api/stores', storeForm());
    expect(store.status).toBe(201);
    const path = `/api/auth/account/stores/${store.body.id}/notifications`;
    expect((await t.bob.api.put(path, { notifyPaidOrders: false })).status).toBe(404);
    expect((await t.shopper.put(path, { notifyPaidOrders: false })).status).toBe(401);
    expect((await t.ada.api.put(path, { notifyPaidOrders: 'no' })).status).toBe(422);
    const off = await t.ada.api.put(path, { notifyPaidOrders: false });
    expect(off.body).toEqual({ id: store.body.id, name: store.body.name, notifyPaidOrders: false });
    const settings = await t.ada.api.get('/api/auth/account');
    expect(settings.body.stores).toContainEqual(off.body);
    const bobs = await t.bob.api.get('/api/auth/account');
    expect(bobs.body.stores.map((s: { id: string }) => s.id)).not.toContain(store.body.id);
  });
});
