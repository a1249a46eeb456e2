// API keys on a real Postgres: created from a session (shown once, only a hash stored), listed,
// revoked; `Authorization: Bearer` authenticates the merchant on merchant routes and nowhere else.
import { beforeAll, describe, expect, test } from 'bun:test';
import { API_KEY_MESSAGES } from '@store/shared';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../src/db/schema.ts';
import { REQUEST_ORIGIN_MESSAGES } from '../src/http/request-origin.ts';
import { hashToken } from '../src/http/session.ts';
import { apiClient, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

/** A client that sends `Authorization: Bearer <key>` and no cookie. */
const withKey = (key: string) => {
  const client = apiClient(t.app);
  const headers = { authorization: `Bearer ${key}` };
  return {
    get: (path: string) => client.get(path, { headers }),
    post: (path: string, body?: unknown, extra: Record<string, string> = {}) =>
      client.post(path, body, { headers: { ...headers, ...extra } }),
    delete: (path: string) => client.delete(path, { headers }),
    patch: (path: string, body?: unknown) => client.patch(path, body, { headers }),
    put: (path: string, body?: unknown) => client.put(path, body, { headers }),
  };
};

/** A product of the owner's store, as a server would add it. */
const product = () => ({ storeId: ownerStoreId, title: 'Mug', priceUsdc: '10.00' });

let ownerKey: { id: string; key: string };
let ownerStoreId: string;
let otherStoreId: string;

beforeAll(async () => {
  const created = await t.owner.api.post('/api/api-keys', { name: 'Production server' });
  expect(created.status).toBe(201);
  ownerKey = created.body;
  ownerStoreId = (await t.owner.api.post('/api/stores', storeForm())).body.id;
  otherStoreId = (await t.other.api.post('/api/stores', storeForm())).body.id;
});

describe('POST /api/api-keys', () => {
  test('returns the key once: sk_test_ on the local chain, only its SHA-256 stored', async () => {
    const response = await t.owner.api.post('/api/api-keys', { name: '  Staging  ' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Staging', mode: 'test', revokedAt: null });
    expect(response.body.key).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(response.body.keyPrefix).toBe(response.body.key.slice(0, 12));
    const [row] = await t.testDb.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, response.body.id));
    expect(row?.keyHash).toBe(hashToken(response.body.key));
    expect(JSON.stringify(row)).not.toContain(response.body.key);
  });

  test('sk_live_ on Base mainnet, sk_test_ on Base Sepolia', async () => {
    for (const [chainId, prefix] of [
      ['8453', 'sk_live_'],
      ['84532', 'sk_test_'],
    ] as const) {
      const app = createTestApp(t.testDb, { CHAIN_ID: chainId, USDC_ADDRESS: '' });
      const response = await apiClient(app, t.owner.cookie).post('/api/api-keys', {
        name: chainId,
      });
      expect(response.status).toBe(201);
      expect(response.body.key.startsWith(prefix)).toBe(true);
      expect(response.body.mode).toBe(prefix === 'sk_live_' ? 'live' : 'test');
    }
  });

  test('two keys differ', async () => {
    const a = await t.owner.api.post('/api/api-keys', { name: 'a' });
    const b = await t.owner.api.post('/api/api-keys', { name: 'b' });
    expect(a.body.key).not.toBe(b.body.key);
  });

  test('422 without a name, 401 anonymous, 403 with a key (a key cannot mint keys)', async () => {
    const blank = await t.owner.api.post('/api/api-keys', { name: ' ' });
    expect(blank.status).toBe(422);
    expect(blank.body.error.message).toBe(API_KEY_MESSAGES.nameRequired);
    const long = await t.owner.api.post('/api/api-keys', { name: 'x'.repeat(121) });
    expect(long.status).toBe(422);
    const anonymous = await t.shopper.post('/api/api-keys', { name: 'x' });
    expect(anonymous.status).toBe(401);
    const byKey = await withKey(ownerKey.key).post('/api/api-keys', { name: 'minted' });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.message).toBe(API_KEY_MESSAGES.sessionRequired);
    const revokeByKey = await withKey(ownerKey.key).delete(`/api/api-keys/${ownerKey.id}`);
    expect(revokeByKey.status).toBe(403);
  });

  test('the key is not kept in the Idempotency-Key replay', async () => {
    const first = await t.owner.api.post(
      '/api/api-keys',
      { name: 'replayed' },
      { headers: { 'idempotency-key': 'key-create-1' } },
    );
    const again = await t.owner.api.post(
      '/api/api-keys',
      { name: 'replayed' },
      { headers: { 'idempotency-key': 'key-create-1' } },
    );
    expect(first.body.key).toMatch(/^sk_test_/);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.key).toBeNull();
  });
});

