// Recoverable merchant accounts on the real stack, with the mails read from the local inbox: a
// merchant without an email is reminded, adds one and verifies it from the emailed link; forgets
// the password and resets it from the emailed link (the session on another device ends, and the
// API key it reviews there is revoked); turns on two-step verification and must give a code to
// change a store's payout address, create an API key or a store, or see a signing secret; ends the
// session of another device from the account page.
import { createHmac } from 'node:crypto';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { readStackInfo } from '@store/stack/stack-info';
import { createStore, PASSWORD, signUp, unique } from './admin-helpers.ts';
import { snap } from './support/screenshots.ts';

const stack = readStackInfo();
const NEW_PASSWORD = 'violet staple orbit lantern';
const NEW_ADDRESS = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

type Mail = { id: number; to: string[]; subject: string; text: string };

/** The newest mail to `to` with `subject`, once it arrived; and the link in it. */
async function mailLink(request: APIRequestContext, to: string, subject: string, after = 0) {
  const find = async () =>
    ((await (await request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[])
      .filter((mail) => mail.to.includes(to) && mail.subject === subject && mail.id > after)
      .at(-1);
  await expect.poll(find, { timeout: 30_000 }).toBeTruthy();
  const mail = (await find()) as Mail;
  const link = /https?:\/\/\S+\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  return { mail, link: link as string };
}

/**
 * Waits, when the current 30 s step ends within 5 s, for the next one: a code of the step before
 * now is accepted only until the step after it begins, and the browser's round trip takes time.
 */
async function awayFromStepEnd(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * The RFC 6238 code of a base32 secret `steps` periods from now (the test is the authenticator
 * app). Note: a code works once, so each use takes a newer step; the API accepts one step either
 * side of now.
 */
function totpCode(secret: string, steps = 0): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, ''))
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)?.map((byte) => Number.parseInt(byte, 2)) ?? []);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = (hmac.at(-1) ?? 0) & 0xf;
  const value = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

/** Both screenshots of the page as it is now: phone and laptop. */
async function snapBoth(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  // Nothing a merchant needs scrolls sideways on a phone.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(PHONE.width);
  await snap(page, `${name}-phone`);
  await page.setViewportSize(LAPTOP);
  await snap(page, `${name}-laptop`);
}

/** Another device: a browser context of its own, signed in as the merchant. */
async function otherDevice(browser: Browser, username: string, password: string, code?: string) {
  const context = await browser.newContext({
    baseURL: stack.webUrl,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Safari/604.1',
  });
  const response = await context.request.post('/api/auth/sign-in', {
    data: { username, password, ...(code ? { code } : {}) },
  });
  expect(response.status(), await response.text()).toBe(200);
  return context;
}

