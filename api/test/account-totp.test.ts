// Two-step verification (TOTP) on a real Postgres: set up, turned on by a valid code with ten
// single-use recovery codes, then asked at sign-in and required (a fresh code in X-TOTP-Code) to
// change a payout address or create and revoke API keys; turned off with a code. Another merchant
// and a visitor are refused.
import { describe, expect, test } from 'bun:test';
import { TOTP_MESSAGES } from '@store/shared';
import { eq } from 'drizzle-orm';
import { recoveryCodes, users } from '../src/db/schema.ts';
import { RECOVERY_CODE_LIMIT, totpCodeAt } from '../src/modules/account/second-factor.ts';
import {
  type ApiClient,
  apiClient,
  newMerchant,
  sessionCookieOf,
  storeForm,
} from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['bob'] });
const password = 'correct horse battery';
const db = () => t.testDb.database.db;
const otherAddress = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** A code of the secret that is not valid now (the one of an hour ago, rarely the same). */
function wrongCode(secret: string): string {
  const now = totpCodeAt(secret);
  return now === '000000' ? '111111' : '000000';
}

/**
 * The code of the step before now, taken at least 2 s before the next step begins: accepted one
 * step either side, it would be two steps old if the request crossed a step's end on the way.
 */
async function previousStepCode(secret: string): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 2000) await Bun.sleep(left + 50);
  return totpCodeAt(secret, -1);
}

/** A merchant with two-step verification on: its secret and recovery codes. */
async function withTotp(prefix = 'totp') {
  const merchant = await newMerchant(t.app, prefix);
  const setup = await merchant.api.post('/api/auth/account/totp/setup');
  expect(setup.status).toBe(200);
  const secret: string = setup.body.secret;
  const enabled = await merchant.api.post('/api/auth/account/totp/enable', {
    // Note: the step before now: each later use needs a newer step (a code works once).
    code: await previousStepCode(secret),
    currentPassword: password,
  });
  expect(enabled.status).toBe(200);
  return { ...merchant, secret, codes: enabled.body.recoveryCodes as string[] };
}

const withCode = (code: string) => ({ headers: { 'x-totp-code': code } });

describe('setting up two-step verification', () => {
  test('a secret as text and otpauth URI; on only after a valid code; ten recovery codes stored hashed', async () => {
    const m = await newMerchant(t.app, 'setup');
    const setup = await m.api.post('/api/auth/account/totp/setup');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.uri).toStartWith('otpauth://totp/Storefront:');
    expect(setup.body.uri).toContain(`secret=${setup.body.secret}`);
    const before = await m.api.get('/api/auth/account');
    expect(before.body.totpEnabled).toBe(false);
    const wrong = await m.api.post('/api/auth/account/totp/enable', {
      currentPassword: password,
      code: wrongCode(setup.body.secret),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toBe(TOTP_MESSAGES.codeWrong);
    const bad = await m.api.post('/api/auth/account/totp/enable', {
      code: '12ab',
      currentPassword: password,
    });
    expect(bad.status).toBe(422);
    const enabled = await m.api.post('/api/auth/account/totp/enable', {
      currentPassword: password,
      code: await previousStepCode(setup.body.secret),
    });
    expect(enabled.status).toBe(200);
    const codes: string[] = enabled.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const stored = await db()
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, m.user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) for (const code of codes) expect(row.codeHash).not.toContain(code);
    const after = await m.api.get('/api/auth/account');
    expect(after.body).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10 });
    // Once on, a new setup is refused (it must be turned off first).
    expect((await m.api.post('/api/auth/account/totp/setup')).status).toBe(409);
    expect(
      (
        await m.api.post('/api/auth/account/totp/enable', {
          code: totpCodeAt(setup.body.secret),
          currentPassword: password,
        })
      ).status,
    ).toBe(409);
  });

  test('a visitor is refused', async () => {
    expect((await t.shopper.post('/api/auth/account/totp/setup')).status).toBe(401);
    expect((await t.shopper.post('/api/auth/account/totp/enable', { code: '123456' })).status).toBe(
      401,
    );
    expect(
      (await t.shopper.post('/api/auth/account/totp/disable', { code: '123456' })).status,
    ).toBe(401);
  });
});

