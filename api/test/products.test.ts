// Products on a real Postgres: the product form's messages, the catalogue each viewer sees, edits.
import { beforeAll, describe, expect, test } from 'bun:test';
import { storeForm } from './support/client.ts';
import { STACK_TIMEOUT_MS } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
let store: { id: string; slug: string };

const product = (patch: Record<string, unknown> = {}) => ({
  storeId: store.id,
  title: 'Canvas Tote',
  description: 'Sturdy cotton tote',
  priceUsdc: '24.5',
  imageUrl: 'https://example.com/tote.png',
  inventory: 12,
  ...patch,
});

beforeAll(async () => {
  store = (await t.owner.api.post('/api/stores', storeForm())).body;
}, STACK_TIMEOUT_MS);

describe('POST /api/products', () => {
  test('adds a product to the own store; the price comes back with 2 decimals', async () => {
    const response = await t.owner.api.post('/api/products', product());
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      storeId: store.id,
      title: 'Canvas Tote',
      priceUsdc: '24.50',
      inventory: 12,
      isPublished: true,
    });
    expect(Date.parse(response.body.updatedAt)).not.toBeNaN();
  });

  test('defaults: published, inventory 0', async () => {
    const response = await t.owner.api.post('/api/products', {
      storeId: store.id,
      title: 'Sticker',
      priceUsdc: '2',
    });
    expect(response.body).toMatchObject({ isPublished: true, inventory: 0, priceUsdc: '2.00' });
  });

  test.each([
    [{ priceUsdc: '' }, 'Price is required'],
    [{ priceUsdc: undefined }, 'Price is required'],
    [{ priceUsdc: '0' }, 'Price must be a positive number'],
    [{ priceUsdc: '-3' }, 'Price must be a positive number'],
    [{ priceUsdc: 'abc' }, 'Price must be a positive number'],
    [
      { priceUsdc: '1.999' },
      'Price can have at most 8 digits before and 2 after the decimal point',
    ],
    [{ title: '' }, 'Title is required'],
    [{ storeId: '' }, 'Store is required'],
    [{ inventory: -1 }, 'Inventory must be a whole number of 0 or more'],
  ])('%j -> 422 %s', async (patch, message) => {
    const response = await t.owner.api.post('/api/products', product(patch));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { code: 'validation_failed', message } });
  });

  test("401 signed out; 404 for another merchant's store or an unknown one", async () => {
    expect((await t.shopper.post('/api/products', product())).status).toBe(401);
    const theirs = await t.other.api.post('/api/products', product());
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.message).toBe('Store not found');
    expect((await t.owner.api.post('/api/products', product({ storeId: 'nope' }))).status).toBe(
      404,
    );
  });
});

describe('reading products', () => {
  let published: { id: string };
  let draft: { id: string };
  beforeAll(async () => {
    published = (await t.owner.api.post('/api/products', product({ title: 'Shown' }))).body;
    draft = (
      await t.owner.api.post('/api/products', product({ title: 'Hidden', isPublished: false }))
    ).body;
  });

  test('shoppers and other merchants see only published products, by store id or slug', async () => {
    for (const path of [
      `/api/stores/${store.id}/products`,
      `/api/stores/${store.id}/products?published=true`,
      `/api/stores/${store.slug}/products`,
    ]) {
      for (const client of [t.shopper, t.other.api]) {
        const response = await client.get(path);
        expect(response.status).toBe(200);
        const ids = response.body.map((p: { id: string }) => p.id);
        expect(ids).toContain(published.id);
        expect(ids).not.toContain(draft.id);
      }
    }
  });

  test('the owner sees unpublished products unless asking for published=true', async () => {
    const all = await t.owner.api.get(`/api/stores/${store.id}/products`);
    expect(all.body.map((p: { id: string }) => p.id)).toContain(draft.id);
    const onlyPublished = await t.owner.api.get(`/api/stores/${store.id}/products?published=true`);
    expect(onlyPublished.body.map((p: { id: string }) => p.id)).not.toContain(draft.id);
  });

  test('GET /api/products/{id}: published for all, unpublished for the owner only', async () => {
    expect((await t.shopper.get(`/api/products/${published.id}`)).body.title).toBe('Shown');
    for (const client of [t.shopper, t.other.api]) {
      const response = await client.get(`/api/products/${draft.id}`);
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual({ code: 'not_found', message: 'Product not found' });
    }
    expect((await t.owner.api.get(`/api/products/${draft.id}`)).body.title).toBe('Hidden');
  });

  test('unknown stores and products are 404', async () => {
    expect((await t.shopper.get('/api/stores/no-such-store/products')).status).toBe(404);
    expect((await t.shopper.get('/api/products/not-a-uuid')).status).toBe(404);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await t.shopper.get(`/api/products/${missing}`)).status).toBe(404);
  });

  test('products of an inactive store disappear for shoppers', async () => {
    const closed = (await t.owner.api.post('/api/stores', storeForm({ isActive: false }))).body;
    const item = (await t.owner.api.post('/api/products', product({ storeId: closed.id }))).body;
    expect((await t.shopper.get(`/api/stores/${closed.id}/products`)).status).toBe(404);
    expect((await t.shopper.get(`/api/products/${item.id}`)).status).toBe(404);
    expect((await t.owner.api.get(`/api/stores/${closed.id}/products`)).body).toHaveLength(1);
  });
});

