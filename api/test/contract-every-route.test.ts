// The contract on a real Postgres: every route declares its answer (Elysia's `response`, the
// shared valibot schema the OpenAPI document names), and each route's documented success, called
// here, reads back through that schema with no field missing or undocumented. A route this file
// does not call names the test file that reaches its success (where the same declared response is
// checked on every answer); a route in neither list fails the test.
import { beforeAll, describe, expect, test } from 'bun:test';
import { parseCheckoutParams, shippingFor, storeCheckoutTotals } from '@store/shared';
import { buildUniversalOrderBody } from '@store/shared/universal-order';
import { customer } from '@store/stack/api-process';
import * as v from 'valibot';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { isDeclaredResponse, undocumentedFields } from '../src/http/response-contract.ts';
import { totpCodeAt } from '../src/modules/account/second-factor.ts';
import { newWebhookKeyPair } from '../src/webhooks/signing.ts';
import type { ApiResponse } from './support/client.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });

/** Routes that answer another media type than JSON (a file, an image, a stream): no schema. */
const NOT_JSON = new Set([
  'GET /store/:slug/manifest.webmanifest',
  'GET /store/:slug/icon-192.png',
  'GET /store/:slug/icon-512.png',
  'GET /store/:slug/icon-maskable-512.png',
  'GET /api/uploads/:id/:file',
  'GET /api/orders/:id/payment-events',
  'GET /api/x402/products/:id',
  'GET /api/stores/:id/money-movements/csv',
  'GET /api/stores/:id/payouts/csv',
  'GET /api/stores/:id/audit/csv',
  'GET /api/orders/:id/invoice.pdf',
  'GET /api/downloads/:orderId/:productId',
]);

/**
 * Routes whose success needs a paid order on a chain, a mailed token, a signed message or a
 * receiving server: the test file that reaches it (the declared response is checked there).
 */
const REACHED_ELSEWHERE: Record<string, string> = {
  'PUT /api/products/:id/file': 'x402-files.test.ts (a file product)',
  'GET /api/orders/:id/downloads': 'x402-files.test.ts (a paid order of a file)',
  'GET /api/stores/:id/x402-payers': 'x402-files.test.ts (payments over x402)',
  'POST /api/auth/reset-password/check': 'account.test.ts (the mailed reset link)',
  'POST /api/auth/reset-password': 'account.test.ts (the mailed reset link)',
  'POST /api/auth/verify-email': 'account.test.ts (the mailed verification link)',
  'POST /api/orders/:id/shipment': 'fulfilment.test.ts (a paid order)',
  'POST /api/stores/:id/customers/erase': 'store-customers.test.ts (orders of a customer)',
  'PATCH /api/orders/:id': 'merchant-orders.test.ts (a paid order)',
  'GET /api/stores/:id/analytics/daily': 'store-books.test.ts (the indexed transfers)',
  'GET /api/analytics/daily': 'analytics-views.test.ts (the indexed transfers)',
  'GET /api/stores/:id/money-movements': 'store-books.test.ts (the indexed transfers)',
  'GET /api/stores/:id/payouts': 'store-payouts.test.ts (the indexed transfers)',
  'GET /api/check-payment-status/:orderId': 'payments-detection.test.ts (the chain and indexer)',
  'POST /api/stores/:id/webhook/test': 'webhook-test-send.test.ts (a receiving server)',
  'POST /api/webhook-deliveries/:id/redeliver': 'webhooks-delivery.test.ts (a delivery)',
  'POST /api/reviews': 'reviews.test.ts (a paid order and its review token)',
  'PATCH /api/reviews/:id': 'reviews.test.ts (a review)',
  'GET /api/orders/:id/forwarding': 'settlement-forwarding.test.ts (a forwarded payment)',
  'POST /api/orders/:id/forwarding/retry': 'settlement-forwarding.test.ts (a stopped forwarding)',
  'POST /api/orders/:id/refunds': 'refunds.test.ts (a paid order on the chain)',
  'POST /api/orders/:id/accept-underpaid': 'refunds.test.ts (an underpaid order)',
  'POST /api/orders/:id/refunds/:refundId/sent': 'refunds.test.ts (a refund to send)',
  'GET /api/refund-claims/:token': 'refunds.test.ts (a claim link)',
  'POST /api/refund-claims/:token': 'refunds.test.ts (a claim link)',
  'POST /api/uploads/:kind': 'uploads.test.ts (an image body)',
  'POST /api/x402/pay-to': 'x402-facilitator.test.ts (the chain)',
  'POST /api/x402/facilitator/verify': 'x402-facilitator.test.ts (a signed authorization)',
  'POST /api/x402/facilitator/settle': 'x402-facilitator.test.ts (a signed authorization)',
  'GET /api/stores/:id/team': 'team.test.ts (members and invitations)',
  'POST /api/stores/:id/invitations': 'team.test.ts (the mailed invitation)',
  'DELETE /api/stores/:id/invitations/:invitationId': 'team.test.ts (a pending invitation)',
  'PATCH /api/stores/:id/members/:userId': 'team.test.ts (a member)',
  'DELETE /api/stores/:id/members/:userId': 'team.test.ts (a member)',
  'POST /api/invitations/accept': 'team.test.ts (the mailed token)',
};

