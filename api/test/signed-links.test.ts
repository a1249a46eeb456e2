// Signed universal-checkout links on the real stack (Postgres, anvil with Circle's USDC, the
// indexer and the worker's loops): the merchant's link secret and signing routes (owners only),
// the public verification, POST /api/universal-orders refusing any edit of a signed link, and the
// untouched link paid on the chain with a webhook saying `signed: true` (signed with the store's
// webhook secret), beside an unsigned link's `signed: false`.
import { afterAll, describe, expect, test } from 'bun:test';
import {
  parseCheckoutParams,
  SIGNED_LINK_MESSAGES,
  type UniversalCheckoutForm,
} from '@store/shared';
import { buildUniversalOrderBody } from '@store/shared/universal-order';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { type Address, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadWorkerConfig } from '../src/config.ts';
import { orders } from '../src/db/schema.ts';
import { LINK_VERIFY_LIMIT, LINK_VERIFY_LIMITED } from '../src/modules/link-signing/index.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { type ApiClient, apiClient, newMerchant, storeForm } from './support/client.ts';
import { waitUntil, webhookReceiver } from './support/settlement.ts';

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
      }),
      database.db,
    ),
});
afterAll(() => receiver.stop());

const ALTERED = SIGNED_LINK_MESSAGES.altered;
const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const form: UniversalCheckoutForm = {
  customerEmail: customer.customerEmail,
  ...customer.shippingAddress,
  shippingMethod: 'standard',
};

/** A merchant with a store paying out to a fresh address. */
async function merchantWithStore() {
  const owner = await newMerchant(t.app, 'links');
  const payout = freshAddress();
  const store = (await owner.api.post('/api/stores', storeForm({ paymentAddress: payout }))).body;
  return { owner, payout, store: store as { id: string } };
}

/** The query of an unsigned link (no paymentAddress unless given: signing fills it in). */
function linkQuery(patch: Record<string, string> = {}) {
  const params = new URLSearchParams({
    storeName: 'Corner Shop',
    items: JSON.stringify([
      { title: 'Mug', priceUsdc: '12.50', quantity: 2 },
      { title: 'Tea', priceUsdc: '3.00', quantity: 1 },
    ]),
    externalOrderId: `ext-${crypto.randomUUID()}`,
    webhookUrl: receiver.url,
    shipping: 'true',
    standardShipping: '4.00',
    returnUrl: 'https://shop.example/done',
    theme: 'light',
    ...patch,
  });
  return params.toString();
}

/** Signs `query` for the store as `owner`; the signed link's query. */
async function sign(owner: { api: ApiClient }, storeId: string, query = linkQuery()) {
  const response = await owner.api.post(`/api/stores/${storeId}/signed-links`, { link: query });
  expect(response.status).toBe(201);
  return response.body.query as string;
}

/** The order body the checkout page builds from a link (as the shopper opened it). */
function orderBodyOf(query: string, extra: Record<string, unknown> = {}) {
  const parsed = parseCheckoutParams(query);
  if (!parsed.ok) throw new Error(parsed.error);
  return {
    ...buildUniversalOrderBody(parsed.value, form, Date.now(), Math.random),
    signedLink: query,
    ...extra,
  };
}

/** Replaces one parameter of a query. */
function edit(query: string, name: string, value: string) {
  const params = new URLSearchParams(query);
  params.set(name, value);
  return params.toString();
}

const order = (body: unknown) => t.shopper.post('/api/universal-orders', body);