describe('GET /api/api-keys', () => {
  test('lists the merchant own keys with prefix and dates, never a key or hash', async () => {
    const response = await t.owner.api.get('/api/api-keys');
    expect(response.status).toBe(200);
    const listed = response.body.find((k: { id: string }) => k.id === ownerKey.id);
    expect(listed).toMatchObject({ name: 'Production server', mode: 'test' });
    expect(JSON.stringify(response.body)).not.toMatch(/sk_test_[0-9A-Za-z]{20}|keyHash/);
    const others = await t.other.api.get('/api/api-keys');
    expect(others.body).toEqual([]);
  });

  test('a key may list its merchant keys, only them', async () => {
    const response = await withKey(ownerKey.key).get('/api/api-keys');
    expect(response.status).toBe(200);
    expect(response.body.map((k: { id: string }) => k.id)).toContain(ownerKey.id);
  });
});

describe('Authorization: Bearer', () => {
  test('authenticates the merchant on merchant routes, scoped to its data', async () => {
    const key = withKey(ownerKey.key);
    const stores = await key.get('/api/stores?mine=true');
    expect(stores.status).toBe(200);
    expect(stores.body.map((s: { id: string }) => s.id)).toEqual([ownerStoreId]);
    expect((await key.get('/api/orders')).status).toBe(200);
    expect((await key.get(`/api/orders?storeId=${otherStoreId}`)).status).toBe(404);
    expect((await key.get(`/api/stores/${otherStoreId}/webhook`)).status).toBe(403);
    const product = await key.post('/api/products', {
      storeId: otherStoreId,
      title: 'Not mine',
      priceUsdc: '1.00',
    });
    expect(product.status).toBe(404);
  });

  test('a key cannot redirect payouts or touch the webhook or link secrets; the session can', async () => {
    const key = withKey(ownerKey.key);
    const payout = '0x1b2C3d4E5f60718293a4B5c6D7e8F90112233445';
    const moved = await key.put(`/api/stores/${ownerStoreId}`, { paymentAddress: payout });
    expect(moved.status).toBe(403);
    expect(moved.body.error.message).toBe(API_KEY_MESSAGES.storeSessionRequired);
    // Other edits of the store are allowed with a key.
    const renamed = await key.put(`/api/stores/${ownerStoreId}`, {
      description: 'From the server',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.paymentAddress).not.toBe(payout);
    for (const call of [
      () => key.get(`/api/stores/${ownerStoreId}/webhook`),
      () => key.put(`/api/stores/${ownerStoreId}/webhook`, { url: 'https://attacker.example/h' }),
    ]) {
      const answer = await call();
      expect(answer.status).toBe(403);
      expect(answer.body.error.message).toBe(API_KEY_MESSAGES.webhookSessionRequired);
    }
    // Nor read or rotate a signing secret: the webhook's or the payment links'.
    for (const call of [
      () => key.get(`/api/stores/${ownerStoreId}/webhook/secret`),
      () => key.post(`/api/stores/${ownerStoreId}/webhook/rotate-secret`),
      () => key.get(`/api/stores/${ownerStoreId}/link-secret`),
      () => key.post(`/api/stores/${ownerStoreId}/link-secret/rotate`),
    ]) {
      const answer = await call();
      expect(answer.status).toBe(403);
      expect(answer.body.error.message).toBe(API_KEY_MESSAGES.secretSessionRequired);
      expect(JSON.stringify(answer.body)).not.toMatch(/whsec_|lsk_/);
    }
    expect((await t.owner.api.get(`/api/stores/${ownerStoreId}/webhook`)).status).toBe(200);
    const byOwner = await t.owner.api.put(`/api/stores/${ownerStoreId}`, {
      paymentAddress: payout,
    });
    expect(byOwner.body.paymentAddress).toBe(payout);
  });

  test('a key cannot move a store: no new slug, no deactivation, no new store (the URL stays the owner’s)', async () => {
    const key = withKey(ownerKey.key);
    const before = (await t.owner.api.get(`/api/stores/${ownerStoreId}`)).body;
    const attempts = [
      () => key.put(`/api/stores/${ownerStoreId}`, { slug: `${before.slug}-moved` }),
      () => key.put(`/api/stores/${ownerStoreId}`, { isActive: false }),
      () =>
        key.post(
          '/api/stores',
          storeForm({ paymentAddress: '0x1b2C3d4E5f60718293a4B5c6D7e8F90112233445' }),
        ),
    ];
    for (const attempt of attempts) {
      const refused = await attempt();
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'forbidden',
        message: API_KEY_MESSAGES.storeSessionRequired,
      });
    }
    const after = (await t.owner.api.get(`/api/stores/${ownerStoreId}`)).body;
    expect(after).toMatchObject({ slug: before.slug, isActive: true, updatedAt: before.updatedAt });
    const mine = (await key.get('/api/stores?mine=true')).body as { id: string }[];
    expect(mine.map((store) => store.id)).toEqual([ownerStoreId]);
    // Values sent unchanged, and reopening a store, are no such change.
    const same = await key.put(`/api/stores/${ownerStoreId}`, {
      slug: before.slug,
      paymentAddress: before.paymentAddress,
      isActive: true,
      description: 'Same place',
    });
    expect(same.status).toBe(200);
  });

  test('records last use at most once a minute', async () => {
    const created = (await t.owner.api.post('/api/api-keys', { name: 'touch' })).body;
    const lastUsed = async () =>
      (await t.testDb.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]
        ?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await withKey(created.key).get('/api/stores?mine=true');
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await withKey(created.key).get('/api/stores?mine=true');
    expect((await lastUsed())?.getTime()).toBe(first?.getTime());
    await t.testDb.database.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 120_000) })
      .where(eq(apiKeys.id, created.id));
    await withKey(created.key).get('/api/stores?mine=true');
    expect((await lastUsed())?.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });

  test('an unknown or malformed key gets 401 with a clear message', async () => {
    for (const key of [`sk_test_${'A'.repeat(40)}`, 'not-a-key', '']) {
      const response = await withKey(key).get('/api/stores?mine=true');
      expect(response.status).toBe(401);
      expect(response.body.error).toEqual({
        code: 'unauthorized',
        message: API_KEY_MESSAGES.invalid,
      });
    }
  });

  test('a bad key is refused even beside a valid session cookie', async () => {
    const response = await t.owner.api.get('/api/stores?mine=true', {
      headers: { authorization: `Bearer sk_test_${'B'.repeat(40)}` },
    });
    expect(response.status).toBe(401);
  });

  test('a server-to-server POST with a key and no Origin passes the origin guard', async () => {
    const response = await withKey(ownerKey.key).post('/api/products', product());
    expect(response.status).toBe(201);
  });

  test('a browser POST with a key from another origin stays refused', async () => {
    const response = await withKey(ownerKey.key).post('/api/products', product(), {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(response.status).toBe(403);
    expect(response.body.error.message).toBe(REQUEST_ORIGIN_MESSAGES.crossOrigin);
  });
});

