// Merchant mails on the real stack: Postgres, anvil with USDC, the indexer and the worker's loops
// (as the worker's database role), sending over SMTP to the local mail catcher. The owner of a
// store gets an email for each paid order (to a verified address, unless the store turned it off);
// the account links (verify, reset) go out through the same outbox and their payload is not kept.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { type MailCatcher, startMailCatcher } from '@store/stack/mail-catcher';
import { freePort } from '@store/stack/ports';
import { payUsdc } from '@store/stack/usdc';
import { and, eq } from 'drizzle-orm';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { emailOutbox } from '../src/db/schema.ts';
import { enqueuePaidMails } from '../src/mail/outbox.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient, sessionCookieOf, storeForm } from './support/client.ts';
import { orderOneMug } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const password = 'correct horse battery';

const smtpPort = await freePort();
let catcher: MailCatcher;
const t = useChainApi({
  confirmations: 2,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '2',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Storefront <mail@shop.test>',
        MAIL_RETRY_BASE_MS: '200',
      }),
      database.db,
      { log: (line) => console.log(line) },
    ),
});
beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort, inboxPort: 0 });
});
afterAll(async () => {
  await catcher?.stop();
});

const inboxOf = (to: string) => catcher.messages().filter((m) => m.to.includes(to));

/** A merchant signed up with `email`, verified from the caught mail's link when `verify`. */
async function merchantWithEmail(prefix: string, verify: boolean) {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@merchant.test`;
  const response = await t.shopper.post('/api/auth/sign-up', {
    username: `${prefix}-${crypto.randomUUID().slice(0, 8)}`,
    password,
    email,
  });
  expect(response.status).toBe(201);
  const merchant = {
    email,
    cookie: sessionCookieOf(response),
    user: response.body.user,
    api: apiClient(t.app, sessionCookieOf(response)),
  };
  const mail = await waitUntil(() => inboxOf(email)[0], 'the verification mail');
  expect(mail.subject).toBe('Verify your email address');
  const link = /http:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  expect(link).toBeTruthy();
  expect(mail.html).toContain('Verify email address');
  if (verify) {
    const token = new URL(link).searchParams.get('token');
    expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
  }
  return merchant;
}

/** A store of `owner`, an order of one mug paid in full, its id. */
async function paidOrder(owner: Awaited<ReturnType<typeof merchantWithEmail>>, notify = true) {
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() })))
    .body;
  if (!notify)
    await owner.api.put(`/api/auth/account/stores/${store.id}/notifications`, {
      notifyPaidOrders: false,
    });
  const { orderId } = await orderOneMug(owner, t.shopper, store.id);
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  await payUsdc(t.stack.env, 5, wallet.body.paymentWallet.address as Address, usdc('10.80'));
  // The receipt to the shopper is queued in the same transaction as the merchant's notice.
  await waitUntil(async () => {
    const rows = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'receipt')));
    return rows[0]?.status === 'sent';
  }, 'the receipt sent');
  return { store, orderId };
}

describe('merchant mails', () => {
  test('a verification mail is sent through the outbox and its link is not kept once sent', async () => {
    const m = await merchantWithEmail('linkmail', false);
    // The catcher holds the message a moment before the worker has recorded it as sent.
    const rows = await waitUntil(async () => {
      const found = await t.database.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.userId, m.user.id));
      return found[0]?.status === 'sent' && found;
    }, 'the verification mail recorded as sent');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'verify_email', status: 'sent', payload: null });
  }, 60_000);

  test('the owner of a store gets an email for each paid order, once', async () => {
    const owner = await merchantWithEmail('paidmail', true);
    const { store, orderId } = await paidOrder(owner);
    const mail = await waitUntil(
      () => inboxOf(owner.email).find((m) => m.subject.startsWith('New paid order')),
      'the paid-order mail',
    );
    expect(mail.subject).toBe(`New paid order #${orderId.slice(-8)} at ${store.name}: 10.80 USDC`);
    expect(mail.text).toContain('Mug × 1: 10.00 USDC');
    expect(mail.text).toContain('Total paid: 10.80 USDC');
    expect(mail.text).toContain(`Customer: ${customer.customerEmail}`);
    // A second call (a retried settlement) adds nothing.
    await enqueuePaidMails(t.database.db, orderId, new Date());
    const rows = await t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'merchant_paid')));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.toAddress).toBe(owner.email);
  }, 90_000);

  test('none when the store turned them off, or the owner has no verified email', async () => {
    const quiet = await merchantWithEmail('quiet', true);
    const off = await paidOrder(quiet, false);
    const unverified = await merchantWithEmail('unverified', false);
    const noAddress = await paidOrder(unverified);
    for (const { orderId } of [off, noAddress]) {
      const rows = await t.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, 'merchant_paid')));
      expect(rows).toEqual([]);
    }
    expect(inboxOf(quiet.email).filter((m) => m.subject.startsWith('New paid'))).toEqual([]);
  }, 90_000);
});
