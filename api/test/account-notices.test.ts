// The owner's emails about the changes that decide where a store's sales go, on a real Postgres,
// sent by the mail dispatcher (as the worker's database role) over SMTP to the local mail catcher:
// a store created, its slug changed, its payout address changed, the store deactivated, and a new
// API key each mail the account's verified address, what changed and what to do if it was not
// them; so do an API key revoked and a store's webhook signing secret rotated. A refused change mails nothing; an account without a verified address gets none. A sign-up
// with an address another account verified mails that account's owner, never the new account.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type MailCatcher, startMailCatcher } from '@store/stack/mail-catcher';
import { and, eq } from 'drizzle-orm';
import { createDatabase } from '../src/db/client.ts';
import { emailOutbox } from '../src/db/schema.ts';
import type { WakeableLoop } from '../src/loops/wakeable-loop.ts';
import { startMailDispatcher } from '../src/mail/dispatcher.ts';
import { totpCodeAt } from '../src/modules/account/second-factor.ts';
import { apiClient, newMerchant, sessionCookieOf, storeForm } from './support/client.ts';
import { waitUntil } from './support/settlement.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
const password = 'correct horse battery';
const payout = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
let catcher: MailCatcher;
let dispatcher: WakeableLoop;
let workerDb: ReturnType<typeof createDatabase>;

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, inboxPort: 0 });
  workerDb = createDatabase(t.testDb.roleUrls.worker, { max: 2 });
  dispatcher = startMailDispatcher({
    db: workerDb.db,
    smtpUrl: catcher.smtpUrl,
    from: 'Storefront <mail@shop.test>',
    chainId: 31337,
    retryBaseMs: 200,
    intervalMs: 50,
    log: () => {},
  });
});
afterAll(async () => {
  await dispatcher?.stop();
  await workerDb?.close();
  await catcher?.stop();
});

const inboxOf = (to: string) => catcher.messages().filter((m) => m.to.includes(to));

/** The mail to `to` whose subject starts with `subject`, once it arrived. */
const mailTo = (to: string, subject: string) =>
  waitUntil(() => inboxOf(to).find((m) => m.subject.startsWith(subject)), `the mail "${subject}"`);

