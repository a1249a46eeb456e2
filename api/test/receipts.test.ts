// Receipts on the real stack: Postgres, anvil (200 ms blocks) with USDC, the indexer and the
// worker's loops in-process, sending over SMTP to the local mail catcher. A paid order gets exactly
// one receipt with its lines, totals, transaction and the store's reply-to; an order not paid in
// full gets none; a mail server that is down when the order is paid loses nothing. A paid order of
// a file product: its receipt carries a signed download link that fetches the file.
import { afterAll, describe, expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { type MailCatcher, startMailCatcher } from '@store/stack/mail-catcher';
import { freePort } from '@store/stack/ports';
import { payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { emailOutbox } from '../src/db/schema.ts';
import { MAIL_KINDS } from '../src/mail/kinds.ts';
import { enqueuePaidMails } from '../src/mail/outbox.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { newMerchant, storeForm } from './support/client.ts';
import { orderOneMug, waitForWalletState } from './support/payments.ts';
import { waitUntil } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

// Note: the SMTP port is chosen before the catcher runs, so the worker starts with a mail server
// that is down; the first test brings it up.
const smtpPort = await freePort();
let catcher: MailCatcher | undefined;
/** The public origin of the mails' links (the API answers any origin it is handed). */
const PUBLIC_URL = 'http://shop.test';
const t = useChainApi({
  confirmations: 2,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '2',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Storefront receipts <receipts@shop.test>',
        MAIL_RETRY_BASE_MS: '200',
        PUBLIC_URL: PUBLIC_URL,
      }),
      database.db,
      { log: (line) => console.log(line) },
    ),
});
afterAll(async () => {
  await catcher?.stop();
});

/** A store with a reply-to address, a 10.80 order of one mug, and its deposit address. */
async function paidStoreOrder() {
  const owner = await newMerchant(t.app, 'receipt');
  const store = (
    await owner.api.post(
      '/api/stores',
      storeForm({ paymentAddress: freshAddress(), replyToEmail: 'help@mugs.test' }),
    )
  ).body;
  expect(store.replyToEmail).toBe('help@mugs.test');
  const { orderId } = await orderOneMug(owner, t.shopper, store.id);
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  return { store, orderId, address: wallet.body.paymentWallet.address as Address };
}

const outboxOf = (orderId: string) =>
  t.database.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));

