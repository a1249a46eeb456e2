// Stores on a real Postgres: the store form's messages, ownership, public and owner views, edits,
// and slugs given up that stay their owner's.
import { beforeAll, describe, expect, test } from 'bun:test';
import { SLUG_TAKEN } from '../src/modules/stores/model.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

describe('POST /api/stores', () => {
  test('creates a store owned by the signed-in merchant with the defaults', async () => {
    const form = storeForm({ ownerId: 'admin' });
    const response = await t.owner.api.post('/api/stores', form);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: form.name,
      slug: form.slug,
      ownerId: t.owner.user.id,
      theme: 'dark',
      primaryColor: '#6366f1',
      secondaryColor: '#8b5cf6',
      accentColor: '#06b6d4',
      isActive: true,
      productCount: 0,
      webhookUrl: null,
    });
    expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(response.body.updatedAt)).not.toBeNaN();
    expect(response.body).not.toHaveProperty('webhookSecret');
  });

  test('401 without a session, even with an invalid body', async () => {
    for (const body of [storeForm(), {}]) {
      const response = await t.shopper.post('/api/stores', body);
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('unauthorized');
    }
  });

  test.each([
    [{ slug: '' }, 'Store slug is required'],
    [{ slug: undefined }, 'Store slug is required'],
    [{ slug: 'My Shop' }, 'Slug can only contain lowercase letters, numbers, and hyphens'],
    [
      { paymentAddress: '0x123' },
      'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
    ],
    [{ primaryColor: 'blue' }, 'Must be a valid hex color'],
    [{ secondaryColor: '#12345' }, 'Must be a valid hex color'],
    [{ accentColor: '06b6d4' }, 'Must be a valid hex color'],
    [{ name: ' ' }, 'Store name is required'],
    [{ theme: 'sepia' }, 'Theme must be light or dark'],
  ])('%j -> 422 %s', async (patch, message) => {
    const response = await t.owner.api.post('/api/stores', storeForm(patch));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { code: 'validation_failed', message } });
  });

  test('accepts 3-digit colours, the light theme and no payment address', async () => {
    const body = storeForm({ primaryColor: '#abc', theme: 'light', paymentAddress: '' });
    const response = await t.owner.api.post('/api/stores', body);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ primaryColor: '#abc', theme: 'light' });
    expect(response.body.paymentAddress).toBeNull();
  });

  test('409 for a slug another store has', async () => {
    const form = storeForm();
    await t.owner.api.post('/api/stores', form);
    const response = await t.other.api.post('/api/stores', storeForm({ slug: form.slug }));
    expect(response.status).toBe(409);
    expect(response.body.error).toEqual({
      code: 'already_exists',
      message: 'That store slug is already taken; choose another',
    });
  });
});

