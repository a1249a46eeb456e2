// Trust at the door: state changes only as JSON from our own pages (no CSRF by form or by a
// sibling site), caps on what strangers send, public lists without owners' data, payout addresses
// that can really be paid, and no webhook secret kept in idempotency replays.
import { describe, expect, test } from 'bun:test';
import { LIMIT_MESSAGES, PAYOUT_ADDRESS_MESSAGES } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { REQUEST_ORIGIN_MESSAGES } from '../src/http/request-origin.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['alice'] });

/** A raw request to the app, as a browser would send it. */
async function raw(path: string, init: RequestInit & { cookie?: string }) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('cookie', init.cookie);
  const response = await t.app.handle(new Request(`http://localhost${path}`, { ...init, headers }));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function ownStoreCount(): Promise<number> {
  const { body } = await t.alice.api.get('/api/stores?mine=true');
  return body.length;
}

describe('state changes only as JSON from our own pages', () => {
  test('a form-encoded and a multipart POST with the merchant cookie change nothing (415)', async () => {
    const before = await ownStoreCount();
    const form = storeForm();
    const urlEncoded = await raw('/api/stores', {
      method: 'POST',
      cookie: t.alice.cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: form.name, slug: form.slug }).toString(),
    });
    expect(urlEncoded.status).toBe(415);
    expect(urlEncoded.body.error.message).toBe(REQUEST_ORIGIN_MESSAGES.jsonOnly);
    const data = new FormData();
    data.set('name', form.name);
    data.set('slug', form.slug);
    const multipart = await raw('/api/stores', {
      method: 'POST',
      cookie: t.alice.cookie,
      body: data,
    });
    expect(multipart.status).toBe(415);
    const textPlain = await raw('/api/stores', {
      method: 'POST',
      cookie: t.alice.cookie,
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(form),
    });
    expect(textPlain.status).toBe(415);
    expect(await ownStoreCount()).toBe(before);
  });

  test("the newer body routes (discount codes, a customer's erasure) refuse a form too (415) and change nothing", async () => {
    const store = (await t.alice.api.post('/api/stores', storeForm())).body;
    const discounts = `/api/stores/${store.id}/discounts`;
    const created = await raw(discounts, {
      method: 'POST',
      cookie: t.alice.cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code: 'FORM10', kind: 'percent', percentBps: '1000' }).toString(),
    });
    expect(created.status).toBe(415);
    expect(created.body.error.message).toBe(REQUEST_ORIGIN_MESSAGES.jsonOnly);
    const erased = await raw(`/api/stores/${store.id}/customers/erase`, {
      method: 'POST',
      cookie: t.alice.cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ada@example.com' }).toString(),
    });
    expect(erased.status).toBe(415);
    const listed = await t.alice.api.get(discounts);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
  });

  test('a cross-origin or same-site JSON POST with the cookie is refused (403); our own page is served', async () => {
    const before = await ownStoreCount();
    const send = (headers: Record<string, string>) =>
      raw('/api/stores', {
        method: 'POST',
        cookie: t.alice.cookie,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(storeForm()),
      });
    const crossSite = await send({
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.message).toBe(REQUEST_ORIGIN_MESSAGES.crossOrigin);
    expect((await send({ origin: 'http://shop.localhost' })).status).toBe(403);
    expect((await send({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await send({ origin: 'null' })).status).toBe(403);
    expect(await ownStoreCount()).toBe(before);
    const ownPage = await send({ origin: 'http://localhost', 'sec-fetch-site': 'same-origin' });
    expect(ownPage.status).toBe(201);
    expect(await ownStoreCount()).toBe(before + 1);
  });

  test('login CSRF: a cross-site form or page cannot sign a browser in', async () => {
    const credentials = { username: t.alice.user.username, password: 'correct horse battery' };
    const form = await raw('/api/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(credentials).toString(),
    });
    expect(form.status).toBe(415);
    const crossSite = await raw('/api/auth/sign-in', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: JSON.stringify(credentials),
    });
    expect(crossSite.status).toBe(403);
  });

  test('a POST without a body (sign-out) still works from our page and from curl', async () => {
    const signOut = await raw('/api/auth/sign-out', {
      method: 'POST',
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    });
    expect(signOut.status).toBe(200);
  });
});

describe('caps on what strangers send', () => {
  test('a 500 KB store description gets 422 and stores nothing', async () => {
    const before = await ownStoreCount();
    const { status, body } = await t.alice.api.post(
      '/api/stores',
      storeForm({ description: 'x'.repeat(500_000) }),
    );
    expect(status).toBe(422);
    expect(body.error.message).toBe('Description must be at most 5,000 characters');
    expect(await ownStoreCount()).toBe(before);
  });

  test('a 10,000-line universal order gets 422', async () => {
    const item = { productId: 'universal-1', title: 'Pin', priceUsdc: '0.01', quantity: 1 };
    const { status, body } = await t.shopper.post('/api/universal-orders', {
      ...customer,
      storeName: 'Shop',
      storePaymentAddress: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      items: Array.from({ length: 10_000 }, () => item),
      subtotalUsdc: '100.00',
      shippingUsdc: '0.00',
      totalUsdc: '100.00',
    });
    expect(status).toBe(422);
    expect(body.error.message).toBe(LIMIT_MESSAGES.tooManyLines);
  });
});

