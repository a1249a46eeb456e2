// Checkout sessions on the real stack (Postgres, anvil with USDC, the indexer, the worker's loops):
// an integrator's key creates a session, the shopper checks it out from the public read and pays
// on the chain, the store's webhook arrives HMAC-signed with the external order id; ownership,
// keys, idempotency, the session's stored prices and its expiry are checked on the way.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { API_KEY_MESSAGES, CHECKOUT_SESSION_MESSAGES as M, splitFee } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { checkoutSessions } from '../src/db/schema.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { waitForForwarded, walletOf } from './support/payments.ts';
import { balancesOf, waitUntil, webhookReceiver } from './support/settlement.ts';

const receiver = webhookReceiver();
const workerLog: string[] = [];
const t = useChainApi({
  confirmations: 2,
  poolSize: 6,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({
        ...stack.env,
        CONFIRMATIONS: '2',
        FORWARDING_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '100',
      }),
      database.db,
      { log: (line) => workerLog.push(line) },
    ),
});
afterAll(() => {
  receiver.stop();
});

/** A client that sends `Authorization: Bearer <key>` and no cookie. */
const withKey = (key: string) => {
  const client = apiClient(t.app);
  const auth = { authorization: `Bearer ${key}` };
  return {
    get: (path: string) => client.get(path, { headers: auth }),
    post: (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      client.post(path, body, { headers: { ...auth, ...headers } }),
  };
};

type Merchant = Awaited<ReturnType<typeof newMerchant>>;
let a: Merchant;
let b: Merchant;
let keyA: string;
let keyB: string;
let storeA: { id: string; name: string };
let storeB: { id: string };
let payout: Address;
let secret: string;

/** A valid session body for store A; `patch` overrides fields. */
const sessionBody = (patch: Record<string, unknown> = {}) => ({
  storeId: storeA.id,
  items: [
    { title: 'Linen shirt', priceUsdc: '20.00', quantity: 2, productId: 'sku-shirt' },
    { title: 'Socks', priceUsdc: '3.50', quantity: 1, imageUrl: 'https://cdn.example/socks.png' },
  ],
  taxUsdc: '1.25',
  shippingOptions: [
    { id: 'std', label: 'Standard (5-7 days)', priceUsdc: '4.00' },
    { id: 'pickup', label: 'Pick up in store', priceUsdc: '0' },
  ],
  currency: 'USDC',
  externalOrderId: `shop-order-${Math.random().toString(36).slice(2, 8)}`,
  returnUrl: 'https://shop.example/thanks',
  cancelUrl: 'https://shop.example/cart',
  customer: { email: 'ada@example.com', firstName: 'Ada' },
  metadata: { cartId: 'cart-77' },
  ...patch,
});

const checkoutForm = (patch: Record<string, unknown> = {}) => ({
  customerEmail: customer.customerEmail,
  ...customer.shippingAddress,
  shippingOptionId: 'std',
  ...patch,
});

beforeAll(async () => {
  a = await newMerchant(t.app, 'integrator-a');
  b = await newMerchant(t.app, 'integrator-b');
  keyA = (await a.api.post('/api/api-keys', { name: 'server' })).body.key;
  keyB = (await b.api.post('/api/api-keys', { name: 'server' })).body.key;
  payout = privateKeyToAccount(generatePrivateKey()).address;
  storeA = (await a.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  storeB = (await b.api.post('/api/stores', storeForm())).body;
  await a.api.put(`/api/stores/${storeA.id}/webhook`, { url: receiver.url });
  secret = (await a.api.get(`/api/stores/${storeA.id}/webhook/secret`)).body.secret;
});

describe('POST /api/checkout-sessions', () => {
  test('a key creates a session: cs_ id, the hosted URL, 24 h expiry by default', async () => {
    const response = await withKey(keyA).post('/api/checkout-sessions', sessionBody());
    expect(response.status).toBe(201);
    const { id, url, expiresAt } = response.body;
    expect(id).toMatch(/^cs_[0-9A-Za-z]{40}$/);
    expect(url).toBe(`http://localhost/pay/${id}`);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThan(24 * 3600_000 + 60_000);
  });

  test('the session cookie works too', async () => {
    const response = await a.api.post('/api/checkout-sessions', sessionBody());
    expect(response.status).toBe(201);
  });

  test.each([
    [{ items: [] }, M.itemsRequired],
    [{ items: [{ title: 'x', priceUsdc: '0', quantity: 1 }] }, M.price],
    [{ items: [{ title: 'x', priceUsdc: '-3', quantity: 1 }] }, M.price],
    [{ items: [{ title: 'x', priceUsdc: '1.005', quantity: 1 }] }, M.price],
    [{ items: [{ title: 'x', priceUsdc: '1', quantity: 0 }] }, M.quantity],
    [{ items: [{ title: ' ', priceUsdc: '1', quantity: 1 }] }, M.itemTitle],
    [
      { items: [{ title: 'x', priceUsdc: '1', quantity: 1, imageUrl: 'http://a.example/i.png' }] },
      M.imageUrl,
    ],
    [
      { items: Array.from({ length: 101 }, () => ({ title: 'x', priceUsdc: '1', quantity: 1 })) },
      'An order can hold at most 100 different items',
    ],
    [{ currency: 'EUR' }, M.currency],
    [{ returnUrl: 'javascript:alert(1)' }, M.url('returnUrl')],
    [{ cancelUrl: 'not a url' }, M.url('cancelUrl')],
    [{ expiresInSeconds: 60 }, M.expires],
    [{ expiresInSeconds: 8 * 24 * 3600 }, M.expires],
    [{ externalOrderId: 'x'.repeat(201) }, 'externalOrderId must be at most 200 characters'],
    [
      {
        shippingOptions: [
          { id: 'a', label: 'A', priceUsdc: '1' },
          { id: 'a', label: 'B', priceUsdc: '2' },
        ],
      },
      M.shippingDuplicate,
    ],
    [{ theme: { primaryColor: 'blue' } }, M.color('primaryColor')],
    [{ storeId: '' }, M.storeRequired],
  ])('%j -> 422 %s', async (patch, message) => {
    const response = await withKey(keyA).post('/api/checkout-sessions', sessionBody(patch));
    expect(response.status).toBe(422);
    expect(response.body.error).toEqual({ code: 'validation_failed', message });
  });

  test('a total is held below the cap with the dearest way to ship, wherever it is listed', async () => {
    const items = [{ title: 'Piano', priceUsdc: '99999990.00', quantity: 1 }];
    const options = (...prices: string[]) =>
      prices.map((priceUsdc, i) => ({ id: `s${i}`, label: `Way ${i}`, priceUsdc }));
    const made = (shippingOptions: unknown[]) =>
      withKey(keyA).post(
        '/api/checkout-sessions',
        sessionBody({ items, taxUsdc: '0', shippingOptions }),
      );
    for (const shippingOptions of [options('10.00', '0'), options('0', '10.00', '1.00')]) {
      const response = await made(shippingOptions);
      expect(response.status).toBe(422);
      expect(response.body.error.message).toBe(M.totalTooLarge);
    }
    expect((await made(options('9.99', '0'))).status).toBe(201);
  });

  test('refused: another merchant store (404), a store without payout address (422)', async () => {
    const foreign = await withKey(keyB).post('/api/checkout-sessions', sessionBody());
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe(M.storeNotFound);
    const bare = (await b.api.post('/api/stores', storeForm({ paymentAddress: '' }))).body;
    const noPayout = await withKey(keyB).post(
      '/api/checkout-sessions',
      sessionBody({ storeId: bare.id }),
    );
    expect(noPayout.status).toBe(422);
    expect(noPayout.body.error.message).toBe(M.noPayoutAddress);
  });

  test('refused: anonymous (401), an unknown key (401), a revoked key (401 saying so)', async () => {
    expect((await t.shopper.post('/api/checkout-sessions', sessionBody())).status).toBe(401);
    const unknown = await withKey(`sk_test_${'x'.repeat(40)}`).post(
      '/api/checkout-sessions',
      sessionBody(),
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(API_KEY_MESSAGES.invalid);
    const doomed = (await a.api.post('/api/api-keys', { name: 'doomed' })).body;
    expect((await withKey(doomed.key).post('/api/checkout-sessions', sessionBody())).status).toBe(
      201,
    );
    await a.api.delete(`/api/api-keys/${doomed.id}`);
    const revoked = await withKey(doomed.key).post('/api/checkout-sessions', sessionBody());
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toBe(API_KEY_MESSAGES.revoked);
  });

  test('Idempotency-Key replays the same session', async () => {
    const body = sessionBody();
    const headers = { 'idempotency-key': `order-${body.externalOrderId}` };
    const first = await withKey(keyA).post('/api/checkout-sessions', body, headers);
    const again = await withKey(keyA).post('/api/checkout-sessions', body, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const rows = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.externalOrderId, body.externalOrderId));
    expect(rows).toHaveLength(1);
  });
});

describe('reading a session', () => {
  test("the owner reads it; merchant B's key, B's session and anonymous do not", async () => {
    const { id } = (await withKey(keyA).post('/api/checkout-sessions', sessionBody())).body;
    const mine = await withKey(keyA).get(`/api/checkout-sessions/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      id,
      status: 'open',
      storeId: storeA.id,
      subtotalUsdc: '43.50',
      taxUsdc: '1.25',
      currency: 'USDC',
      metadata: { cartId: 'cart-77' },
      order: null,
    });
    const byB = await withKey(keyB).get(`/api/checkout-sessions/${id}`);
    expect(byB.status).toBe(404);
    expect(byB.body.error.message).toBe(M.notFound);
    expect((await b.api.get(`/api/checkout-sessions/${id}`)).status).toBe(404);
    expect((await t.shopper.get(`/api/checkout-sessions/${id}`)).status).toBe(401);
    // B's key reads nothing else of A's either.
    const storesOfB = (await withKey(keyB).get('/api/stores?mine=true')).body;
    expect(storesOfB.map((s: { id: string }) => s.id)).toContain(storeB.id);
    expect(storesOfB.map((s: { id: string }) => s.id)).not.toContain(storeA.id);
    expect((await withKey(keyB).get(`/api/orders?storeId=${storeA.id}`)).status).toBe(404);
    // Webhook settings (with their secret) are never read with a key, A's or anyone's.
    expect((await withKey(keyB).get(`/api/stores/${storeA.id}/webhook`)).status).toBe(403);
    expect((await b.api.get(`/api/stores/${storeA.id}/webhook`)).status).toBe(404);
  });

  test('the public read shows the checkout, nothing of the owner', async () => {
    const { id } = (await withKey(keyA).post('/api/checkout-sessions', sessionBody())).body;
    const response = await t.shopper.get(`/api/checkout-sessions/${id}/public`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id,
      status: 'open',
      store: { name: storeA.name },
      subtotalUsdc: '43.50',
      taxUsdc: '1.25',
      customer: { email: 'ada@example.com', firstName: 'Ada' },
      cancelUrl: 'https://shop.example/cart',
      orderId: null,
    });
    expect(response.body.items).toHaveLength(2);
    // Amounts come back in their 2-decimal form.
    expect(response.body.shippingOptions[1]).toEqual({
      id: 'pickup',
      label: 'Pick up in store',
      priceUsdc: '0.00',
    });
    for (const field of ['userId', 'storeId', 'metadata', 'externalOrderId'])
      expect(response.body).not.toHaveProperty(field);
    expect((await t.shopper.get('/api/checkout-sessions/cs_nope/public')).status).toBe(404);
  });
});

describe('checking out a session', () => {
  test('shipping must be one the session offers', async () => {
    const { id } = (await withKey(keyA).post('/api/checkout-sessions', sessionBody())).body;
    const none = await t.shopper.post(
      `/api/checkout-sessions/${id}/complete`,
      checkoutForm({ shippingOptionId: undefined }),
    );
    expect(none.status).toBe(422);
    expect(none.body.error.message).toBe(M.shippingRequired);
    const other = await t.shopper.post(
      `/api/checkout-sessions/${id}/complete`,
      checkoutForm({ shippingOptionId: 'express' }),
    );
    expect(other.body.error.message).toBe(M.shippingUnknown);
    const badEmail = await t.shopper.post(
      `/api/checkout-sessions/${id}/complete`,
      checkoutForm({ customerEmail: 'nope' }),
    );
    expect(badEmail.body.error.message).toBe('Invalid email address');
  });

  test('two submissions at once make one order', async () => {
    const { id } = (await withKey(keyA).post('/api/checkout-sessions', sessionBody())).body;
    const submits = await Promise.all(
      [1, 2, 3].map(() => t.shopper.post(`/api/checkout-sessions/${id}/complete`, checkoutForm())),
    );
    expect(submits.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(submits.map((r) => r.body.orderId)).size).toBe(1);
  });

  test('an expired session cannot be checked out, and reads as expired', async () => {
    const { id } = (
      await withKey(keyA).post('/api/checkout-sessions', sessionBody({ expiresInSeconds: 300 }))
    ).body;
    await t.database.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.id, id));
    const submit = await t.shopper.post(`/api/checkout-sessions/${id}/complete`, checkoutForm());
    expect(submit.status).toBe(409);
    expect(submit.body.error.message).toBe(M.expired);
    expect((await t.shopper.get(`/api/checkout-sessions/${id}/public`)).body.status).toBe(
      'expired',
    );
    expect((await withKey(keyA).get(`/api/checkout-sessions/${id}`)).body).toMatchObject({
      status: 'expired',
      order: null,
    });
  });

  test('the order carries the session prices (not the browser), is paid on the chain to the store payout address, and the store webhook arrives signed', async () => {
    const body = sessionBody();
    const { id } = (await withKey(keyA).post('/api/checkout-sessions', body)).body;
    // The browser cannot reprice: extra fields are not read, the stored items are.
    const submit = await t.shopper.post(
      `/api/checkout-sessions/${id}/complete`,
      checkoutForm({
        items: [{ title: 'Linen shirt', priceUsdc: '0.01', quantity: 1 }],
        totalUsdc: '0.01',
      }),
    );
    expect(submit.status).toBe(201);
    const { orderId } = submit.body;
    const again = await t.shopper.post(`/api/checkout-sessions/${id}/complete`, checkoutForm());
    expect(again.body.orderId).toBe(orderId);
    // The order's buyer token goes to the submission that created it, not to a later one (the
    // integrator knows the session's id too).
    expect(submit.body.reviewToken).toMatch(/^[0-9a-f]{64}$/);
    expect(again.body.reviewToken).toBeUndefined();

    const order = (await t.shopper.get(`/api/orders/${orderId}`)).body;
    expect(order).toMatchObject({
      storeId: storeA.id,
      subtotalUsdc: '43.50',
      shippingUsdc: '4.00',
      // the session's tax, stored on the order
      taxUsdc: '1.25',
      totalUsdc: '48.75',
      status: 'pending',
      metadata: { externalOrderId: body.externalOrderId, checkoutSessionId: id },
    });
    expect(order.items.map((i: { productId: string }) => i.productId)).toEqual([
      'sku-shirt',
      `${id}-2`,
    ]);
    // Submitted but unpaid: an integrator reading the session must not ship yet.
    expect((await t.shopper.get(`/api/checkout-sessions/${id}/public`)).body).toMatchObject({
      status: 'awaiting_payment',
      orderId,
    });
    const unpaid = await withKey(keyA).get(`/api/checkout-sessions/${id}`);
    expect(unpaid.body).toMatchObject({ status: 'awaiting_payment', completedAt: null });
    expect(unpaid.body.submittedAt).toMatch(/^\d{4}-/);

    const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    const address = wallet.body.paymentWallet.address as Address;
    await payUsdc(t.stack.env, 4, address, parseUnits('48.75', 6));
    await waitForForwarded(t.database.db, orderId, 30_000).catch(async (error) => {
      console.log(workerLog.join('\n'), await walletOf(t.database.db, orderId));
      throw error;
    });
    expect((await balancesOf(t.stack.env, payout)).usdc).toBe(
      splitFee(parseUnits('48.75', 6)).merchant,
    );

    const paid = await waitUntil(
      () =>
        receiver.received.find(
          (r) => JSON.parse(r.body).orderId === orderId && JSON.parse(r.body).type === 'order.paid',
        ),
      'order.paid',
    );
    const payload = new Webhook(secret).verify(paid.body, paid.headers) as Record<string, unknown>;
    expect(paid.headers['webhook-signature']).toMatch(/^v1,/);
    expect(payload).toMatchObject({
      type: 'order.paid',
      orderId,
      externalOrderId: body.externalOrderId,
      checkoutSessionId: id,
      storeId: storeA.id,
      status: 'paid',
      totalUsdc: '48.75',
    });

    const read = await withKey(keyA).get(`/api/checkout-sessions/${id}`);
    expect(read.body).toMatchObject({
      status: 'completed',
      order: { id: orderId, status: 'paid', totalUsdc: '48.75' },
    });
    expect(read.body.completedAt).toMatch(/^\d{4}-/);
    expect(read.body.order.paymentStatus).toMatch(/received|paid/);
    expect(read.body.order.paymentTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Merchant B's key cannot see A's order in its list.
    const listB = await withKey(keyB).get('/api/orders');
    expect(listB.body.map((o: { id: string }) => o.id)).not.toContain(orderId);
  }, 60_000);
});