describe('PUT and DELETE /api/products/{id}', () => {
  let item: { id: string; updatedAt: string };
  beforeAll(async () => {
    item = (await t.owner.api.post('/api/products', product({ title: 'Mug' }))).body;
  });

  test('the owner edits a subset of fields; the store cannot change', async () => {
    const otherStore = (await t.other.api.post('/api/stores', storeForm())).body;
    const response = await t.owner.api.put(`/api/products/${item.id}`, {
      priceUsdc: '9.99',
      isPublished: false,
      storeId: otherStore.id,
      updatedAt: item.updatedAt,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      priceUsdc: '9.99',
      isPublished: false,
      title: 'Mug',
      storeId: store.id,
    });
    item = response.body;
  });

  test('validates with the product form messages', async () => {
    const response = await t.owner.api.put(`/api/products/${item.id}`, { priceUsdc: '0' });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe('Price must be a positive number');
  });

  test('a stale edit is 409 with the current product', async () => {
    const stale = item.updatedAt;
    const first = await t.owner.api.put(`/api/products/${item.id}`, {
      title: 'Mug v2',
      updatedAt: stale,
    });
    const second = await t.owner.api.put(`/api/products/${item.id}`, {
      title: 'Mug v3',
      updatedAt: stale,
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('stale_version');
    expect(second.body.error.details.current).toMatchObject({
      title: 'Mug v2',
      updatedAt: first.body.updatedAt,
    });
    item = first.body;
  });

  test('401 signed out and 404 for another merchant, for edits and deletes', async () => {
    expect((await t.shopper.put(`/api/products/${item.id}`, { title: 'X' })).status).toBe(401);
    expect((await t.shopper.delete(`/api/products/${item.id}`)).status).toBe(401);
    expect((await t.other.api.put(`/api/products/${item.id}`, { title: 'X' })).status).toBe(404);
    expect((await t.other.api.delete(`/api/products/${item.id}`)).status).toBe(404);
    expect((await t.owner.api.get(`/api/products/${item.id}`)).body.title).toBe('Mug v2');
  });

  test('the owner deletes it; it is gone', async () => {
    const response = await t.owner.api.delete(`/api/products/${item.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: item.id, deleted: true });
    expect((await t.owner.api.get(`/api/products/${item.id}`)).status).toBe(404);
    expect((await t.owner.api.delete(`/api/products/${item.id}`)).status).toBe(404);
  });
});

describe('price caps', () => {
  const refusal = (cap: string) => `The price is above this product's price cap (${cap} USDC)`;

  test('a price above the cap is refused with its message, on create and on edit', async () => {
    const above = await t.owner.api.post(
      '/api/products',
      product({ priceUsdc: '40.00', maxPriceUsdc: '30' }),
    );
    expect(above.status).toBe(422);
    expect(above.body.error.message).toBe(refusal('30.00'));
    const created = await t.owner.api.post(
      '/api/products',
      product({ priceUsdc: '30.00', maxPriceUsdc: '30.00' }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ priceUsdc: '30.00', maxPriceUsdc: '30.00' });
    const id = created.body.id as string;
    // Editing the price alone is checked against the stored cap, and lowering the cap below it.
    const dearer = await t.owner.api.put(`/api/products/${id}`, { priceUsdc: '30.01' });
    expect(dearer.status).toBe(422);
    expect(dearer.body.error.message).toBe(refusal('30.00'));
    const lower = await t.owner.api.put(`/api/products/${id}`, { maxPriceUsdc: '20' });
    expect(lower.status).toBe(422);
    expect(lower.body.error.message).toBe(refusal('20.00'));
    // Raised together, or the cap removed (null), the price goes through.
    const both = await t.owner.api.put(`/api/products/${id}`, {
      priceUsdc: '45.00',
      maxPriceUsdc: '50.00',
    });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ priceUsdc: '45.00', maxPriceUsdc: '50.00' });
    const uncapped = await t.owner.api.put(`/api/products/${id}`, {
      priceUsdc: '999.00',
      maxPriceUsdc: null,
    });
    expect(uncapped.status).toBe(200);
    expect(uncapped.body).toMatchObject({ priceUsdc: '999.00', maxPriceUsdc: null });
  });

  test('the cap is checked as a price is, with its own messages', async () => {
    for (const [cap, message] of [
      ['0', 'Price cap must be a positive number'],
      ['abc', 'Price cap must be a positive number'],
      ['1.234', 'Price cap can have at most 8 digits before and 2 after the decimal point'],
      [5, 'Price cap must be a positive number'],
    ] as const) {
      const response = await t.owner.api.post('/api/products', product({ maxPriceUsdc: cap }));
      expect(response.status).toBe(422);
      expect(response.body.error.message).toBe(message);
    }
  });
});

describe('digital products (an API resource sold per request over HTTP 402)', () => {
  const digital = {
    kind: 'api',
    upstreamUrl: 'https://api.example.com/v1/forecast',
    secretHeaderName: 'X-Upstream-Key',
    secretHeaderValue: 'sk-upstream-9f2e',
  };

  test('carries its settings and x402Url; the secret value never comes back', async () => {
    const created = await t.owner.api.post('/api/products', product({ digital }));
    expect(created.status).toBe(201);
    expect(created.body.digital).toEqual({
      kind: 'api',
      upstreamUrl: digital.upstreamUrl,
      secretHeaderName: 'X-Upstream-Key',
      hasSecret: true,
    });
    expect(created.body.x402Url).toBe(`http://localhost/api/x402/products/${created.body.id}`);
    for (const reader of [t.owner.api, t.other.api, t.shopper]) {
      const seen = await reader.get(`/api/products/${created.body.id}`);
      expect(JSON.stringify(seen.body)).not.toContain(digital.secretHeaderValue);
      expect(seen.body.x402Url).toBe(created.body.x402Url);
    }
    const listed = await t.shopper.get(`/api/stores/${store.id}/products`);
    expect(JSON.stringify(listed.body)).not.toContain(digital.secretHeaderValue);
    // A physical product has neither.
    const tote = await t.owner.api.post('/api/products', product());
    expect(tote.body).toMatchObject({ digital: null, x402Url: null });
  });

  test('an edit without the value keeps it; null makes the product physical again', async () => {
    const { body } = await t.owner.api.post('/api/products', product({ digital }));
    const kept = await t.owner.api.put(`/api/products/${body.id}`, {
      digital: {
        kind: 'api',
        upstreamUrl: 'https://api.example.com/v2',
        secretHeaderName: 'X-Upstream-Key',
      },
    });
    expect(kept.body.digital).toMatchObject({
      upstreamUrl: 'https://api.example.com/v2',
      hasSecret: true,
    });
    const physical = await t.owner.api.put(`/api/products/${body.id}`, { digital: null });
    expect(physical.body).toMatchObject({ digital: null, x402Url: null });
  });

  test('validates the URL, the header and their sizes; strangers cannot change it', async () => {
    const { body } = await t.owner.api.post('/api/products', product({ digital }));
    for (const bad of [
      { ...digital, upstreamUrl: 'ftp://files.example.com/x' },
      { ...digital, upstreamUrl: `https://example.com/${'a'.repeat(2_100)}` },
      { ...digital, secretHeaderName: 'Bad Header' },
      { ...digital, secretHeaderValue: 'x'.repeat(1_025) },
      { kind: 'api', upstreamUrl: digital.upstreamUrl, secretHeaderValue: 'orphan' },
      { ...digital, kind: 'file' },
    ])
      expect((await t.owner.api.put(`/api/products/${body.id}`, { digital: bad })).status).toBe(
        422,
      );
    const change = { digital: { kind: 'api', upstreamUrl: 'https://evil.example/steal' } };
    expect((await t.other.api.put(`/api/products/${body.id}`, change)).status).toBe(404);
    expect((await t.shopper.put(`/api/products/${body.id}`, change)).status).toBe(401);
    const after = await t.owner.api.get(`/api/products/${body.id}`);
    expect(after.body.digital.upstreamUrl).toBe(digital.upstreamUrl);
  });
});