describe('public lists show public fields, one page at a time', () => {
  test('anonymous GET /api/stores shows no owner ids or payout addresses', async () => {
    await t.alice.api.post('/api/stores', storeForm());
    const { status, body } = await t.shopper.get('/api/stores');
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    for (const store of body) {
      expect(store).not.toHaveProperty('ownerId');
      expect(store).not.toHaveProperty('paymentAddress');
      expect(store).not.toHaveProperty('webhookUrl');
    }
    const one = await t.shopper.get(`/api/stores/${body[0].slug}`);
    expect(one.body).not.toHaveProperty('ownerId');
    expect(one.body).not.toHaveProperty('paymentAddress');
    // The owner still sees its own payout address.
    const own = await t.alice.api.get(`/api/stores/${body[0].id}`);
    expect(own.body.paymentAddress).toMatch(/^0x/);
  });

  test('the public list comes in pages with a Link to the next one', async () => {
    for (let i = 0; i < 3; i++) await t.alice.api.post('/api/stores', storeForm());
    const first = await t.shopper.get('/api/stores?limit=2');
    expect(first.body).toHaveLength(2);
    const next = first.headers.get('link') ?? '';
    expect(next).toMatch(/^<\/api\/stores\?limit=2&offset=2>; rel="next"$/);
    const second = await t.shopper.get(next.slice(1, next.indexOf('>')));
    expect(second.body.length).toBeGreaterThan(0);
    expect(second.body[0].id).not.toBe(first.body[0].id);
    expect(second.body[0].id).not.toBe(first.body[1].id);
    expect((await t.shopper.get('/api/stores?limit=101')).status).toBe(422);
    const all = await t.shopper.get('/api/stores?limit=100');
    expect(all.headers.get('link')).toBeNull();
  });
});

describe('payout addresses that can really be paid', () => {
  const universal = (storePaymentAddress: string) =>
    t.shopper.post('/api/universal-orders', {
      ...customer,
      storeName: 'Shop',
      storePaymentAddress,
      items: [{ productId: 'universal-1', title: 'Pin', priceUsdc: '1.00', quantity: 1 }],
      subtotalUsdc: '1.00',
      shippingUsdc: '0.00',
      totalUsdc: '1.00',
    });

  test('the zero address, the USDC contract, the treasury and a deposit address are refused', async () => {
    const zero = `0x${'0'.repeat(40)}`;
    expect((await universal(zero)).body.error.message).toBe(PAYOUT_ADDRESS_MESSAGES.zero);
    const store = await t.alice.api.post('/api/stores', storeForm({ paymentAddress: zero }));
    expect(store.status).toBe(422);
    expect(store.body.error.message).toBe(PAYOUT_ADDRESS_MESSAGES.zero);
    // The test app's USDC and treasury (api/test/support/database.ts), in another case.
    const token = await universal('0x5fbdb2315678afecb367f032d93f642f64180aa3');
    expect(token.status).toBe(422);
    expect(token.body.error.message).toBe(PAYOUT_ADDRESS_MESSAGES.token);
    const treasury = await universal('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(treasury.body.error.message).toBe(PAYOUT_ADDRESS_MESSAGES.platform);

    // Note: the test xpub is anvil's public mnemonic, whose first addresses are also the test
    // relayer and treasury: take a deposit address past them.
    const platform = [
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    ];
    let deposit = '';
    while (!deposit || platform.includes(deposit.toLowerCase())) {
      const { body: created } = await universal('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
      const { body: wallet } = await t.shopper.post(
        `/api/orders/${created.order.id}/assign-payment-wallet`,
        { paymentChain: 'base' },
      );
      deposit = wallet.paymentWallet.address;
    }
    expect(deposit).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const loop = await universal(deposit.toLowerCase());
    expect(loop.status).toBe(422);
    expect(loop.body.error.message).toBe(PAYOUT_ADDRESS_MESSAGES.deposit);
    const { body: own } = await t.alice.api.get('/api/stores?mine=true');
    const edit = await t.alice.api.put(`/api/stores/${own[0].id}`, { paymentAddress: deposit });
    expect(edit.status).toBe(422);
    expect(edit.body.error.message).toBe(PAYOUT_ADDRESS_MESSAGES.deposit);
  });
});

describe('secrets stay out of replays', () => {
  test('a rotated webhook secret is shown once and never stored in the idempotency table', async () => {
    const { body: store } = await t.alice.api.post('/api/stores', storeForm());
    await t.alice.api.put(`/api/stores/${store.id}/webhook`, { url: 'http://127.0.0.1:9/hook' });
    const headers = { 'idempotency-key': `rotate-${store.id}` };
    const first = await t.alice.api.post(
      `/api/stores/${store.id}/webhook/rotate-secret`,
      undefined,
      {
        headers,
      },
    );
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).toMatch(/whsec_/);
    const sql = t.testDb.database.client;
    const stored = await sql`select response_body::text as body from idempotency_keys`;
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(row.body ?? '').not.toMatch(/whsec_/);
    const replay = await t.alice.api.post(
      `/api/stores/${store.id}/webhook/rotate-secret`,
      undefined,
      {
        headers,
      },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.stringify(replay.body)).not.toMatch(/whsec_/);
  });
});
