// Every order that pays a store is in its books, on the real stack (Postgres, anvil with Circle's
// USDC, the indexer, the worker's loops and SMTP to the local mail catcher): an order of a link the
// store signed and an order of a checkout session, paid on the chain, are in the store's orders
// list and search, its order page, its dashboard figures, the owner's paid-order email and the
// accounting export; a refund the merchant sends from the payout wallet is a line of that export;
// the export's totals are the chain's Transfer amounts to the base unit; another merchant sees
// none of it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { formatOrderNumber, parseCheckoutParams, type UniversalCheckoutForm } from '@store/shared';
import { buildUniversalOrderBody } from '@store/shared/universal-order';
import { customer } from '@store/stack/api-process';
import { type MailCatcher, startMailCatcher } from '@store/stack/mail-catcher';
import { freePort } from '@store/stack/ports';
import { localAccount, payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { type Address, createPublicClient, getAddress, http, parseAbiItem, parseUnits } from 'viem';
import { foundry } from 'viem/chains';
import { loadWorkerConfig } from '../src/config.ts';
import { orders, refunds } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import {
  type ApiClient,
  apiClient,
  newMerchant,
  sessionCookieOf,
  storeForm,
} from './support/client.ts';
import { buyer, waitForForwarded } from './support/payments.ts';
import { waitUntil, webhookReceiver } from './support/settlement.ts';

const usdc = (amount: string) => parseUnits(amount, 6);
const smtpPort = await freePort();
let catcher: MailCatcher;
const receiver = webhookReceiver();
const t = useChainApi({
  confirmations: 1,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '1',
        FORWARDING_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '100',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Storefront <mail@shop.test>',
        MAIL_RETRY_BASE_MS: '200',
      }),
      database.db,
    ),
});
beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort, inboxPort: 0 });
});
afterAll(async () => {
  receiver.stop();
  await catcher?.stop();
});

const transfer = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);
const form: UniversalCheckoutForm = {
  customerEmail: customer.customerEmail,
  ...customer.shippingAddress,
  shippingMethod: 'standard',
};

/** A merchant signed up with a verified email (paid-order notices go only to verified ones). */
async function verifiedMerchant(prefix: string) {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@merchant.test`;
  const response = await t.shopper.post('/api/auth/sign-up', {
    username: `${prefix}-${crypto.randomUUID().slice(0, 8)}`,
    password: 'correct horse battery',
    email,
  });
  expect(response.status).toBe(201);
  const mail = await waitUntil(
    () => catcher.messages().find((m) => m.to.includes(email)),
    'the verification mail',
  );
  const link = /http:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  const token = new URL(link).searchParams.get('token');
  expect((await t.shopper.post('/api/auth/verify-email', { token })).status).toBe(200);
  const cookie = sessionCookieOf(response);
  return { email, cookie, api: apiClient(t.app, cookie) };
}

/** The order of a link `owner` signed for its store, with its deposit address. */
async function signedLinkOrder(owner: ApiClient, storeId: string, externalOrderId: string) {
  const link = new URLSearchParams({
    storeName: 'Corner Shop',
    items: JSON.stringify([{ title: 'Mug', priceUsdc: '8.78', quantity: 2 }]),
    externalOrderId,
    shipping: 'true',
    standardShipping: '4.00',
  }).toString();
  const signed = await owner.post(`/api/stores/${storeId}/signed-links`, { link });
  expect(signed.status).toBe(201);
  const query = signed.body.query as string;
  const parsed = parseCheckoutParams(query);
  if (!parsed.ok) throw new Error(parsed.error);
  const created = await t.shopper.post('/api/universal-orders', {
    ...buildUniversalOrderBody(parsed.value, form, Date.now(), Math.random),
    signedLink: query,
    paymentChain: 'base',
  });
  expect(created.status).toBe(201);
  return {
    orderId: created.body.order.id as string,
    buyerToken: created.body.order.reviewToken as string,
    deposit: created.body.paymentWallet.address as Address,
    total: '21.56',
  };
}

/** The order of a checkout session the merchant's server created, with its deposit address. */
async function sessionOrder(owner: ApiClient, storeId: string, externalOrderId: string) {
  const key = (await owner.post('/api/api-keys', { name: 'server' })).body.key as string;
  const session = await apiClient(t.app).post(
    '/api/checkout-sessions',
    {
      storeId,
      items: [{ title: 'Linen shirt', priceUsdc: '20.00', quantity: 1 }],
      taxUsdc: '1.25',
      currency: 'USDC',
      externalOrderId,
    },
    { headers: { authorization: `Bearer ${key}` } },
  );
  expect(session.status).toBe(201);
  const submit = await t.shopper.post(`/api/checkout-sessions/${session.body.id}/complete`, {
    customerEmail: customer.customerEmail,
    ...customer.shippingAddress,
  });
  expect(submit.status).toBe(201);
  const orderId = submit.body.orderId as string;
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  expect(wallet.status).toBe(200);
  return { orderId, deposit: wallet.body.paymentWallet.address as Address, total: '21.25' };
}

/** The CSV export as rows of named fields (no field of these rows holds a comma or a quote). */
async function csvRows(cookie: string, storeId: string) {
  const today = new Date().toISOString().slice(0, 10);
  const response = await t.app.handle(
    new Request(
      `http://localhost/api/stores/${storeId}/money-movements/csv?from=${today}&to=${today}`,
      { headers: { cookie } },
    ),
  );
  expect(response.status).toBe(200);
  const [head = '', ...lines] = (await response.text()).split('\r\n').filter(Boolean);
  const names = head.split(',');
  return lines.map((line) => {
    const values = line.split(',');
    return Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
  });
}