test('a merchant adds and verifies an email, resets a forgotten password, turns on two-step verification and ends another session', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const username = await signUp(page.request);
  const email = `${username}@merchant.example`;
  const store = await createStore(page.request, unique('Recovery Shop'));

  // An account without an email is reminded above every admin page.
  await page.goto('/admin');
  const banner = page.getByTestId('email-banner');
  await expect(banner).toContainText('Add an email to your account');
  await snapBoth(page, 'account-1-banner');
  await banner.getByRole('link', { name: 'Add email' }).click();
  await expect(page).toHaveURL('/admin/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(email.toUpperCase());
  // Note: the password too: a stolen session cannot add its own address and reset the password.
  await page.getByRole('region', { name: 'Email' }).getByLabel('Current password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Send verification link' }).click();
  await expect(page.getByText(`We sent a verification link to ${email}`).first()).toBeVisible();
  await expect(page.getByTestId('account-email')).toContainText('Not verified');

  // The link from the local inbox verifies it.
  const verify = await mailLink(page.request, email, 'Verify your email address');
  expect(verify.link.startsWith(`${stack.webUrl}/verify-email?token=`)).toBe(true);
  await page.goto(verify.link);
  await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
  await expect(page.getByText(`${email} is verified`)).toBeVisible();
  await snapBoth(page, 'account-2-email-verified');
  // Opened again, the link no longer works.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByTestId('email-banner')).toBeHidden();

  // An API key of the account (it is listed on the reset page).
  const oldKey = await page.request.post('/api/api-keys', { data: { name: 'Old server' } });
  expect(oldKey.status()).toBe(201);
  const oldSecret = ((await oldKey.json()) as { key: string }).key;

  // Another device is signed in; then the merchant forgets the password.
  const phone = await otherDevice(browser, username, PASSWORD);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await snapBoth(page, 'account-3-sign-in');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(
    page.getByText('If an account has that email address, we sent it a link'),
  ).toBeVisible();
  await snapBoth(page, 'account-4-forgot-password');
  const reset = await mailLink(page.request, email, 'Reset your password');
  expect(reset.link.startsWith(`${stack.webUrl}/reset-password?token=`)).toBe(true);
  await page.goto(reset.link);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  // The account's API keys are listed for review, and revoked with the reset when asked.
  const keys = page.getByRole('region', { name: 'Your API keys' });
  await expect(keys.getByRole('listitem')).toHaveText([/^Old server sk_test_\w{4}…/]);
  await keys.getByLabel('Also revoke this API key').check();
  await snapBoth(page, 'account-5-reset-password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password is changed.')).toBeVisible();
  await expect(page.getByText('Your API keys were revoked')).toBeVisible();
  const revoked = await page.request.get('/api/orders', {
    headers: { authorization: `Bearer ${oldSecret}` },
  });
  expect(revoked.status()).toBe(401);
  // The session on the other device ended with the reset.
  expect((await phone.request.get('/api/auth/me')).status()).toBe(401);
  await phone.close();
  // The link works once.
  await page.goto(reset.link);
  await expect(page.getByText('This link is invalid, already used or expired.')).toBeVisible();

  // Signs in with the new password.
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/admin');

  // Turns on two-step verification from the account page (in the header).
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByRole('button', { name: 'Set up two-step verification' }).click();
  await expect(page.getByRole('img', { name: /QR code of your two-step/ })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await snapBoth(page, 'account-6-totp-setup');
  await awayFromStepEnd();
  await page.getByLabel('Code from the app').fill(totpCode(secret, -1));
  await page
    .getByRole('region', { name: 'Two-step verification' })
    .getByLabel('Current password')
    .fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByTestId('recovery-codes');
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  const [recoveryCode = '', ...moreCodes] = await codes.getByRole('listitem').allTextContents();
  await snapBoth(page, 'account-7-recovery-codes');
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByText('10 recovery codes left')).toBeVisible();

  // Changing the payout address now needs a code.
  await page.goto('/admin');
  await page
    .getByRole('article', { name: store.name })
    .getByRole('button', { name: 'Edit' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Edit Store' });
  await dialog.getByLabel('Payment Address').fill(NEW_ADDRESS);
  await expect(dialog.getByLabel('Authenticator code')).toBeVisible();
  await dialog.getByRole('button', { name: 'Update Store' }).click();
  await expect(
    dialog.getByText('Two-step verification is on: enter the current code from your authenticator'),
  ).toBeVisible();
  await snapBoth(page, 'account-8-payout-code');
  await dialog.getByLabel('Authenticator code').fill(totpCode(secret));
  await dialog.getByRole('button', { name: 'Update Store' }).click();
  await expect(dialog).toBeHidden();
  const saved = await (await page.request.get(`/api/stores/${store.id}`)).json();
  expect(saved.paymentAddress).toBe(NEW_ADDRESS);

  // So do API keys: the API keys tab asks for the code.
  await page.goto(`/admin/stores/${store.id}`);
  await page.getByRole('tab', { name: 'API keys' }).click();
  await page.getByLabel('Key name').fill('Warehouse server');
  await expect(page.getByLabel('Authenticator code')).toBeVisible();
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Two-step verification is on: enter the current code' })
      .first(),
  ).toBeVisible();
  await page.getByLabel('Authenticator code').fill(totpCode(secret, 1));
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(page.getByTestId('api-key-secret')).toHaveText(/^sk_test_/);
  await snapBoth(page, 'account-8b-api-key-code');

  // The signing secrets show only with a code: the webhook's (once a URL is saved) and the links'.
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hooks');
  await page.getByRole('button', { name: 'Save Webhook URL' }).click();
  const signing = page.getByRole('group', { name: 'Signing secret' });
  await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_•+.{4}$/);
  await signing.getByRole('button', { name: 'Show' }).click();
  await signing.getByRole('button', { name: 'Show signing secret' }).click();
  await expect(
    signing.getByText('Two-step verification is on: enter the current code'),
  ).toBeVisible();
  await signing.getByLabel('Authenticator code').fill(moreCodes[0] ?? '');
  await signing.getByRole('button', { name: 'Show signing secret' }).click();
  await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/=]{20,}$/);
  const links = page.getByRole('group', { name: 'Link secret' });
  await links.getByRole('button', { name: 'Show' }).click();
  await links.getByLabel('Authenticator code').fill(moreCodes[1] ?? '');
  await snapBoth(page, 'account-8c-secret-code');
  await links.getByRole('button', { name: 'Show link secret' }).click();
  await expect(page.getByTestId('link-secret')).toHaveText(/^lsk_[0-9a-f]{64}$/);

  // So does a new store.
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Create Store', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create New Store' });
  const second = unique('Second Shop');
  await create.getByLabel('Store Name').fill(second);
  await create.getByLabel('Payment Address').fill(NEW_ADDRESS);
  await create.getByLabel('Authenticator code').fill(moreCodes[2] ?? '');
  await snapBoth(page, 'account-8d-new-store-code');
  await create.getByRole('button', { name: 'Create Store' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByRole('article', { name: second })).toBeVisible();

  // Another device signs in (it needs a code too: a recovery code, once) and is ended from the
  // account page.
  const tablet = await otherDevice(browser, username, NEW_PASSWORD, recoveryCode);
  await page.goto('/admin/account');
  const sessions = page.getByRole('listitem', { name: /^Session / });
  await expect(sessions).toHaveCount(2);
  await expect(page.getByRole('listitem', { name: 'Session Safari on iOS' })).toBeVisible();
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  await snapBoth(page, 'account-9-sessions');
  await page
    .getByRole('listitem', { name: 'Session Safari on iOS' })
    .getByRole('button', { name: 'End session' })
    .click();
  await expect(sessions).toHaveCount(1);
  expect((await tablet.request.get('/api/auth/me')).status()).toBe(401);
  await tablet.close();
  // This device is still signed in.
  expect((await page.request.get('/api/auth/me')).status()).toBe(200);
});

test('sign-up asks for an email; sign-in asks for the authenticator code once it is on', async ({
  page,
}) => {
  const username = unique('signup');
  await page.goto('/sign-up');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Email').fill('not an email');
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await page.getByLabel('Email').fill(`${username}@merchant.example`);
  await snapBoth(page, 'account-0-sign-up');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL('/admin');
  await expect(page.getByTestId('email-banner')).toContainText(
    `open the link we sent to ${username}@merchant.example`,
  );

  // Two-step verification on through the API, then a fresh sign-in asks for the code.
  const setup = await (await page.request.post('/api/auth/account/totp/setup')).json();
  await awayFromStepEnd();
  const enabled = await page.request.post('/api/auth/account/totp/enable', {
    data: { code: totpCode(setup.secret, -1), currentPassword: PASSWORD },
  });
  expect(enabled.status()).toBe(200);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Two-step verification is on: enter the 6-digit code')).toBeVisible();
  await snapBoth(page, 'account-10-sign-in-code');
  await page.getByLabel('Authenticator code').fill(totpCode(setup.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL('/admin');
});