/** A merchant signed up with an email it verified (from the link in the outbox). */
async function verifiedMerchant(prefix: string) {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@merchant.test`;
  const response = await t.shopper.post('/api/auth/sign-up', {
    username: `${prefix}-${crypto.randomUUID().slice(0, 8)}`,
    password,
    email,
  });
  expect(response.status).toBe(201);
  const [mail] = await t.testDb.database.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, email));
  const token = new URL(String(mail?.payload?.url)).searchParams.get('token');
  expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
  return { email, user: response.body.user, api: apiClient(t.app, sessionCookieOf(response)) };
}

describe('the owner is emailed', () => {
  test('each store created, slug changed, payout address changed, store deactivated, and API key made', async () => {
    const m = await verifiedMerchant('notices');
    const form = storeForm({ name: 'Night Market' });
    const store = (await m.api.post('/api/stores', form)).body;
    const created = await mailTo(m.email, 'New store “Night Market” on your account');
    expect(created.text).toContain(`/store/${form.slug}`);
    expect(created.text).toContain(form.paymentAddress);
    expect(created.text).toContain('http://localhost/forgot-password');
    expect(created.html).toContain('Night Market');

    const path = `/api/stores/${store.id}`;
    const slug = `${form.slug}-moved`;
    expect((await m.api.put(path, { slug, paymentAddress: payout })).status).toBe(200);
    const moved = await mailTo(m.email, `Your store “Night Market” moved to /store/${slug}`);
    expect(moved.text).toContain(`from /store/${form.slug} to /store/${slug}`);
    expect(moved.text).toContain('stays reserved for your account');
    const paid = await mailTo(m.email, 'The payout address of “Night Market” changed');
    expect(paid.text).toContain(`From: ${form.paymentAddress}`);
    expect(paid.text).toContain(`To: ${payout}`);

    expect((await m.api.put(path, { isActive: false })).status).toBe(200);
    const closed = await mailTo(m.email, 'Your store “Night Market” was deactivated');
    expect(closed.text).toContain(`/store/${slug}`);

    const key = (await m.api.post('/api/api-keys', { name: 'Warehouse' })).body;
    const keyMail = await mailTo(m.email, 'New API key “Warehouse” on your account');
    expect(keyMail.text).toContain(`${key.keyPrefix}…`);
    expect(keyMail.text).not.toContain(key.key);

    // One mail a change, nothing for edits that move nothing.
    expect((await m.api.put(path, { description: 'Mugs', isActive: true })).status).toBe(200);
    await Bun.sleep(300);
    expect(inboxOf(m.email).map((mail) => mail.subject)).toHaveLength(6);
  }, 60_000);

  test('of an API key revoked and a webhook signing secret rotated', async () => {
    const m = await verifiedMerchant('keys');
    const store = (await m.api.post('/api/stores', storeForm({ name: 'Key Shop' }))).body;
    await mailTo(m.email, 'New store “Key Shop” on your account');
    const key = (await m.api.post('/api/api-keys', { name: 'Till' })).body;
    await mailTo(m.email, 'New API key “Till” on your account');

    // Another merchant cannot revoke it, and nobody is mailed for that.
    const other = await newMerchant(t.app, 'other-keys');
    expect((await other.api.delete(`/api/api-keys/${key.id}`)).status).toBe(404);
    expect((await m.api.delete(`/api/api-keys/${key.id}`)).status).toBe(200);
    const revoked = await mailTo(m.email, 'API key “Till” revoked on your account');
    expect(revoked.text).toContain(`${key.keyPrefix}…`);
    expect(revoked.text).not.toContain(key.key);
    expect(revoked.text).toContain('http://localhost/forgot-password');
    // Revoking it again changes nothing and mails nothing.
    expect((await m.api.delete(`/api/api-keys/${key.id}`)).status).toBe(200);

    expect((await other.api.post(`/api/stores/${store.id}/webhook/rotate-secret`)).status).toBe(
      404,
    );
    const rotated = await m.api.post(`/api/stores/${store.id}/webhook/rotate-secret`);
    expect(rotated.status).toBe(200);
    const secretMail = await mailTo(
      m.email,
      'The webhook signing secret of “Key Shop” was rotated',
    );
    expect(secretMail.text).toContain('The previous secret keeps signing beside the new one');
    // Never the secret, nor part of it.
    const secret = String(rotated.body.secret);
    expect(secret.length).toBeGreaterThan(8);
    expect(secretMail.text).not.toContain(secret.slice(-8));
    expect(secretMail.html).not.toContain(secret.slice(-8));

    await Bun.sleep(300);
    expect(inboxOf(m.email).map((mail) => mail.subject)).toHaveLength(5);
  }, 60_000);

  test('of a sign-up with its verified email address, which the new account never gets', async () => {
    const m = await verifiedMerchant('holder');
    const answer = await t.shopper.post('/api/auth/sign-up', {
      username: `copycat-${crypto.randomUUID().slice(0, 8)}`,
      password,
      email: m.email,
    });
    expect(answer.status).toBe(201);
    const mail = await mailTo(m.email, 'Someone tried to use your email address');
    expect(mail.text).toContain(`It already belongs to your account, ${m.user.username}`);
    expect(mail.text).toContain('http://localhost/forgot-password');
    // Only the owner's own verification link ever reached the address.
    await Bun.sleep(300);
    const links = inboxOf(m.email).filter((each) => each.subject === 'Verify your email address');
    expect(links).toHaveLength(1);
  }, 60_000);

  test('nothing for a refused change; nothing without a verified address', async () => {
    const m = await verifiedMerchant('refused');
    const store = (await m.api.post('/api/stores', storeForm())).body;
    await mailTo(m.email, 'New store');
    const other = await newMerchant(t.app, 'other');
    expect((await other.api.put(`/api/stores/${store.id}`, { isActive: false })).status).toBe(404);
    const noEmail = await newMerchant(t.app, 'no-email');
    expect((await noEmail.api.post('/api/stores', storeForm())).status).toBe(201);
    const rows = await t.testDb.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.userId, noEmail.user.id));
    expect(rows).toEqual([]);
    await Bun.sleep(300);
    expect(inboxOf(m.email)).toHaveLength(2);
  }, 60_000);

  test('of a password change, a reset, two-step verification on and off, and a new email (to the old one)', async () => {
    const m = await verifiedMerchant('security');
    const changed = await m.api.post('/api/auth/account/password', {
      currentPassword: password,
      newPassword: 'a much longer horse battery',
    });
    expect(changed.status).toBe(200);
    const mail = await mailTo(m.email, 'Your Storefront password was changed');
    expect(mail.text).toContain(`The password of your account ${m.user.username} was changed`);
    expect(mail.text).toContain('http://localhost/forgot-password');

    const setup = await m.api.post('/api/auth/account/totp/setup');
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 2000) await Bun.sleep(left + 50);
    const on = await m.api.post('/api/auth/account/totp/enable', {
      code: totpCodeAt(setup.body.secret, -1),
      currentPassword: 'a much longer horse battery',
    });
    expect(on.status).toBe(200);
    await mailTo(m.email, 'Two-step verification is on for your Storefront account');
    const off = await m.api.post('/api/auth/account/totp/disable', {
      code: on.body.recoveryCodes[0],
    });
    expect(off.status).toBe(200);
    await mailTo(m.email, 'Two-step verification was turned off');

    // A new address, once verified: the old one is told, with both addresses.
    const next = `moved-${crypto.randomUUID().slice(0, 8)}@merchant.test`;
    expect(
      (
        await m.api.post('/api/auth/account/email', {
          email: next,
          currentPassword: 'a much longer horse battery',
        })
      ).status,
    ).toBe(200);
    const [link] = await t.testDb.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, next));
    const token = new URL(String(link?.payload?.url)).searchParams.get('token');
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
    const moved = await mailTo(m.email, 'The email address of your Storefront account changed');
    expect(moved.text).toContain(`changed from ${m.email} to ${next}`);
    expect(inboxOf(next).some((each) => each.subject.startsWith('The email address'))).toBe(false);

    // A reset through the emailed link tells the (new) address too.
    await t.shopper.post('/api/auth/forgot-password', { email: next });
    const reset = await waitUntil(async () => {
      const [row] = await t.testDb.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, next), eq(emailOutbox.kind, 'reset_password')));
      return row;
    }, 'the reset link');
    const resetToken = new URL(String(reset.payload?.url)).searchParams.get('token');
    expect(
      (
        await t.shopper.post('/api/auth/reset-password', {
          token: resetToken,
          password: 'yet another horse battery',
          revokeApiKeys: false,
        })
      ).status,
    ).toBe(200);
    const resetMail = await mailTo(next, 'Your Storefront password was changed');
    expect(resetMail.text).toContain('was reset with a link sent to this address');
  }, 90_000);
});
