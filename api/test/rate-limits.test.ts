// Rate limits of the public writes and of sign-up, counted in Postgres: a burst from one client is
// refused (429, Retry-After) while others are served, a store has its own limit, two API
// instances on one database share the counts, and a refused request leaves nothing to replay.
import { describe, expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import type { App } from '../src/app.ts';
import { pruneRateLimits, RATE_LIMIT_MESSAGES } from '../src/http/rate-limit.ts';
import { AUTH_LIMIT_MESSAGES } from '../src/modules/auth/index.ts';
import { apiClient, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });
const password = 'correct horse battery';
const PAYOUT = '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955';

/** An API on the test database behind a trusted proxy, with `env` added (the limits). */
function apiBehindProxy(env: Record<string, string>) {
  return createTestApp(t.testDb, { TRUST_PROXY: 'true', ...env });
}

/** A client of `app` at `address` (X-Forwarded-For, as a trusted proxy sets it). */
function from(app: App, address: string) {
  const api = apiClient(app);
  const headers = (extra: Record<string, string> = {}) => ({
    headers: { 'x-forwarded-for': address, ...extra },
  });
  return {
    post: (path: string, body?: unknown, extra?: Record<string, string>) =>
      api.post(path, body, headers(extra)),
  };
}

/** A new store of the owner with one 10.00 product, and a valid order body for it. */
async function storeWithOrderBody() {
  const store = (await t.owner.api.post('/api/stores', storeForm())).body;
  const product = (
    await t.owner.api.post('/api/products', {
      storeId: store.id,
      title: 'Mug',
      priceUsdc: '10.00',
      inventory: 1000,
    })
  ).body;
  return {
    storeId: store.id as string,
    body: {
      storeId: store.id,
      ...customer,
      items: [{ productId: product.id, title: 'Mug', priceUsdc: '10.00', quantity: 1 }],
      subtotalUsdc: '10.00',
      shippingUsdc: '0.00',
      totalUsdc: '10.80',
    },
  };
}

/** A universal order body paying `payout`. */
function universalBody(payout = PAYOUT) {
  return {
    storeName: 'Corner Shop',
    storePaymentAddress: payout,
    ...customer,
    items: [{ productId: 'sku-1', title: 'Item', priceUsdc: '5.00', quantity: 1 }],
    subtotalUsdc: '5.00',
    shippingUsdc: '0.00',
    totalUsdc: '5.00',
  };
}

