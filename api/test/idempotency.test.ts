// Idempotency-Key on a real Postgres: replays create nothing, a reused key with another body is
// refused, a duplicate sent while the first runs gets 409, and keys are per merchant.
import { beforeAll, describe, expect, test } from 'bun:test';
import { shippingFor, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq, sql } from 'drizzle-orm';
import { Elysia } from 'elysia';
import { idempotencyKeys, orders, stores } from '../src/db/schema.ts';
import { errorHandler } from '../src/http/error-handler.ts';
import {
  anonymousScope,
  idempotencyPlugin,
  pruneIdempotencyKeys,
} from '../src/http/idempotency.ts';
import { apiClient, storeForm } from './support/client.ts';
import { createTestApp, STACK_TIMEOUT_MS } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
let orderBody: Record<string, unknown>;

const key = () => crypto.randomUUID();
const withKey = (k: string) => ({ headers: { 'idempotency-key': k } });
const count = async (table: typeof orders | typeof stores) =>
  (await t.testDb.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n ?? 0;

beforeAll(async () => {
  const store = (await t.owner.api.post('/api/stores', storeForm())).body;
  const item = (
    await t.owner.api.post('/api/products', { storeId: store.id, title: 'Cap', priceUsdc: '15.00' })
  ).body;
  const items = [{ productId: item.id, title: 'Cap', priceUsdc: '15.00', quantity: 2 }];
  const totals = storeCheckoutTotals(items, shippingFor('express'));
  orderBody = {
    storeId: store.id,
    ...customer,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
  };
}, STACK_TIMEOUT_MS);

describe('Idempotency-Key', () => {
  test('a replayed order returns the first response verbatim and creates nothing', async () => {
    const k = key();
    const first = await t.shopper.post('/api/orders', orderBody, withKey(k));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await count(orders);
    const again = await t.shopper.post('/api/orders', orderBody, withKey(k));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // The buyer's review token is in the first answer and in its replay, and is the stored one.
    expect(first.body.reviewToken).toMatch(/^[0-9a-f]{64}$/);
    const [stored] = await t.testDb.database.db
      .select({ reviewToken: orders.reviewToken })
      .from(orders)
      .where(eq(orders.id, first.body.id));
    expect(stored?.reviewToken).toBe(first.body.reviewToken);
    // The created order reads back as the shopper's GET shows it (same fields and values).
    const { reviewToken: _, ...created } = first.body;
    const read = await t.shopper.get(`/api/orders/${first.body.id}`, {
      headers: { 'x-buyer-token': first.body.reviewToken },
    });
    expect(read.body).toEqual(created);
    expect(await count(orders)).toBe(before);
  });

  test("a replayed store creation returns the same store, not 'slug taken'", async () => {
    const k = key();
    const form = storeForm();
    const first = await t.owner.api.post('/api/stores', form, withKey(k));
    const before = await count(stores);
    const again = await t.owner.api.post('/api/stores', form, withKey(k));
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await count(stores)).toBe(before);
  });

  test('an error response is replayed too (the request is not run again)', async () => {
    const k = key();
    const tampered = { ...orderBody, totalUsdc: '1.00' };
    const first = await t.shopper.post('/api/orders', tampered, withKey(k));
    expect(first.status).toBe(422);
    const again = await t.shopper.post('/api/orders', tampered, withKey(k));
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  test('the same key with another body or path is 422', async () => {
    const k = key();
    await t.shopper.post('/api/orders', orderBody, withKey(k));
    const other = await t.shopper.post(
      '/api/orders',
      { ...orderBody, customerEmail: 'b@c.co' },
      withKey(k),
    );
    expect(other.status).toBe(422);
    expect(other.body.error.message).toBe(
      'This Idempotency-Key was already used for a different request',
    );
    const elsewhere = await t.owner.api.post('/api/stores', storeForm(), withKey(k));
    // Another merchant's scope: the shopper's key does not collide with it.
    expect(elsewhere.status).toBe(201);
  });

  test('keys are per merchant: two merchants may use the same key', async () => {
    const k = key();
    const a = await t.owner.api.post('/api/stores', storeForm(), withKey(k));
    const b = await t.other.api.post('/api/stores', storeForm(), withKey(k));
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
  });

  test('concurrent duplicates: one runs, the others get 409 in progress or the replay', async () => {
    const k = key();
    const before = await count(orders);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => t.shopper.post('/api/orders', orderBody, withKey(k))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((r) => r.status === 409))
      expect(r.body.error).toEqual({
        code: 'idempotency_in_progress',
        message: 'A request with this Idempotency-Key is in progress',
      });
    expect(await count(orders)).toBe(before + 1);
  });

  test('two API processes, one key sent to both at once: one order, and every 201 is that order', async () => {
    const second = apiClient(createTestApp(t.testDb));
    for (let round = 0; round < 3; round++) {
      const k = key();
      const before = await count(orders);
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? t.shopper : second).post('/api/orders', orderBody, withKey(k)),
        ),
      );
      const created = responses.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
      for (const r of created) expect(r.body).toEqual(created[0]?.body);
      expect(await count(orders)).toBe(before + 1);
    }
  });

  test('an order of tracked stock is replayed too (its units held once, when its shopper asks to pay)', async () => {
    const store = (await t.owner.api.post('/api/stores', storeForm())).body;
    const lamp = (
      await t.owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Lamp',
        priceUsdc: '20.00',
        inventory: 3,
      })
    ).body;
    const items = [{ productId: lamp.id, title: 'Lamp', priceUsdc: '20.00', quantity: 1 }];
    const totals = storeCheckoutTotals(items, shippingFor('express'));
    const body = {
      ...orderBody,
      storeId: store.id,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
    };
    const k = key();
    const first = await t.shopper.post('/api/orders', body, withKey(k));
    expect(first.status).toBe(201);
    expect(first.body.stockHeldUntil).toBeNull();
    const again = await t.shopper.post('/api/orders', body, withKey(k));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await t.shopper.get(`/api/products/${lamp.id}`)).body.inventory).toBe(3);
    const ask = () =>
      t.shopper.post(`/api/orders/${first.body.id}/assign-payment-wallet`, {
        paymentChain: 'base',
      });
    const [one, two] = [await ask(), await ask()];
    expect(one.body.paymentWallet.stockHeldUntil).toMatch(/^\d{4}-/);
    expect(two.body).toEqual(one.body);
    expect((await t.shopper.get(`/api/products/${lamp.id}`)).body.inventory).toBe(2);
  });

  test("a merchant sending a shopper's key and order gets an order of its own, not the shopper's answer", async () => {
    const k = key();
    const shopper = await t.shopper.post('/api/orders', orderBody, withKey(k));
    expect(shopper.status).toBe(201);
    const merchant = await t.owner.api.post('/api/orders', orderBody, withKey(k));
    expect(merchant.status).toBe(201);
    expect(merchant.headers.get('idempotent-replayed')).toBeNull();
    expect(merchant.body.id).not.toBe(shopper.body.id);
    // The shopper's proof of purchase is never handed to anyone else.
    expect(merchant.body.reviewToken).not.toBe(shopper.body.reviewToken);
  });

  test("another anonymous client sending a shopper's key and order gets an order of its own", async () => {
    // Note: behind a proxy, so that the two clients are two network addresses.
    const proxied = apiClient(createTestApp(t.testDb, { TRUST_PROXY: 'true' }));
    const from = (address: string) => ({
      headers: { ...withKey(k).headers, 'x-forwarded-for': address },
    });
    const k = key();
    const shopper = await proxied.post('/api/orders', orderBody, from('203.0.113.7'));
    expect(shopper.status).toBe(201);
    // The shopper's own retry is replayed.
    const retry = await proxied.post('/api/orders', orderBody, from('203.0.113.7'));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(shopper.body);
    const stranger = await proxied.post('/api/orders', orderBody, from('198.51.100.9'));
    expect(stranger.status).toBe(201);
    expect(stranger.headers.get('idempotent-replayed')).toBeNull();
    expect(stranger.body.id).not.toBe(shopper.body.id);
    expect(stranger.body.reviewToken).not.toBe(shopper.body.reviewToken);
  });

  test('a form-encoded order with a key is refused (415) and leaves neither an order nor the key', async () => {
    const k = key();
    const before = await count(orders);
    const response = await t.app.handle(
      new Request('http://localhost/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': k },
        body: new URLSearchParams({ storeId: String(orderBody.storeId) }).toString(),
      }),
    );
    expect(response.status).toBe(415);
    expect(await count(orders)).toBe(before);
    const keys = await t.testDb.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, k));
    expect(keys).toHaveLength(0);
  });

  test('a key whose first request is still running gets 409', async () => {
    const k = key();
    await t.testDb.database.db.insert(idempotencyKeys).values({
      // Note: the shopper's scope in these in-process tests (no network address).
      scope: anonymousScope({ request: new Request('http://localhost/') }, false),
      key: k,
      method: 'POST',
      path: '/api/orders',
      requestHash: 'x',
    });
    const response = await t.shopper.post('/api/orders', orderBody, withKey(k));
    // A different hash: the body check comes first.
    expect(response.status).toBe(422);
    await t.testDb.database.db
      .update(idempotencyKeys)
      .set({
        requestHash: sql`encode(sha256(convert_to(${JSON.stringify(orderBody)}, 'UTF8')), 'hex')`,
      })
      .where(eq(idempotencyKeys.key, k));
    const running = await t.shopper.post('/api/orders', orderBody, withKey(k));
    expect(running.status).toBe(409);
    expect(running.body.error).toEqual({
      code: 'idempotency_in_progress',
      message: 'A request with this Idempotency-Key is in progress',
    });
  });

  test('after 24 hours a key runs again', async () => {
    const k = key();
    const first = await t.shopper.post('/api/orders', orderBody, withKey(k));
    await t.testDb.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, k));
    const later = await t.shopper.post('/api/orders', orderBody, withKey(k));
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    await t.testDb.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, k));
    await pruneIdempotencyKeys(t.testDb.database.db);
    const left = await t.testDb.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, k));
    expect(left).toHaveLength(0);
  });

  test('an empty or over-long key is 422; GET ignores the header', async () => {
    for (const k of ['', 'k'.repeat(201)]) {
      const response = await t.shopper.post('/api/orders', orderBody, withKey(k));
      expect(response.status).toBe(422);
      expect(response.body.error.message).toBe('Idempotency-Key must be 1 to 200 characters');
    }
    expect((await t.shopper.get('/api/stores', withKey(''))).status).toBe(200);
  });

  test('a server error frees the key so that a retry runs', async () => {
    let calls = 0;
    const flaky = new Elysia()
      .use(errorHandler(() => {}))
      .use(idempotencyPlugin(t.testDb.database.db, { trustProxy: false }))
      .post('/api/flaky', () => {
        calls += 1;
        if (calls === 1) throw new Error('database hiccup');
        return { calls };
      });
    const send = () =>
      flaky.handle(
        new Request('http://localhost/api/flaky', {
          method: 'POST',
          headers: { 'idempotency-key': 'flaky-key', 'content-type': 'application/json' },
          body: '{}',
        }),
      );
    expect((await send()).status).toBe(500);
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ calls: 2 });
    expect((await send()).headers.get('idempotent-replayed')).toBe('true');
    expect(calls).toBe(2);
  });
});