describe('DELETE /api/api-keys/{id}', () => {
  test('revokes (idempotent); the revoked key then gets 401 saying so', async () => {
    const created = (await t.owner.api.post('/api/api-keys', { name: 'short-lived' })).body;
    expect((await withKey(created.key).get('/api/stores?mine=true')).status).toBe(200);
    const revoked = await t.owner.api.delete(`/api/api-keys/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const again = await t.owner.api.delete(`/api/api-keys/${created.id}`);
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const refused = await withKey(created.key).get('/api/stores?mine=true');
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe(API_KEY_MESSAGES.revoked);
  });

  test("404 for another merchant's key or an unknown id; 401 anonymous", async () => {
    const mine = (await t.owner.api.post('/api/api-keys', { name: 'mine' })).body;
    const response = await t.other.api.delete(`/api/api-keys/${mine.id}`);
    expect(response.status).toBe(404);
    expect(response.body.error.message).toBe(API_KEY_MESSAGES.notFound);
    expect((await withKey(mine.key).get('/api/stores?mine=true')).status).toBe(200);
    expect((await t.owner.api.delete('/api/api-keys/not-a-uuid')).status).toBe(404);
    expect((await t.shopper.delete(`/api/api-keys/${mine.id}`)).status).toBe(401);
  });
});