describe('the link secret and signing routes', () => {
  test('the owner reads a 32-byte secret (made once), rotates it, and signs links', async () => {
    const { owner, store, payout } = await merchantWithStore();
    const first = await owner.api.get(`/api/stores/${store.id}/link-secret`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ storeId: store.id, version: '1', rotatedAt: null });
    expect(first.body.secret).toMatch(/^lsk_[0-9a-f]{64}$/);
    expect((await owner.api.get(`/api/stores/${store.id}/link-secret`)).body.secret).toBe(
      first.body.secret,
    );
    const rotated = await owner.api.post(`/api/stores/${store.id}/link-secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^lsk_[0-9a-f]{64}$/);
    expect(rotated.body.secret).not.toBe(first.body.secret);
    expect(rotated.body.rotatedAt).not.toBeNull();

    const signed = await owner.api.post(`/api/stores/${store.id}/signed-links`, {
      link: `https://elsewhere.example/universal-checkout?${linkQuery()}`,
    });
    expect(signed.status).toBe(201);
    const params = new URLSearchParams(signed.body.query);
    expect(params.get('storeId')).toBe(store.id);
    expect(params.get('sigv')).toBe('1');
    expect(params.get('sig')).toBe(signed.body.signature);
    expect(params.get('paymentAddress')).toBe(payout);
    expect(signed.body.path).toBe(`/universal-checkout?${signed.body.query}`);
  });

  test('a signed link pays only the store payout address; the link must be a valid one', async () => {
    const { owner, store } = await merchantWithStore();
    const other = await owner.api.post(`/api/stores/${store.id}/signed-links`, {
      link: linkQuery({ paymentAddress: freshAddress() }),
    });
    expect(other.status).toBe(422);
    expect(other.body.error.message).toBe(SIGNED_LINK_MESSAGES.payoutMismatch);
    const badItems = await owner.api.post(`/api/stores/${store.id}/signed-links`, {
      link: linkQuery({ items: 'not json' }),
    });
    expect(badItems.status).toBe(422);
    expect(badItems.body.error.message).toBe(
      'Invalid items format. Items must be valid JSON array.',
    );
    const noPayout = (await owner.api.post('/api/stores', storeForm({ paymentAddress: '' }))).body;
    const refused = await owner.api.post(`/api/stores/${noPayout.id}/signed-links`, {
      link: linkQuery(),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(SIGNED_LINK_MESSAGES.noPayout);
    const tooLong = await owner.api.post(`/api/stores/${store.id}/signed-links`, {
      link: 'a'.repeat(20_000),
    });
    expect(tooLong.status).toBe(422);
  });

  test("merchant B cannot read, rotate or sign with A's secret; anonymous clients are refused", async () => {
    const a = await merchantWithStore();
    const secret = (await a.owner.api.get(`/api/stores/${a.store.id}/link-secret`)).body.secret;
    const b = await newMerchant(t.app, 'other');
    const anonymous = apiClient(t.app);
    for (const [client, status] of [
      [b.api, 404],
      [anonymous, 401],
    ] as const) {
      expect((await client.get(`/api/stores/${a.store.id}/link-secret`)).status).toBe(status);
      expect((await client.post(`/api/stores/${a.store.id}/link-secret/rotate`)).status).toBe(
        status,
      );
      const signed = await client.post(`/api/stores/${a.store.id}/signed-links`, {
        link: linkQuery(),
      });
      expect(signed.status).toBe(status);
      expect(JSON.stringify(signed.body)).not.toContain('sig=');
    }
    expect((await a.owner.api.get(`/api/stores/${a.store.id}/link-secret`)).body.secret).toBe(
      secret,
    );
  });
});

describe('POST /api/universal-orders with a signed link', () => {
  test.each([
    [
      'a price',
      (q: string) =>
        edit(q, 'items', (new URLSearchParams(q).get('items') ?? '').replace('12.50', '0.01')),
    ],
    [
      'a quantity',
      (q: string) =>
        edit(
          q,
          'items',
          (new URLSearchParams(q).get('items') ?? '').replace('"quantity":2', '"quantity":1'),
        ),
    ],
    ['the payout address', (q: string) => edit(q, 'paymentAddress', freshAddress())],
    ['the webhook URL', (q: string) => edit(q, 'webhookUrl', 'https://evil.example/hook')],
    ['the shipping price', (q: string) => edit(q, 'standardShipping', '0.00')],
    ['the return URL', (q: string) => edit(q, 'returnUrl', 'https://evil.example/')],
    ['the store', (q: string) => edit(q, 'storeId', crypto.randomUUID())],
    ['the signature', (q: string) => edit(q, 'sig', 'a'.repeat(64))],
    [
      'a removed signature',
      (q: string) => {
        const p = new URLSearchParams(q);
        p.delete('sig');
        return p.toString();
      },
    ],
  ])('a link with %s edited is refused as altered', async (_, alter) => {
    const { owner, store } = await merchantWithStore();
    const altered = alter(await sign(owner, store.id));
    const response = await order(orderBodyOf(altered));
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'validation_failed',
      message: ALTERED,
      details: { reason: 'link_altered' },
    });
    const verify = await t.shopper.post('/api/universal-links/verify', { link: altered });
    expect(verify.status).toBe(422);
    expect(verify.body.error.message).toBe(ALTERED);
  });

  test("an untouched link with an order body that is not the link's is refused", async () => {
    const { owner, store } = await merchantWithStore();
    const query = await sign(owner, store.id);
    const body = orderBodyOf(query);
    const cheaper = {
      ...body,
      items: body.items.map((item) => ({ ...item, priceUsdc: '0.01' })),
      subtotalUsdc: '0.03',
      totalUsdc: '4.03',
    };
    const response = await order(cheaper);
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe(ALTERED);
    const otherPayee = await order({ ...body, storePaymentAddress: freshAddress() });
    expect(otherPayee.body.error.message).toBe(ALTERED);
  });

  test('rotating the secret refuses the links signed before; a new link works', async () => {
    const { owner, store } = await merchantWithStore();
    const before = await sign(owner, store.id);
    expect((await t.shopper.post('/api/universal-links/verify', { link: before })).body).toEqual({
      signed: true,
      storeId: store.id,
      storeName: expect.any(String),
    });
    await owner.api.post(`/api/stores/${store.id}/link-secret/rotate`);
    const old = await order(orderBodyOf(before));
    expect(old.status).toBe(422);
    expect(old.body.error.message).toBe(ALTERED);
    const after = await sign(owner, store.id, new URLSearchParams(before).toString());
    expect((await order(orderBodyOf(after))).status).toBe(201);
  });

  test('a link whose store changed its payout address since is refused', async () => {
    const { owner, store } = await merchantWithStore();
    const query = await sign(owner, store.id);
    const current = (await owner.api.get(`/api/stores/${store.id}`)).body;
    const moved = await owner.api.put(`/api/stores/${store.id}`, {
      paymentAddress: freshAddress(),
      updatedAt: current.updatedAt,
    });
    expect(moved.status).toBe(200);
    const response = await order(orderBodyOf(query));
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe(SIGNED_LINK_MESSAGES.payoutChanged);
  });

  test('verification of an unsigned link says so', async () => {
    const response = await t.shopper.post('/api/universal-links/verify', {
      link: `/universal-checkout?${linkQuery({ paymentAddress: freshAddress() })}`,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ signed: false });
  });
});