describe('sign-in with two-step verification', () => {
  test('turning it on needs the password too (a stolen session cannot lock the owner out)', async () => {
    const m = await newMerchant(t.app, 'thief');
    const setup = await m.api.post('/api/auth/account/totp/setup');
    for (const currentPassword of [undefined, 'not the password at all']) {
      const refused = await m.api.post('/api/auth/account/totp/enable', {
        code: totpCodeAt(setup.body.secret, -1),
        ...(currentPassword === undefined ? {} : { currentPassword }),
      });
      expect(refused.status).toBe(422);
    }
    expect((await m.api.get('/api/auth/account')).body.totpEnabled).toBe(false);
  });

  test('asks for the code after the password; a code or a recovery code (once) signs in', async () => {
    const m = await withTotp('signin');
    const username = m.user.username;
    const noCode = await t.shopper.post('/api/auth/sign-in', { username, password });
    expect(noCode.status).toBe(401);
    expect(noCode.body.error.message).toBe(TOTP_MESSAGES.signInCode);
    expect(noCode.body.error.details).toEqual({ secondFactor: 'required' });
    expect(noCode.headers.get('set-cookie')).toBeNull();
    // A wrong password says nothing of the second factor.
    const wrongPassword = await t.shopper.post('/api/auth/sign-in', {
      username,
      password: 'nope nope nope',
      code: totpCodeAt(m.secret),
    });
    expect(wrongPassword.body.error.message).toBe('Invalid username or password');
    const wrong = await t.shopper.post('/api/auth/sign-in', {
      username,
      password,
      code: wrongCode(m.secret),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.details).toEqual({ secondFactor: 'wrong' });
    const ok = await t.shopper.post('/api/auth/sign-in', {
      username,
      password,
      code: totpCodeAt(m.secret),
    });
    expect(ok.status).toBe(200);
    expect(sessionCookieOf(ok)).toStartWith('session=');
    const recovery = m.codes[0] as string;
    const withRecovery = await t.shopper.post('/api/auth/sign-in', {
      username,
      password,
      code: recovery.toUpperCase(),
    });
    expect(withRecovery.status).toBe(200);
    const again = await t.shopper.post('/api/auth/sign-in', { username, password, code: recovery });
    expect(again.status).toBe(401);
    expect((await m.api.get('/api/auth/account')).body.recoveryCodesLeft).toBe(9);
  });
});

describe('changes that need a fresh code once it is on', () => {
  test('the payout address: 403 without a code or with a wrong one, saved with one', async () => {
    const m = await withTotp('payout');
    const store = (await m.api.post('/api/stores', storeForm(), withCode(m.codes[9] as string)))
      .body;
    const path = `/api/stores/${store.id}`;
    const none = await m.api.put(path, { paymentAddress: otherAddress });
    expect(none.status).toBe(403);
    expect(none.body.error.message).toBe(TOTP_MESSAGES.secondFactorRequired);
    expect(none.body.error.details).toEqual({ secondFactor: 'required' });
    const wrong = await m.api.put(
      path,
      { paymentAddress: otherAddress },
      withCode(wrongCode(m.secret)),
    );
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(TOTP_MESSAGES.codeWrong);
    expect((await m.api.get(path)).body.paymentAddress).toBe(store.paymentAddress);
    // Other fields need no code.
    expect((await m.api.put(path, { description: 'Mugs' })).status).toBe(200);
    const usedCode = totpCodeAt(m.secret);
    const ok = await m.api.put(path, { paymentAddress: otherAddress }, withCode(usedCode));
    expect(ok.status).toBe(200);
    expect(ok.body.paymentAddress).toBe(otherAddress);
    // The same code again (seen over a shoulder, or in a log) is refused: a code works once.
    const replayed = await m.api.put(
      path,
      { paymentAddress: store.paymentAddress },
      withCode(usedCode),
    );
    expect(replayed.status).toBe(403);
    expect(replayed.body.error.message).toBe(TOTP_MESSAGES.codeUsed);
    // Another merchant, with a code of its own, still cannot touch it.
    const bob = await t.bob.api.put(path, { paymentAddress: otherAddress });
    expect(bob.status).toBe(404);
    expect((await t.shopper.put(path, { paymentAddress: otherAddress })).status).toBe(401);
  });

  test('a new slug, deactivating and a new store: 403 without a code or with a wrong one, done with one', async () => {
    const m = await withTotp('move');
    const created = await m.api.post('/api/stores', storeForm());
    expect(created.status).toBe(403);
    expect(created.body.error.message).toBe(TOTP_MESSAGES.secondFactorRequired);
    expect(created.body.error.details).toEqual({ secondFactor: 'required' });
    const form = storeForm();
    const wrongCreate = await m.api.post('/api/stores', form, withCode(wrongCode(m.secret)));
    expect(wrongCreate.status).toBe(403);
    expect(wrongCreate.body.error.message).toBe(TOTP_MESSAGES.codeWrong);
    expect((await m.api.get('/api/stores?mine=true')).body).toEqual([]);
    const store = (await m.api.post('/api/stores', form, withCode(totpCodeAt(m.secret)))).body;
    expect(store.slug).toBe(form.slug);
    const path = `/api/stores/${store.id}`;
    const moved = `${form.slug}-new`;
    for (const change of [{ slug: moved }, { isActive: false }]) {
      const none = await m.api.put(path, change);
      expect(none.status).toBe(403);
      expect(none.body.error.details).toEqual({ secondFactor: 'required' });
      const wrong = await m.api.put(path, change, withCode(wrongCode(m.secret)));
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.message).toBe(TOTP_MESSAGES.codeWrong);
    }
    expect((await m.api.get(path)).body).toMatchObject({ slug: form.slug, isActive: true });
    // Other fields, the same slug and reopening need no code.
    expect((await m.api.put(path, { name: 'Mugs', slug: form.slug, isActive: true })).status).toBe(
      200,
    );
    const renamed = await m.api.put(path, { slug: moved }, withCode(totpCodeAt(m.secret, 1)));
    expect(renamed.status).toBe(200);
    expect(renamed.body.slug).toBe(moved);
    const closed = await m.api.put(path, { isActive: false }, withCode(m.codes[2] as string));
    expect(closed.status).toBe(200);
    expect(closed.body.isActive).toBe(false);
    // Another merchant still cannot touch it; a visitor is refused.
    expect((await t.bob.api.put(path, { slug: `${moved}-bob` })).status).toBe(404);
    expect((await t.shopper.put(path, { isActive: true })).status).toBe(401);
    expect((await t.shopper.post('/api/stores', storeForm())).status).toBe(401);
  });

  test('API keys: created and revoked only with a code (a recovery code counts, once)', async () => {
    const m = await withTotp('keys');
    const none = await m.api.post('/api/api-keys', { name: 'server' });
    expect(none.status).toBe(403);
    expect(none.body.error.message).toBe(TOTP_MESSAGES.secondFactorRequired);
    const created = await m.api.post(
      '/api/api-keys',
      { name: 'server' },
      withCode(totpCodeAt(m.secret)),
    );
    expect(created.status).toBe(201);
    const revokeNone = await m.api.delete(`/api/api-keys/${created.body.id}`);
    expect(revokeNone.status).toBe(403);
    const recovery = m.codes[1] as string;
    const revoked = await m.api.delete(`/api/api-keys/${created.body.id}`, withCode(recovery));
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toBeTruthy();
    const reused = await m.api.post('/api/api-keys', { name: 'again' }, withCode(recovery));
    expect(reused.status).toBe(403);
    // Another merchant cannot revoke it even with its own rights; a visitor is refused.
    expect((await t.bob.api.delete(`/api/api-keys/${created.body.id}`)).status).toBe(404);
    expect((await t.shopper.post('/api/api-keys', { name: 'x' })).status).toBe(401);
  });

  test('the webhook and link signing secrets: read and rotated only with a code', async () => {
    const m = await withTotp('secrets');
    const store = (await m.api.post('/api/stores', storeForm(), withCode(m.codes[9] as string)))
      .body;
    const base = `/api/stores/${store.id}`;
    // The webhook URL and its settings need no code, and never show the secret.
    const saved = await m.api.put(`${base}/webhook`, { url: 'http://127.0.0.1:9/hook' });
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.body)).not.toContain('whsec_');
    expect((await m.api.get(`${base}/webhook`)).body.secretHint).toMatch(/^.{4}$/);
    const secretCalls = [
      (code?: string) => m.api.get(`${base}/webhook/secret`, code ? withCode(code) : {}),
      (code?: string) =>
        m.api.post(`${base}/webhook/rotate-secret`, undefined, code ? withCode(code) : {}),
      (code?: string) => m.api.get(`${base}/link-secret`, code ? withCode(code) : {}),
      (code?: string) =>
        m.api.post(`${base}/link-secret/rotate`, undefined, code ? withCode(code) : {}),
    ];
    for (const call of secretCalls) {
      const none = await call();
      expect(none.status).toBe(403);
      expect(none.body.error.details).toEqual({ secondFactor: 'required' });
      expect(JSON.stringify(none.body)).not.toMatch(/whsec_|lsk_/);
      const wrong = await call(wrongCode(m.secret));
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.message).toBe(TOTP_MESSAGES.codeWrong);
    }
    const [readHook, rotateHook, readLink, rotateLink] = secretCalls as [
      (typeof secretCalls)[0],
      (typeof secretCalls)[0],
      (typeof secretCalls)[0],
      (typeof secretCalls)[0],
    ];
    const hook = await readHook(totpCodeAt(m.secret));
    expect(hook.status).toBe(200);
    expect(hook.body.secret).toMatch(/^whsec_/);
    const rotated = await rotateHook(m.codes[0] as string);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(hook.body.secret);
    const link = await readLink(totpCodeAt(m.secret, 1));
    expect(link.body.secret).toMatch(/^lsk_/);
    const newLink = await rotateLink(m.codes[1] as string);
    expect(newLink.status).toBe(200);
    expect(newLink.body.secret).not.toBe(link.body.secret);
    // Another merchant gets nothing, even from its own session; a visitor is refused.
    for (const path of [`${base}/webhook/secret`, `${base}/link-secret`])
      expect((await t.bob.api.get(path)).status).toBe(404);
    expect((await t.shopper.get(`${base}/webhook/secret`)).status).toBe(401);
  });

  test('an account without it changes them as before', async () => {
    const store = (await t.bob.api.post('/api/stores', storeForm())).body;
    expect(
      (await t.bob.api.put(`/api/stores/${store.id}`, { paymentAddress: otherAddress })).status,
    ).toBe(200);
    expect((await t.bob.api.post('/api/api-keys', { name: 'plain' })).status).toBe(201);
  });

  test('wrong codes slow the account down', async () => {
    const m = await withTotp('guess');
    const wrong = wrongCode(m.secret);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await m.api.post('/api/api-keys', { name: 'x' }, withCode(wrong))).status);
    expect(statuses.slice(0, 6)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(statuses[6]).toBe(429);
  });
});