describe('reading stores', () => {
  let open: { id: string; slug: string };
  let closed: { id: string; slug: string };

  beforeAll(async () => {
    open = (await t.owner.api.post('/api/stores', storeForm({ description: 'Open' }))).body;
    closed = (await t.owner.api.post('/api/stores', storeForm({ isActive: false }))).body;
    await t.owner.api.put(`/api/stores/${open.id}`, { webhookUrl: 'https://ignored.example' });
    await t.owner.api.post('/api/products', { storeId: open.id, title: 'Tee', priceUsdc: '10' });
    await t.owner.api.post('/api/products', {
      storeId: open.id,
      title: 'Draft',
      priceUsdc: '5',
      isPublished: false,
    });
  });

  test('GET /api/stores lists active stores with published product counts, public fields only', async () => {
    const response = await t.shopper.get('/api/stores');
    expect(response.status).toBe(200);
    const listed = response.body.find((s: { id: string }) => s.id === open.id);
    expect(listed).toMatchObject({ slug: open.slug, productCount: 1 });
    expect(listed).not.toHaveProperty('ownerId');
    expect(listed).not.toHaveProperty('paymentAddress');
    expect(listed).not.toHaveProperty('webhookUrl');
    expect(listed).not.toHaveProperty('webhookSecret');
    expect(response.body.some((s: { id: string }) => s.id === closed.id)).toBe(false);
  });

  test('GET /api/stores?mine=true: 401 signed out; own stores only, inactive too, all products counted', async () => {
    expect((await t.shopper.get('/api/stores?mine=true')).status).toBe(401);
    const mine = await t.owner.api.get('/api/stores?mine=true');
    const ids = mine.body.map((s: { id: string }) => s.id);
    expect(ids).toContain(open.id);
    expect(ids).toContain(closed.id);
    expect(mine.body.every((s: { ownerId: string }) => s.ownerId === t.owner.user.id)).toBe(true);
    expect(mine.body.find((s: { id: string }) => s.id === open.id)).toMatchObject({
      productCount: 2,
      webhookUrl: null,
    });
    const theirs = await t.other.api.get('/api/stores?mine=true');
    expect(theirs.body.map((s: { id: string }) => s.id)).not.toContain(open.id);
  });

  test('GET /api/stores/{slug} and /api/stores/{id} find the same store', async () => {
    const bySlug = await t.shopper.get(`/api/stores/${open.slug}`);
    const byId = await t.shopper.get(`/api/stores/${open.id}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual(byId.body);
    expect(bySlug.body).toMatchObject({ description: 'Open', productCount: 1 });
  });

  test('an inactive store is 404 for shoppers and other merchants, visible to its owner', async () => {
    for (const client of [t.shopper, t.other.api]) {
      const response = await client.get(`/api/stores/${closed.slug}`);
      expect(response.status).toBe(404);
      expect(response.body.error).toEqual({ code: 'not_found', message: 'Store not found' });
    }
    const own = await t.owner.api.get(`/api/stores/${closed.slug}`);
    expect(own.status).toBe(200);
    expect(own.body.isActive).toBe(false);
  });

  test('unknown slugs and ids are 404', async () => {
    for (const key of ['no-such-store', '00000000-0000-0000-0000-000000000000']) {
      expect((await t.shopper.get(`/api/stores/${key}`)).status).toBe(404);
    }
  });
});

describe('PUT /api/stores/{id}', () => {
  let store: { id: string; slug: string; updatedAt: string };
  beforeAll(async () => {
    store = (await t.owner.api.post('/api/stores', storeForm())).body;
  });

  test('the owner edits any subset of fields; the owner cannot be changed', async () => {
    const response = await t.owner.api.put(`/api/stores/${store.id}`, {
      name: 'Renamed',
      theme: 'light',
      ownerId: t.other.user.id,
      updatedAt: store.updatedAt,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Renamed',
      theme: 'light',
      ownerId: t.owner.user.id,
    });
    expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.parse(store.updatedAt));
    store = response.body;
  });

  test('401 signed out, 404 for another merchant (nothing changes)', async () => {
    expect((await t.shopper.put(`/api/stores/${store.id}`, { name: 'X' })).status).toBe(401);
    const response = await t.other.api.put(`/api/stores/${store.id}`, { name: 'Hijacked' });
    expect(response.status).toBe(404);
    expect((await t.shopper.get(`/api/stores/${store.id}`)).body.name).toBe('Renamed');
  });

  test('a stale edit is 409 with the current store', async () => {
    const stale = store.updatedAt;
    const fresh = await t.owner.api.put(`/api/stores/${store.id}`, {
      description: 'first edit',
      updatedAt: stale,
    });
    expect(fresh.status).toBe(200);
    const response = await t.owner.api.put(`/api/stores/${store.id}`, {
      description: 'second edit',
      updatedAt: stale,
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('stale_version');
    expect(response.body.error.message).toBe(
      'This store was changed since you loaded it; review the current version and try again',
    );
    expect(response.body.error.details.current).toMatchObject({
      id: store.id,
      description: 'first edit',
      updatedAt: fresh.body.updatedAt,
    });
    store = fresh.body;
  });

  test('validates with the store form messages and refuses a taken slug', async () => {
    const bad = await t.owner.api.put(`/api/stores/${store.id}`, { slug: 'Bad Slug' });
    expect(bad.body.error.message).toBe(
      'Slug can only contain lowercase letters, numbers, and hyphens',
    );
    const bogusVersion = await t.owner.api.put(`/api/stores/${store.id}`, {
      updatedAt: 'yesterday',
    });
    expect(bogusVersion.status).toBe(422);
    const taken = (await t.other.api.post('/api/stores', storeForm())).body.slug;
    const response = await t.owner.api.put(`/api/stores/${store.id}`, { slug: taken });
    expect(response.status).toBe(409);
  });
});

describe('a slug a store gives up', () => {
  test('stays its owner’s: another merchant cannot take it, its owner can take it back', async () => {
    const form = storeForm();
    const store = (await t.owner.api.post('/api/stores', form)).body;
    const moved = await t.owner.api.put(`/api/stores/${store.id}`, { slug: `${form.slug}-new` });
    expect(moved.status).toBe(200);
    const taken = { code: 'already_exists', message: SLUG_TAKEN };
    // Neither a new store of another merchant nor one of its stores renamed gets it.
    const created = await t.other.api.post('/api/stores', storeForm({ slug: form.slug }));
    expect(created.status).toBe(409);
    expect(created.body.error).toEqual(taken);
    const theirs = (await t.other.api.post('/api/stores', storeForm())).body;
    const renamed = await t.other.api.put(`/api/stores/${theirs.id}`, { slug: form.slug });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toEqual(taken);
    expect((await t.shopper.get(`/api/stores/${form.slug}`)).status).toBe(404);
    // Its owner opens a second store there, and a slug never used is anyone's.
    const again = await t.owner.api.post('/api/stores', storeForm({ slug: form.slug }));
    expect(again.status).toBe(201);
    expect((await t.shopper.get(`/api/stores/${form.slug}`)).body.id).toBe(again.body.id);
    const fresh = await t.other.api.put(`/api/stores/${theirs.id}`, { slug: `${form.slug}-x` });
    expect(fresh.status).toBe(200);
  });

  test('two merchants racing for a new slug: one gets it', async () => {
    const slug = storeForm().slug;
    const answers = await Promise.all(
      [t.owner, t.other].map((m) => m.api.post('/api/stores', storeForm({ slug }))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });
});