interface Route {
  method: string;
  path: string;
  hooks: { response?: Record<string, unknown> };
}

const keyOf = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const apiRoutes = (): Route[] =>
  (t.app.routes as unknown as Route[]).filter(
    (route) => !route.path.startsWith('/api/openapi') && route.path !== '/*',
  );

/** The declared response of `key` at `status` (its shared valibot schema). */
function declaredSchema(key: string, status: number): v.GenericSchema {
  const route = apiRoutes().find((r) => keyOf(r) === key);
  const declared = route?.hooks.response?.[status];
  if (!isDeclaredResponse(declared)) throw new Error(`${key} declares no ${status} answer`);
  return declared.schema;
}

/** The order body the universal checkout page sends for a signed link's `query`. */
function universalOrderBody(query: string) {
  const parsed = parseCheckoutParams(query);
  if (!parsed.ok) throw new Error(parsed.error);
  const form = {
    customerEmail: customer.customerEmail,
    ...customer.shippingAddress,
    shippingMethod: 'standard' as const,
  };
  return {
    ...buildUniversalOrderBody(parsed.value, form, Date.now(), Math.random),
    signedLink: query,
  };
}

/** Routes called here, with the status they answered. */
const called = new Map<string, number>();

/** Checks a real answer of `key` against its declared schema at the documented `status`. */
function expectAnswer(key: string, status: number, response: ApiResponse) {
  expect(response.status, `${key}: ${JSON.stringify(response.body)}`).toBe(status);
  const schema = declaredSchema(key, status);
  const result = v.safeParse(schema, response.body);
  expect(result.issues, key).toBeUndefined();
  if (result.success) expect(undocumentedFields(response.body, result.output), key).toEqual([]);
  called.set(key, status);
  return response.body;
}

describe('every route', () => {
  test('declares its answer: a schema for each documented JSON success, or another media type', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(80);
    const missing = routes
      .filter((route) => !NOT_JSON.has(keyOf(route)))
      .filter((route) => {
        const declared = Object.entries(route.hooks.response ?? {});
        return !declared.some(
          ([status, answer]) => /^2/.test(status) && isDeclaredResponse(answer),
        );
      })
      .map(keyOf);
    expect(missing).toEqual([]);
    for (const key of NOT_JSON) expect(routes.map(keyOf), key).toContain(key);
  });
});

describe('who may call a route, as its document says', () => {
  test('a session-only route refuses an API key (403) and a key-only route a session (401)', async () => {
    const doc = (await (
      await t.app.handle(new Request('http://localhost/api/openapi/json'))
    ).json()) as {
      paths: Record<string, Record<string, { security: object[]; requestBody?: unknown }>>;
    };
    const key = (await t.owner.api.post('/api/api-keys', { name: 'access' })).body.key as string;
    const placeholder = crypto.randomUUID();
    const only = (op: { security: object[] }, scheme: string) =>
      op.security.length === 1 && Object.keys(op.security[0] ?? {}).join() === scheme;
    let sessionOnly = 0;
    let keyOnly = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        // Note: a body is read before who is asking (its 422 comes first): bodiless routes here.
        if (op.requestBody) continue;
        const url = `http://localhost${path.replace(/\{[^}]+\}/g, placeholder)}`;
        const name = `${method} ${path}`;
        if (only(op, 'sessionCookie')) {
          sessionOnly += 1;
          const response = await t.app.handle(
            new Request(url, {
              method: method.toUpperCase(),
              headers: { authorization: `Bearer ${key}` },
            }),
          );
          expect(response.status, name).toBe(403);
          expect(((await response.json()) as { error: { code: string } }).error.code, name).toBe(
            'forbidden',
          );
        }
        if (only(op, 'apiKey')) {
          keyOnly += 1;
          const response = await t.app.handle(
            new Request(url, { method: method.toUpperCase(), headers: { cookie: t.owner.cookie } }),
          );
          expect(response.status, name).toBe(401);
        }
      }
    expect(sessionOnly).toBeGreaterThan(5);
    expect(keyOnly).toBeGreaterThan(0);
  });
});