function expectRefused(
  response: { status: number; body: { error: unknown }; headers: Headers },
  reason: string,
) {
  expect(response.status).toBe(429);
  expect(response.body.error).toEqual({
    code: 'rate_limited',
    message: expect.stringMatching(new RegExp(`^${reason}; try again in \\d+ seconds?$`)),
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('POST /api/orders', () => {
  test('a burst from one client gets 429 with Retry-After while another client is served', async () => {
    const app = apiBehindProxy({ RATE_LIMIT_ORDERS_PER_MINUTE: '3' });
    const { body } = await storeWithOrderBody();
    const burst = from(app, '203.0.113.10');
    for (let i = 0; i < 3; i++) expect((await burst.post('/api/orders', body)).status).toBe(201);
    const refused = await burst.post('/api/orders', body);
    expectRefused(refused, RATE_LIMIT_MESSAGES.clientOrders);
    // Still refused: a refused hit never lengthens the window, but it does not reopen it either.
    expect((await burst.post('/api/orders', body)).status).toBe(429);
    expect((await from(app, '198.51.100.10').post('/api/orders', body)).status).toBe(201);
    // An IPv6 client is its /64: another address of the same network is the same client.
    const v6 = from(app, '2001:db8:1:2::a');
    for (let i = 0; i < 3; i++) expect((await v6.post('/api/orders', body)).status).toBe(201);
    expect((await from(app, '2001:db8:1:2::b').post('/api/orders', body)).status).toBe(429);
  });

  test('a store takes at most its own limit, whichever clients send the orders', async () => {
    const app = apiBehindProxy({
      RATE_LIMIT_ORDERS_PER_MINUTE: '100',
      RATE_LIMIT_STORE_ORDERS_PER_MINUTE: '4',
    });
    const busy = await storeWithOrderBody();
    for (let i = 0; i < 4; i++) {
      const response = await from(app, `192.0.2.${i + 1}`).post('/api/orders', busy.body);
      expect(response.status).toBe(201);
    }
    const refused = await from(app, '192.0.2.99').post('/api/orders', busy.body);
    expectRefused(refused, RATE_LIMIT_MESSAGES.storeOrders);
    // Another store is served, from the same client.
    const quiet = await storeWithOrderBody();
    expect((await from(app, '192.0.2.99').post('/api/orders', quiet.body)).status).toBe(201);
  });

  test('a client refused on its own limit does not use up the store’s', async () => {
    const app = apiBehindProxy({
      RATE_LIMIT_ORDERS_PER_MINUTE: '1',
      RATE_LIMIT_STORE_ORDERS_PER_MINUTE: '3',
    });
    const { body } = await storeWithOrderBody();
    const flood = from(app, '203.0.113.20');
    expect((await flood.post('/api/orders', body)).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await flood.post('/api/orders', body)).status).toBe(429);
    expect((await from(app, '203.0.113.21').post('/api/orders', body)).status).toBe(201);
    expect((await from(app, '203.0.113.22').post('/api/orders', body)).status).toBe(201);
  });

  test('a refused request is not stored for replay: the same Idempotency-Key works once allowed', async () => {
    const app = apiBehindProxy({ RATE_LIMIT_ORDERS_PER_MINUTE: '1' });
    const { body } = await storeWithOrderBody();
    const client = from(app, '203.0.113.30');
    expect((await client.post('/api/orders', body)).status).toBe(201);
    const key = { 'idempotency-key': crypto.randomUUID() };
    expect((await client.post('/api/orders', body, key)).status).toBe(429);
    // The window ends (as a minute later).
    await t.testDb.database.db.execute(
      sql`update rate_limits set window_ends_at = now() where bucket = 'orders:client'`,
    );
    const retried = await client.post('/api/orders', body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('POST /api/universal-orders', () => {
  test('limited per client and per payout address', async () => {
    const app = apiBehindProxy({
      RATE_LIMIT_ORDERS_PER_MINUTE: '2',
      RATE_LIMIT_STORE_ORDERS_PER_MINUTE: '3',
    });
    const client = from(app, '203.0.113.40');
    const payout = '0x976EA74026E726554dB657fA54763abd0C3a0aa9';
    expect((await client.post('/api/universal-orders', universalBody(payout))).status).toBe(201);
    expect((await client.post('/api/universal-orders', universalBody(payout))).status).toBe(201);
    expectRefused(
      await client.post('/api/universal-orders', universalBody(payout)),
      RATE_LIMIT_MESSAGES.clientOrders,
    );
    // The payout address in another case is the same address.
    const other = from(app, '203.0.113.41');
    expect(
      (await other.post('/api/universal-orders', universalBody(payout.toLowerCase()))).status,
    ).toBe(201);
    expectRefused(
      await other.post('/api/universal-orders', universalBody(payout)),
      RATE_LIMIT_MESSAGES.storeOrders,
    );
    // Another payout address is served.
    const third = from(app, '203.0.113.42');
    expect((await third.post('/api/universal-orders', universalBody())).status).toBe(201);
  });
});

describe('POST /api/orders/{id}/assign-payment-wallet', () => {
  test('limited per client', async () => {
    const app = apiBehindProxy({ RATE_LIMIT_WALLETS_PER_MINUTE: '2' });
    const { body } = await storeWithOrderBody();
    const order = (await from(app, '203.0.113.50').post('/api/orders', body)).body;
    const client = from(app, '203.0.113.50');
    const path = `/api/orders/${order.id}/assign-payment-wallet`;
    const first = await client.post(path, { paymentChain: 'base' });
    expect(first.status).toBe(200);
    expect((await client.post(path, { paymentChain: 'base' })).status).toBe(200);
    expectRefused(
      await client.post(path, { paymentChain: 'base' }),
      RATE_LIMIT_MESSAGES.clientWallets,
    );
    const other = await from(app, '198.51.100.50').post(path, { paymentChain: 'base' });
    expect(other.body.paymentWallet.address).toBe(first.body.paymentWallet.address);
  });
});

describe('the counters live in Postgres', () => {
  test('two API instances on one database share them', async () => {
    const env = { RATE_LIMIT_ORDERS_PER_MINUTE: '4' };
    const [one, two] = [apiBehindProxy(env), apiBehindProxy(env)];
    const { body } = await storeWithOrderBody();
    const address = '203.0.113.60';
    expect((await from(one, address).post('/api/orders', body)).status).toBe(201);
    expect((await from(two, address).post('/api/orders', body)).status).toBe(201);
    expect((await from(one, address).post('/api/orders', body)).status).toBe(201);
    expect((await from(two, address).post('/api/orders', body)).status).toBe(201);
    expect((await from(one, address).post('/api/orders', body)).status).toBe(429);
    expect((await from(two, address).post('/api/orders', body)).status).toBe(429);

    // One row per bucket and key, keyed by the address's SHA-256: no client address is stored.
    const admin = postgres(t.testDb.adminUrl, { max: 1, onnotice: () => {} });
    try {
      const rows = await admin<{ bucket: string; key: string; hits: number }[]>`
        select bucket, key, hits from rate_limits where bucket = 'orders:client'`;
      const digest = new Bun.CryptoHasher('sha256').update(address).digest('hex');
      expect(rows.find((row) => row.key === digest)?.hits).toBe(6);
      expect(rows.some((row) => row.key.includes('203.0.113'))).toBe(false);
      const [table] = await admin<{ persistence: string }[]>`
        select relpersistence as persistence from pg_class where relname = 'rate_limits'`;
      expect(table?.persistence).toBe('u'); // unlogged: no WAL for a hit
    } finally {
      await admin.end();
    }
    // The API's role counts; the worker's has no use for them and no access.
    const worker = postgres(t.testDb.roleUrls.worker, { max: 1, onnotice: () => {} });
    try {
      await expect(worker`select * from rate_limits`).rejects.toThrow(/permission denied/);
    } finally {
      await worker.end();
    }
  });

  test('a parallel burst across instances lets exactly the limit through', async () => {
    const env = { RATE_LIMIT_ORDERS_PER_MINUTE: '4' };
    const apps = [apiBehindProxy(env), apiBehindProxy(env)];
    const { body } = await storeWithOrderBody();
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        from(apps[i % 2] as App, '203.0.113.65')
          .post('/api/orders', body)
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8);
  });

  test('sign-ups are counted there too: 5 accounts an hour per client across instances', async () => {
    const env = { LOCAL_MODE: 'false' };
    const [one, two] = [apiBehindProxy(env), apiBehindProxy(env)];
    const address = '203.0.113.70';
    for (let i = 0; i < 5; i++) {
      const app = i % 2 === 0 ? one : two;
      const response = await from(app, address).post('/api/auth/sign-up', {
        username: `shared-${i}`,
        password,
      });
      expect(response.status).toBe(201);
    }
    for (const app of [one, two]) {
      const refused = await from(app, address).post('/api/auth/sign-up', {
        username: 'shared-5',
        password,
      });
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toStartWith(`${AUTH_LIMIT_MESSAGES.signUp}; try again in`);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
    const other = await from(two, '198.51.100.70').post('/api/auth/sign-up', {
      username: 'shared-other',
      password,
    });
    expect(other.status).toBe(201);
  });

  test('the hourly prune deletes the counters whose window has ended, and only those', async () => {
    const db = t.testDb.database.db;
    await db.execute(sql`
      insert into rate_limits (bucket, key, hits, window_ends_at) values
        ('prune:test', 'ended', 3, now() - interval '1 second'),
        ('prune:test', 'running', 3, now() + interval '1 minute')`);
    await pruneRateLimits(db);
    const rows = await db.execute<{ key: string }>(
      sql`select key from rate_limits where bucket = 'prune:test'`,
    );
    expect(rows.map((row) => row.key)).toEqual(['running']);
  });
});

describe('defaults', () => {
  test('production allows 30 orders a minute per client; local mode counts but allows far more', async () => {
    const { body } = await storeWithOrderBody();
    // The file's shopper (app.handle: every request is one client) in local mode.
    for (let i = 0; i < 35; i++)
      expect((await t.shopper.post('/api/orders', body)).status).toBe(201);
    const production = apiBehindProxy({ LOCAL_MODE: 'false' });
    const client = from(production, '203.0.113.80');
    for (let i = 0; i < 30; i++) expect((await client.post('/api/orders', body)).status).toBe(201);
    expect((await client.post('/api/orders', body)).status).toBe(429);
  });
});