const sumOf = (rows: Record<string, string>[], type: string) =>
  rows
    .filter((row) => row.Type === type)
    .reduce((sum, row) => sum + BigInt(row['Amount (base units)'] ?? '0'), 0n);

describe("a store's books", () => {
  test('hold its signed-link and checkout-session orders and its payout-wallet refund, to the base unit of the chain', async () => {
    const owner = await verifiedMerchant('books');
    // The payout wallet is an anvil account the test can send a refund from.
    const payout = getAddress(localAccount(8).address);
    const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout })))
      .body as { id: string; name: string };
    await owner.api.put(`/api/stores/${store.id}/webhook`, { url: receiver.url });
    const linkRef = `link-${crypto.randomUUID().slice(0, 8)}`;
    const sessionRef = `session-${crypto.randomUUID().slice(0, 8)}`;
    const link = await signedLinkOrder(owner.api, store.id, linkRef);
    const session = await sessionOrder(owner.api, store.id, sessionRef);
    await payUsdc(t.stack.env, 1, link.deposit, usdc(link.total));
    await payUsdc(t.stack.env, 2, session.deposit, usdc(session.total));
    await waitForForwarded(t.database.db, link.orderId);
    await waitForForwarded(t.database.db, session.orderId);

    // Orders: the list, its search by external order id, and the order page.
    const list = await owner.api.get('/api/orders');
    expect(list.status).toBe(200);
    const listed = new Map(list.body.map((o: { id: string }) => [o.id, o]));
    expect(listed.get(link.orderId)).toMatchObject({
      storeId: store.id,
      source: 'signed_link',
      status: 'paid',
      totalUsdc: link.total,
    });
    expect(listed.get(session.orderId)).toMatchObject({
      storeId: store.id,
      source: 'checkout_session',
      status: 'paid',
      totalUsdc: session.total,
    });
    const found = await owner.api.get(`/api/orders?q=${linkRef}&storeId=${store.id}`);
    expect(found.body.map((o: { id: string }) => o.id)).toEqual([link.orderId]);
    const page = await owner.api.get(`/api/orders/${link.orderId}/detail`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ source: 'signed_link', payeeAddress: payout });

    // The dashboard: both orders and their revenue.
    const figures = (await owner.api.get(`/api/stores/${store.id}/analytics`)).body;
    expect(figures).toMatchObject({ totalOrders30Days: 2, totalRevenue30Days: '42.81' });
    const daily = (await owner.api.get(`/api/stores/${store.id}/analytics/daily?days=1`)).body;
    expect(daily.totals).toMatchObject({ orders: 2, grossUsdc: '42.810000' });

    // The store's webhook: the signed link names no URL of its own, so its events go to the
    // store's, signed with the store's secret, like the session's.
    const { secret } = (await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body;
    for (const orderId of [link.orderId, session.orderId]) {
      const hook = await waitUntil(
        () => receiver.ofType('order.paid').find((r) => JSON.parse(r.body).orderId === orderId),
        `order.paid of ${orderId}`,
      );
      expect(JSON.parse(hook.body)).toMatchObject({ storeId: store.id, signed: true });
      expect(() => new Webhook(secret).verify(hook.body, hook.headers)).not.toThrow();
    }

    // The owner's paid-order email, one per order.
    for (const orderId of [link.orderId, session.orderId]) {
      const number = formatOrderNumber(orderId);
      await waitUntil(
        () =>
          catcher.messages().find((m) => m.to.includes(owner.email) && m.subject.includes(number)),
        `the paid-order email of ${number}`,
      );
    }

    // A refund from the payout wallet: the payer confirms the address, the merchant sends it.
    const started = await owner.api.post(`/api/orders/${link.orderId}/refunds`, { amount: '5.00' });
    expect(started.status).toBe(200);
    const claims = await t.shopper.get(
      `/api/orders/${link.orderId}/refund-claims`,
      buyer(link.buyerToken),
    );
    const claimPath = String(claims.body[0]?.claimPath);
    const payer = getAddress(localAccount(1).address);
    const token = claimPath.replace('/refund/', '');
    expect((await t.shopper.post(`/api/refund-claims/${token}`, { address: payer })).status).toBe(
      200,
    );
    const sent = await payUsdc(t.stack.env, 8, payer, usdc('5.00'));
    await waitUntil(async () => {
      const [row] = await t.database.db
        .select()
        .from(refunds)
        .where(eq(refunds.orderId, link.orderId));
      return row?.status === 'refunded';
    }, 'the payout-wallet refund to be matched');

    // The accounting CSV against the chain's Transfer logs.
    const client = createPublicClient({ chain: foundry, transport: http(t.stack.env.RPC_URL) });
    const token20 = t.stack.env.USDC_ADDRESS as Address;
    const logs = (args: { from?: Address; to?: Address }) =>
      client.getLogs({ address: token20, event: transfer, args, fromBlock: 0n });
    const total = (entries: { args: { value?: bigint } }[]) =>
      entries.reduce((sum, log) => sum + (log.args.value ?? 0n), 0n);
    // Note: the anvil account was given test USDC at deploy; what the orders paid it came from
    // their deposit addresses.
    const deposits = new Set([link.deposit.toLowerCase(), session.deposit.toLowerCase()]);
    const toPayout = total(
      (await logs({ to: payout })).filter((log) =>
        deposits.has(String(log.args.from).toLowerCase()),
      ),
    );
    const fromPayout = total(await logs({ from: payout }));
    const intoDeposits =
      total(await logs({ to: link.deposit })) + total(await logs({ to: session.deposit }));
    const rows = await waitUntil(async () => {
      const all = await csvRows(owner.cookie, store.id);
      const legs = all.filter((r) => r.Type === 'merchant').length;
      return legs === 2 && all.some((r) => r.Type === 'merchant_refund') && all;
    }, 'the export to hold both payments, both merchant legs and the refund');
    const orderIds = new Set(rows.map((r) => r['Order ID']));
    expect(orderIds).toEqual(new Set([link.orderId, session.orderId]));
    expect(sumOf(rows, 'payment')).toBe(intoDeposits);
    expect(sumOf(rows, 'payment')).toBe(usdc('42.81'));
    expect(sumOf(rows, 'merchant')).toBe(toPayout);
    const refundLine = rows.find((r) => r.Type === 'merchant_refund');
    expect(refundLine).toMatchObject({
      Direction: 'out',
      'Order ID': link.orderId,
      Transaction: sent.hash.toLowerCase(),
      From: payout.toLowerCase(),
      To: payer.toLowerCase(),
      'Amount (USDC)': '5.000000',
    });
    expect(sumOf(rows, 'merchant_refund')).toBe(fromPayout);
    const json = await owner.api.get(`/api/stores/${store.id}/money-movements`);
    expect(json.body).toHaveLength(rows.length);

    // Another merchant sees none of it.
    const stranger = await newMerchant(t.app, 'stranger');
    const theirs = (await stranger.api.get('/api/orders')).body as { id: string }[];
    expect(theirs.map((o) => o.id)).not.toContain(link.orderId);
    expect(theirs.map((o) => o.id)).not.toContain(session.orderId);
    for (const orderId of [link.orderId, session.orderId]) {
      expect((await stranger.api.get(`/api/orders/${orderId}/detail`)).status).toBe(404);
      expect((await stranger.api.get(`/api/orders/${orderId}/activity`)).status).toBe(404);
      expect((await apiClient(t.app).get(`/api/orders/${orderId}/detail`)).status).toBe(401);
    }
    expect((await stranger.api.get(`/api/orders?q=${linkRef}`)).body).toEqual([]);
    expect((await stranger.api.get(`/api/stores/${store.id}/analytics`)).status).toBe(404);
    expect((await stranger.api.get(`/api/stores/${store.id}/money-movements/csv`)).status).toBe(
      404,
    );
    expect(
      (await stranger.api.post(`/api/orders/${link.orderId}/refunds`, { amount: '1' })).status,
    ).toBe(404);
    expect((await apiClient(t.app).get(`/api/orders/${link.orderId}/refunds`)).status).toBe(401);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, link.orderId));
    expect(row).toMatchObject({ storeId: store.id, source: 'signed_link', payeeAddress: payout });
  }, 120_000);
});