describe('each documented success read through its declared schema', () => {
  let store: { id: string; slug: string; updatedAt: string };
  let product: { id: string };
  let order: { id: string; reviewToken: string };
  const call = (key: string, status: number, response: Promise<ApiResponse>) =>
    response.then((answer) => expectAnswer(key, status, answer));

  beforeAll(async () => {
    store = await call('POST /api/stores', 201, t.owner.api.post('/api/stores', storeForm()));
  });

  test('health, auth and account', async () => {
    // Note: no chain in this test: health answers 503 with its declared body.
    await call('GET /api/health', 503, t.shopper.get('/api/health'));
    const username = `contract-${crypto.randomUUID().slice(0, 8)}`;
    const password = 'correct horse battery';
    await call(
      'POST /api/auth/sign-up',
      201,
      t.shopper.post('/api/auth/sign-up', { username, password }),
    );
    const signIn = await t.shopper.post('/api/auth/sign-in', { username, password });
    expectAnswer('POST /api/auth/sign-in', 200, signIn);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const me = apiClient(t.app, cookie);
    await call('GET /api/auth/me', 200, me.get('/api/auth/me'));
    await call(
      'POST /api/auth/forgot-password',
      200,
      t.shopper.post('/api/auth/forgot-password', { email: 'nobody@example.com' }),
    );
    await call('GET /api/auth/account', 200, me.get('/api/auth/account'));
    await call(
      'POST /api/auth/account/email',
      200,
      me.post('/api/auth/account/email', {
        email: `${username}@example.com`,
        currentPassword: password,
      }),
    );
    await call(
      'POST /api/auth/account/email/resend',
      200,
      me.post('/api/auth/account/email/resend'),
    );
    const sessions = await call(
      'GET /api/auth/account/sessions',
      200,
      me.get('/api/auth/account/sessions'),
    );
    const second = await t.shopper.post('/api/auth/sign-in', { username, password });
    const others = (await me.get('/api/auth/account/sessions')).body as {
      id: string;
      current: boolean;
    }[];
    const other = others.find((s) => !sessions.some((known: { id: string }) => known.id === s.id));
    expect(second.status).toBe(200);
    await call(
      'DELETE /api/auth/account/sessions/:id',
      200,
      me.delete(`/api/auth/account/sessions/${other?.id}`),
    );
    await call(
      'POST /api/auth/account/sessions/end-others',
      200,
      me.post('/api/auth/account/sessions/end-others'),
    );
    const ownStore = (await me.post('/api/stores', storeForm())).body as { id: string };
    await call(
      'PUT /api/auth/account/stores/:id/notifications',
      200,
      me.put(`/api/auth/account/stores/${ownStore.id}/notifications`, { notifyPaidOrders: false }),
    );
    const setup = await call(
      'POST /api/auth/account/totp/setup',
      200,
      me.post('/api/auth/account/totp/setup'),
    );
    // Note: the step before now to turn it on, now to turn it off (a code works once).
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 2000) await Bun.sleep(left + 50);
    await call(
      'POST /api/auth/account/totp/enable',
      200,
      me.post('/api/auth/account/totp/enable', {
        code: totpCodeAt(setup.secret, -1),
        currentPassword: password,
      }),
    );
    await call(
      'POST /api/auth/account/totp/disable',
      200,
      me.post('/api/auth/account/totp/disable', { code: totpCodeAt(setup.secret) }),
    );
    await call(
      'POST /api/auth/account/password',
      200,
      me.post('/api/auth/account/password', {
        currentPassword: password,
        newPassword: 'another horse battery',
      }),
    );
    await call('POST /api/auth/sign-out', 200, me.post('/api/auth/sign-out'));
  });

  test('stores, products and analytics', async () => {
    const { api } = t.owner;
    await call('GET /api/stores', 200, t.shopper.get('/api/stores'));
    await call('GET /api/stores', 200, api.get('/api/stores?mine=true'));
    await call('GET /api/stores/:id', 200, t.shopper.get(`/api/stores/${store.slug}`));
    await call('GET /api/stores/:id', 200, api.get(`/api/stores/${store.id}`));
    store = await call(
      'PUT /api/stores/:id',
      200,
      api.put(`/api/stores/${store.id}`, { name: 'Contract shop', updatedAt: store.updatedAt }),
    );
    const wallet = privateKeyToAccount(generatePrivateKey());
    const paidToWallet = (
      await api.post('/api/stores', storeForm({ paymentAddress: wallet.address }))
    ).body as { id: string };
    const issued = await call(
      'POST /api/stores/:id/verification/challenge',
      201,
      api.post(`/api/stores/${paidToWallet.id}/verification/challenge`),
    );
    await call(
      'POST /api/stores/:id/verification',
      200,
      api.post(`/api/stores/${paidToWallet.id}/verification`, {
        message: issued.message,
        signature: await wallet.signMessage({ message: issued.message }),
      }),
    );
    product = await call(
      'POST /api/products',
      201,
      api.post('/api/products', {
        storeId: store.id,
        title: 'Mug',
        priceUsdc: '10.00',
        inventory: 3,
      }),
    );
    await call(
      'GET /api/stores/:id/products',
      200,
      t.shopper.get(`/api/stores/${store.id}/products`),
    );
    await call('GET /api/products/:id', 200, t.shopper.get(`/api/products/${product.id}`));
    await call(
      'PUT /api/products/:id',
      200,
      api.put(`/api/products/${product.id}`, { title: 'Cup' }),
    );
    const spare = (
      await api.post('/api/products', { storeId: store.id, title: 'Spare', priceUsdc: '1.00' })
    ).body as { id: string };
    await call('DELETE /api/products/:id', 200, api.delete(`/api/products/${spare.id}`));
    await call('GET /api/stores/:id/analytics', 200, api.get(`/api/stores/${store.id}/analytics`));
    await call(
      'GET /api/products/:id/reviews',
      200,
      t.shopper.get(`/api/products/${product.id}/reviews`),
    );
    await call('GET /api/stores/:id/reviews', 200, api.get(`/api/stores/${store.id}/reviews`));
  });

  test('orders, payments and refunds', async () => {
    const { api } = t.owner;
    const items = [{ productId: product.id, title: 'Cup', priceUsdc: '10.00', quantity: 1 }];
    const totals = storeCheckoutTotals(items, shippingFor('standard'));
    order = await call(
      'POST /api/orders',
      201,
      t.shopper.post('/api/orders', {
        storeId: store.id,
        ...customer,
        items,
        subtotalUsdc: totals.subtotalUsdc,
        shippingUsdc: totals.shippingUsdc,
        totalUsdc: totals.totalUsdc,
      }),
    );
    await call('GET /api/orders/:id', 200, t.shopper.get(`/api/orders/${order.id}`));
    await call(
      'POST /api/orders/:id/assign-payment-wallet',
      200,
      t.shopper.post(`/api/orders/${order.id}/assign-payment-wallet`, {}),
    );
    await call('GET /api/orders', 200, api.get('/api/orders'));
    await call('GET /api/orders/:id/detail', 200, api.get(`/api/orders/${order.id}/detail`));
    await call('GET /api/orders/:id/activity', 200, api.get(`/api/orders/${order.id}/activity`));
    await call('GET /api/orders/:id/refunds', 200, api.get(`/api/orders/${order.id}/refunds`));
    await call('GET /api/stores/:id/customers', 200, api.get(`/api/stores/${store.id}/customers`));
    await call('GET /api/stores/:id/audit', 200, api.get(`/api/stores/${store.id}/audit`));
    const discounts = `/api/stores/${store.id}/discounts`;
    const discount = await call(
      'POST /api/stores/:id/discounts',
      201,
      api.post(discounts, { code: 'CONTRACT10', kind: 'percent', percentBps: 1000 }),
    );
    await call('GET /api/stores/:id/discounts', 200, api.get(discounts));
    await call(
      'PUT /api/stores/:id/discounts/:discountId',
      200,
      api.put(`${discounts}/${discount.id}`, { code: 'CONTRACT5', kind: 'fixed', amountUsdc: '5' }),
    );
    await call(
      'POST /api/discount-codes/check',
      200,
      t.shopper.post('/api/discount-codes/check', { storeId: store.id, code: 'contract5' }),
    );
    await call(
      'DELETE /api/stores/:id/discounts/:discountId',
      200,
      api.delete(`${discounts}/${discount.id}`),
    );
    await call(
      'GET /api/orders/:id/refund-claims',
      200,
      t.shopper.get(`/api/orders/${order.id}/refund-claims`, {
        headers: { 'x-buyer-token': order.reviewToken },
      }),
    );
  });

  test('links, webhooks, keys, checkout sessions and the signing key', async () => {
    const { api } = t.owner;
    await call(
      'GET /api/stores/:id/link-secret',
      200,
      api.get(`/api/stores/${store.id}/link-secret`),
    );
    await call(
      'POST /api/stores/:id/link-secret/rotate',
      200,
      api.post(`/api/stores/${store.id}/link-secret/rotate`),
    );
    const query = new URLSearchParams({
      storeName: 'Corner Shop',
      items: JSON.stringify([{ title: 'Mug', priceUsdc: '12.50', quantity: 2 }]),
      externalOrderId: `ext-${crypto.randomUUID()}`,
    }).toString();
    const signed = await call(
      'POST /api/stores/:id/signed-links',
      201,
      api.post(`/api/stores/${store.id}/signed-links`, { link: query }),
    );
    await call(
      'POST /api/universal-links/verify',
      200,
      t.shopper.post('/api/universal-links/verify', { link: signed.query }),
    );
    await call(
      'POST /api/universal-orders',
      201,
      t.shopper.post('/api/universal-orders', universalOrderBody(signed.query)),
    );
    await call('GET /api/stores/:id/webhook', 200, api.get(`/api/stores/${store.id}/webhook`));
    await call(
      'PUT /api/stores/:id/webhook',
      200,
      api.put(`/api/stores/${store.id}/webhook`, { url: 'https://hooks.example/store' }),
    );
    await call(
      'GET /api/stores/:id/webhook/secret',
      200,
      api.get(`/api/stores/${store.id}/webhook/secret`),
    );
    await call(
      'POST /api/stores/:id/webhook/rotate-secret',
      200,
      api.post(`/api/stores/${store.id}/webhook/rotate-secret`),
    );
    await call(
      'GET /api/stores/:id/webhook-deliveries',
      200,
      api.get(`/api/stores/${store.id}/webhook-deliveries`),
    );
    const key = await call(
      'POST /api/api-keys',
      201,
      api.post('/api/api-keys', { name: 'server' }),
    );
    await call('GET /api/api-keys', 200, api.get('/api/api-keys'));
    const withKey = apiClient(t.app);
    const bearer = { headers: { authorization: `Bearer ${key.key}` } };
    await call(
      'GET /api/x402/facilitator/supported',
      200,
      withKey.get('/api/x402/facilitator/supported', bearer),
    );
    const session = await call(
      'POST /api/checkout-sessions',
      201,
      withKey.post(
        '/api/checkout-sessions',
        {
          storeId: store.id,
          items: [{ title: 'Linen shirt', priceUsdc: '20.00', quantity: 1 }],
          shippingOptions: [{ id: 'std', label: 'Standard', priceUsdc: '4.00' }],
          returnUrl: 'https://shop.example/thanks',
        },
        bearer,
      ),
    );
    await call(
      'GET /api/checkout-sessions/:id',
      200,
      api.get(`/api/checkout-sessions/${session.id}`),
    );
    await call(
      'GET /api/checkout-sessions/:id/public',
      200,
      t.shopper.get(`/api/checkout-sessions/${session.id}/public`),
    );
    await call(
      'POST /api/checkout-sessions/:id/complete',
      201,
      t.shopper.post(`/api/checkout-sessions/${session.id}/complete`, {
        customerEmail: customer.customerEmail,
        ...customer.shippingAddress,
        shippingOptionId: 'std',
      }),
    );
    await call('DELETE /api/api-keys/:id', 200, api.delete(`/api/api-keys/${key.id}`));
    const signing = createTestApp(t.testDb, { WEBHOOK_PUBLIC_KEY: newWebhookKeyPair().publicKey });
    await call(
      'GET /.well-known/webhook-signing-key',
      200,
      apiClient(signing).get('/.well-known/webhook-signing-key'),
    );
  });

  test('every JSON route was called here or is reached elsewhere', async () => {
    const other = await newMerchant(t.app, 'contract-other');
    expect(other.user.id).toBeString();
    const json = apiRoutes()
      .map(keyOf)
      .filter((key) => !NOT_JSON.has(key));
    const unreached = json.filter((key) => !called.has(key) && !(key in REACHED_ELSEWHERE));
    expect(unreached).toEqual([]);
    const both = [...called.keys()].filter((key) => key in REACHED_ELSEWHERE);
    expect(both).toEqual([]);
    for (const key of Object.keys(REACHED_ELSEWHERE)) expect(json, key).toContain(key);
  });
});