describe('recovery codes have a limit of their own', () => {
  test('20 wrong authenticator codes do not lock out a valid recovery code', async () => {
    const m = await withTotp('locked');
    const wrong = wrongCode(m.secret);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await m.api.post('/api/api-keys', { name: 'x' }, withCode(wrong))).status);
    expect(statuses.at(-1)).toBe(429);
    // The authenticator's codes wait; the owner's recovery code still works (and clears the wait).
    const rescued = await m.api.post(
      '/api/api-keys',
      { name: 'rescued' },
      withCode(m.codes[0] as string),
    );
    expect(rescued.status).toBe(201);
    const [row] = await db()
      .select({ failures: users.totpFailures })
      .from(users)
      .where(eq(users.id, m.user.id));
    expect(row?.failures).toBe(0);
  });

  test('wrong recovery codes are limited on their own, and do not hold the authenticator back', async () => {
    const m = await withTotp('recovery-guess');
    const guess = (i: number) => withCode(`guess-${String(i).padStart(5, '0')}`);
    const statuses: number[] = [];
    for (let i = 0; i < RECOVERY_CODE_LIMIT.max; i++)
      statuses.push((await m.api.post('/api/api-keys', { name: 'x' }, guess(i))).status);
    expect(new Set(statuses)).toEqual(new Set([403]));
    const limited = await m.api.post(
      '/api/api-keys',
      { name: 'x' },
      withCode(m.codes[0] as string),
    );
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toStartWith(TOTP_MESSAGES.tooManyCodes);
    const ok = await m.api.post('/api/api-keys', { name: 'y' }, withCode(totpCodeAt(m.secret)));
    expect(ok.status).toBe(201);
  });
});