describe('paid on the chain', () => {
  const webhookOf = (orderId: string) =>
    waitUntil(
      () =>
        receiver.received.find((r) => {
          const payload = JSON.parse(r.body);
          return payload.orderId === orderId && payload.type === 'order.paid';
        }),
      `order.paid of ${orderId}`,
      30_000,
    );

  test("the untouched signed link's order is paid; its webhook says signed: true, signed with the store's secret", async () => {
    const { owner, store, payout } = await merchantWithStore();
    const query = await sign(owner, store.id);
    const created = await order(orderBodyOf(query, { paymentChain: 'base' }));
    expect(created.status).toBe(201);
    const orderId = created.body.order.id as string;
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ storeId: store.id, source: 'signed_link', payeeAddress: payout });
    expect(row?.totalUsdc).toBe('32.00');
    expect(created.body.paymentWallet.expectedAmount).toBe('32.00');

    await payUsdc(
      t.stack.env,
      1,
      created.body.paymentWallet.address as Address,
      parseUnits('32', 6),
    );
    const hook = await webhookOf(orderId);
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({ type: 'order.paid', signed: true, totalUsdc: '32.00' });
    expect(payload.paymentWallet.storePaymentAddress.toLowerCase()).toBe(payout.toLowerCase());
    const { secret } = (await owner.api.get(`/api/stores/${store.id}/webhook/secret`)).body;
    expect(secret).toMatch(/^whsec_/);
    expect(() => new Webhook(secret).verify(hook.body, hook.headers)).not.toThrow();
  }, 60_000);

  test('an unsigned link still checks out and pays; its order and webhook say signed: false', async () => {
    const payout = freshAddress();
    const query = linkQuery({ paymentAddress: payout });
    const { signedLink: _, ...body } = orderBodyOf(query, { paymentChain: 'base' });
    const created = await order(body);
    expect(created.status).toBe(201);
    const orderId = created.body.order.id as string;
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ storeId: null, source: 'unsigned_link', payeeAddress: payout });
    await payUsdc(
      t.stack.env,
      2,
      created.body.paymentWallet.address as Address,
      parseUnits('32', 6),
    );
    const payload = JSON.parse((await webhookOf(orderId)).body);
    expect(payload).toMatchObject({ type: 'order.paid', signed: false });
    expect(payload.paymentWallet.storePaymentAddress.toLowerCase()).toBe(payout.toLowerCase());
  }, 60_000);
});

describe('POST /api/universal-links/verify', () => {
  test('is JSON only, capped, and limited per client per minute', async () => {
    const form = await t.app.handle(
      new Request('http://localhost/api/universal-links/verify', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'link=a',
      }),
    );
    expect(form.status).toBe(415);
    const long = await t.shopper.post('/api/universal-links/verify', { link: 'a'.repeat(20_000) });
    expect(long.status).toBe(422);
    let limited: { body: { error: { message: string } } } | undefined;
    for (let i = 0; i <= LINK_VERIFY_LIMIT.max && !limited; i++) {
      const response = await t.shopper.post('/api/universal-links/verify', { link: 'a=1' });
      if (response.status === 429) limited = response;
      else expect(response.body).toEqual({ signed: false });
    }
    expect(limited?.body.error.message).toStartWith(LINK_VERIFY_LIMITED);
  });
});
