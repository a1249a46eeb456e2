// Local mode's demo merchant: seeded once, usable through the API, never duplicated or overwritten.
import { describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { products, stores, users } from '../src/db/schema.ts';
import { DEMO, seedDemoMerchant } from '../src/demo-seed.ts';
import { apiClient, sessionCookieOf } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi();
const countOf = async (table: typeof users | typeof stores | typeof products) =>
  (await t.testDb.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]?.n;

describe('seedDemoMerchant', () => {
  test('creates demo / demo-password with a demo store of published products', async () => {
    expect(await seedDemoMerchant(t.testDb.database.db)).toBe(true);
    const api = apiClient(t.app);
    const signedIn = await api.post('/api/auth/sign-in', {
      username: DEMO.username,
      password: DEMO.password,
    });
    expect(signedIn.status).toBe(200);
    const mine = await api.get('/api/stores?mine=true', { cookie: sessionCookieOf(signedIn) });
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({
      slug: 'demo-store',
      paymentAddress: DEMO.paymentAddress,
      isActive: true,
      productCount: 4,
    });
    const catalogue = await api.get('/api/stores/demo-store/products?published=true');
    expect(catalogue.body).toHaveLength(4);
    for (const product of catalogue.body) expect(product.priceUsdc).toMatch(/^\d+\.\d{2}$/);
  });

  test("is idempotent, concurrently too, and keeps the merchant's own edits", async () => {
    await t.testDb.database.db.update(stores).set({ name: 'Renamed by the merchant' });
    const again = await Promise.all([
      seedDemoMerchant(t.testDb.database.db),
      seedDemoMerchant(t.testDb.database.db),
    ]);
    expect(again).toEqual([false, false]);
    expect(await countOf(users)).toBe(1);
    expect(await countOf(stores)).toBe(1);
    expect(await countOf(products)).toBe(4);
    const store = await apiClient(t.app).get('/api/stores/demo-store');
    expect(store.body.name).toBe('Renamed by the merchant');
  });
});