describe('every API process sees the same codes and the same wait', () => {
  test('a code taken by another process (its step in the row) is refused here, and says why', async () => {
    const m = await withTotp('shared-step');
    const code = totpCodeAt(m.secret);
    const signedIn = await t.shopper.post('/api/auth/sign-in', {
      username: m.user.username,
      password,
      code,
    });
    expect(signedIn.status).toBe(200);
    const [row] = await db()
      .select({ step: users.totpLastStep })
      .from(users)
      .where(eq(users.id, m.user.id));
    expect(row?.step).toBe(Math.floor(Date.now() / 30_000));
    // The same code again, as a replica would receive it: refused, with what to do.
    const replay = await m.api.post('/api/api-keys', { name: 'again' }, withCode(code));
    expect(replay.status).toBe(403);
    expect(replay.body.error.message).toBe(TOTP_MESSAGES.codeUsed);
    // The next code works.
    const next = await m.api.post(
      '/api/api-keys',
      { name: 'next' },
      withCode(totpCodeAt(m.secret, 1)),
    );
    expect(next.status).toBe(201);
  });

  test('guesses sent at once are each counted before they are checked: no more get through', async () => {
    const m = await withTotp('burst');
    const wrong = wrongCode(m.secret);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        m.api.post('/api/api-keys', { name: 'x' }, withCode(wrong)).then((r) => r.status),
      ),
    );
    // 5 free and one more, as one at a time; the rest wait.
    expect(statuses.filter((status) => status === 403)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });

  test('wrong codes counted by another process hold this one too; a right code clears them', async () => {
    const m = await withTotp('shared-wait');
    await db()
      .update(users)
      .set({ totpFailures: 8, totpFailedAt: new Date() })
      .where(eq(users.id, m.user.id));
    const held = await m.api.post('/api/api-keys', { name: 'x' }, withCode(totpCodeAt(m.secret)));
    expect(held.status).toBe(429);
    expect(held.body.error.message).toStartWith(TOTP_MESSAGES.tooManyCodes);
    // An hour after the last wrong code the count is forgotten.
    await db()
      .update(users)
      .set({ totpFailedAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(users.id, m.user.id));
    const ok = await m.api.post('/api/api-keys', { name: 'y' }, withCode(totpCodeAt(m.secret)));
    expect(ok.status).toBe(201);
    const [row] = await db()
      .select({ failures: users.totpFailures })
      .from(users)
      .where(eq(users.id, m.user.id));
    expect(row?.failures).toBe(0);
  });
});

describe('turning it off', () => {
  test('needs a valid code; then sign-in and changes need none, and the codes are gone', async () => {
    const m = await withTotp('off');
    const wrong = await m.api.post('/api/auth/account/totp/disable', {
      code: wrongCode(m.secret),
    });
    expect(wrong.status).toBe(422);
    expect(
      (await t.bob.api.post('/api/auth/account/totp/disable', { code: totpCodeAt(m.secret) }))
        .status,
    ).toBe(409);
    const off = await m.api.post('/api/auth/account/totp/disable', { code: totpCodeAt(m.secret) });
    expect(off.status).toBe(200);
    const [user] = await db().select().from(users).where(eq(users.id, m.user.id));
    expect(user?.totpSecret).toBeNull();
    expect(user?.totpEnabledAt).toBeNull();
    expect(
      await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, m.user.id)),
    ).toEqual([]);
    const signIn = await t.shopper.post('/api/auth/sign-in', {
      username: m.user.username,
      password,
    });
    expect(signIn.status).toBe(200);
    const api: ApiClient = apiClient(t.app, sessionCookieOf(signIn));
    expect((await api.post('/api/api-keys', { name: 'free' })).status).toBe(201);
  });
});