describe('receipts', () => {
  test('a receipt queued while the mail server is down is sent once it is up, exactly once', async () => {
    const { store, orderId, address } = await paidStoreOrder();
    const { hash } = await payUsdc(t.stack.env, 3, address, usdc('10.80'));

    // The server is down: the attempt fails and the receipt waits for the next one.
    const failed = await waitUntil(async () => {
      const [row] = await outboxOf(orderId);
      return row && row.attempts >= 1 && row;
    }, 'a first attempt');
    expect(failed).toMatchObject({ status: 'pending', kind: 'receipt' });
    expect(failed.toAddress).toBe(customer.customerEmail);
    expect(failed.lastError).toBeTruthy();

    catcher = await startMailCatcher({ smtpPort, inboxPort: 0 });
    const mail = await waitUntil(
      () => catcher?.messages().find((m) => m.subject.includes(store.name)),
      'the receipt in the inbox',
    );
    expect(mail.to).toEqual([customer.customerEmail]);
    expect(mail.from).toContain('receipts@shop.test');
    expect(mail.replyTo).toContain('help@mugs.test');
    expect(mail.text).toContain('Mug × 1: 10.00 USDC');
    expect(mail.text).toContain('Total paid: 10.80 USDC');
    expect(mail.text).toContain(hash);
    expect(mail.html).toContain(hash);
    // The catcher holds the message a moment before the worker has recorded it as sent.
    const sent = await waitUntil(async () => {
      const [row] = await outboxOf(orderId);
      return row?.status === 'sent' && row;
    }, 'the receipt recorded as sent');
    expect(sent).toMatchObject({ status: 'sent', lastError: null });
    expect(sent?.messageId).toBeTruthy();

    // Queuing it again (a retried settlement) adds nothing, and nothing more is sent.
    await enqueuePaidMails(t.database.db, orderId, new Date());
    await Bun.sleep(1500);
    expect(await outboxOf(orderId)).toHaveLength(1);
    expect(catcher.messages().filter((m) => m.subject.includes(store.name))).toHaveLength(1);
  }, 60_000);

  test("an unsigned link's order is never mailed a receipt by the platform", async () => {
    const response = await t.shopper.post('/api/universal-orders', {
      storeName: 'Anyone',
      storePaymentAddress: freshAddress(),
      customerEmail: 'someone@example.com',
      shippingAddress: {
        firstName: 'A',
        lastName: 'B',
        email: 'someone@example.com',
        phone: '1',
        street: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zipCode: '62701',
      },
      items: [{ productId: 'x', title: 'Item', priceUsdc: '1.25', quantity: 1 }],
      subtotalUsdc: '1.25',
      shippingUsdc: '0.00',
      totalUsdc: '1.25',
      paymentChain: 'base',
    });
    expect(response.status).toBe(201);
    const orderId = response.body.order.id as string;
    await enqueuePaidMails(t.database.db, orderId, new Date());
    expect(await outboxOf(orderId)).toHaveLength(0);
  });

  test('an order paid only in part gets no receipt', async () => {
    const { orderId, address } = await paidStoreOrder();
    await payUsdc(t.stack.env, 4, address, usdc('5.00'));
    await waitForWalletState(t.database.db, orderId, 'underpaid');
    await Bun.sleep(1000);
    // Only the shortfall is told (what arrived, what is left): no receipt.
    expect((await outboxOf(orderId)).map((m) => m.kind)).toEqual(['underpaid']);
  }, 60_000);

  test('a store can change its reply-to, and a reply-to that is not an email is refused', async () => {
    const owner = await newMerchant(t.app, 'replyto');
    const store = (await owner.api.post('/api/stores', storeForm())).body;
    expect(store.replyToEmail).toBeNull();
    const bad = await owner.api.put(`/api/stores/${store.id}`, { replyToEmail: 'not an email' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('Reply-to must be an email address');
    const set = await owner.api.put(`/api/stores/${store.id}`, { replyToEmail: 'a@b.test' });
    expect(set.body.replyToEmail).toBe('a@b.test');
    const cleared = await owner.api.put(`/api/stores/${store.id}`, { replyToEmail: '' });
    expect(cleared.body.replyToEmail).toBeNull();
    // The public never sees it.
    const visitor = await t.shopper.get(`/api/stores/${store.slug}`);
    expect(visitor.body.replyToEmail).toBeUndefined();
  }, 30_000);
});

describe('receipts of file products', () => {
  /** A store selling a file product (a small PDF, uploaded as the admin does). */
  async function fileStore() {
    const owner = await newMerchant(t.app, 'file-receipt');
    const store = (
      await owner.api.post('/api/stores', storeForm({ paymentAddress: freshAddress() }))
    ).body;
    const product = (
      await owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Field guide',
        priceUsdc: '10.00',
      })
    ).body;
    const bytes = new TextEncoder().encode(`%PDF-1.4\n% ${crypto.randomUUID()}\n%%EOF\n`);
    const uploaded = await t.app.handle(
      new Request(`${PUBLIC_URL}/api/products/${product.id}/file?name=guide.pdf`, {
        method: 'PUT',
        headers: { cookie: owner.cookie, 'content-type': 'application/pdf' },
        body: bytes,
      }),
    );
    expect(uploaded.status).toBe(200);
    return { store, product, bytes };
  }

  /** An order of the file product, and its deposit address. */
  async function fileOrder(store: { id: string }, product: { id: string; title: string }) {
    const placed = await t.shopper.post('/api/orders', {
      storeId: store.id,
      ...customer,
      customerEmail: `${crypto.randomUUID().slice(0, 8)}@buyer.test`,
      items: [{ productId: product.id, title: product.title, priceUsdc: '10.00', quantity: 1 }],
      subtotalUsdc: '10.00',
      shippingUsdc: '0.00',
      totalUsdc: '10.80',
      status: 'pending',
    });
    expect(placed.status).toBe(201);
    const orderId = placed.body.id as string;
    const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    return {
      orderId,
      email: placed.body.customerEmail as string,
      token: placed.body.reviewToken as string,
      address: wallet.body.paymentWallet.address as Address,
    };
  }

  test('the receipt of a paid order holds a download link that fetches the file, for an hour', async () => {
    catcher ??= await startMailCatcher({ smtpPort, inboxPort: 0 });
    const { store, product, bytes } = await fileStore();
    const { orderId, email, token, address } = await fileOrder(store, product);
    const paidAt = Date.now();
    await payUsdc(t.stack.env, 5, address, usdc('10.80'));
    const mail = await waitUntil(
      () => catcher?.messages().find((m) => m.to.includes(email) && m.subject.includes('receipt')),
      'the receipt in the inbox',
    );
    const link = /^Field guide \(guide\.pdf\): (\S+)$/m.exec(mail.text)?.[1] ?? '';
    expect(link.startsWith(`${PUBLIC_URL}/api/downloads/${orderId}/${product.id}?`)).toBe(true);
    expect(mail.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    // The link as the shopper's mail program opens it: the file's own bytes.
    const file = await t.app.handle(new Request(link));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="guide.pdf"');
    expect(new Uint8Array(await file.arrayBuffer()) as Uint8Array).toEqual(bytes);
    // It says for how long, and where fresh links are once it has expired.
    const expires = Number(new URL(link).searchParams.get('expires')) * 1000;
    expect(expires - paidAt).toBeGreaterThan(59 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    const until = new Date(expires).toISOString();
    expect(mail.text).toContain(
      `these links work for an hour, until ${until.slice(0, 10)} ${until.slice(11, 16)} UTC`,
    );
    expect(mail.text).toContain(
      `After that, open your order for fresh links: ${PUBLIC_URL}/store/${store.slug}/thank-you/${orderId}#token=${token}`,
    );
  }, 60_000);

  test('an order not paid gets no download link: neither its shortfall mail nor a receipt', async () => {
    catcher ??= await startMailCatcher({ smtpPort, inboxPort: 0 });
    const { store, product } = await fileStore();
    const { orderId, email, address } = await fileOrder(store, product);
    // Rendered before any payment, the receipt would hold no link.
    const unpaid = await MAIL_KINDS.receipt?.(
      t.database.db,
      { id: 'x', kind: 'receipt', orderId, userId: null, toAddress: email, payload: null },
      t.config.chain.chainId,
      PUBLIC_URL,
    );
    expect(unpaid?.text).toBeTruthy();
    expect(unpaid?.text).not.toContain('/api/downloads/');
    expect(unpaid?.text).not.toContain('Your downloads');
    expect(unpaid?.html).not.toContain('/api/downloads/');
    // Paid in part: the shortfall mail, without a link.
    await payUsdc(t.stack.env, 6, address, usdc('5.00'));
    await waitForWalletState(t.database.db, orderId, 'underpaid');
    const mail = await waitUntil(
      () => catcher?.messages().find((m) => m.to.includes(email)),
      'the shortfall mail in the inbox',
    );
    expect(mail.subject).toContain('short');
    expect(mail.text).not.toContain('/api/downloads/');
    expect(mail.html).not.toContain('/api/downloads/');
    expect((await outboxOf(orderId)).map((m) => m.kind)).toEqual(['underpaid']);
  }, 60_000);
});
