// The outbox against an in-memory API: replay order (a product waits for its store, an edit of an
// unsynced version waits for its result), the same Idempotency-Key on every try, conflicts
// (keep mine / take the server's) and refused edits.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import { enqueue } from './queue.ts';
import { replayOutbox } from './replay.ts';
import { keepMine, takeServer } from './resolve.ts';
import { submitMutation } from './submit.ts';
import { setSender } from './sync.ts';
import { TestServer } from './test-server.ts';

const userId = 'merchant-1';
let server: TestServer;

beforeEach(async () => {
  await Promise.all(db.tables.map((table) => table.clear()));
  server = new TestServer();
  setSender(server.send);
});
afterEach(() => setSender(undefined));

const storeBody = { name: 'Moon Shop', slug: 'moon-shop', theme: 'dark' };
const replay = () => replayOutbox(userId, server.send);

describe('replay order', () => {
  it('sends a store created offline, then its product, then edits based on their results', async () => {
    server.network = 'down';
    const store = await enqueue({ userId, kind: 'store', op: 'create', changes: storeBody });
    const product = await enqueue({
      userId,
      kind: 'product',
      op: 'create',
      storeId: store.entityId,
      changes: { title: 'Mug', priceUsdc: '12.00', inventory: 3, isPublished: true },
    });
    await enqueue({
      userId,
      kind: 'product',
      op: 'update',
      entityId: product.entityId,
      storeId: store.entityId,
      changes: { title: 'Big Mug' },
    });
    await enqueue({
      userId,
      kind: 'store',
      op: 'update',
      entityId: store.entityId,
      changes: { name: 'Moon Shop 2' },
    });
    expect((await replay()).stopped).toBe('offline');
    expect(await db.outbox.count()).toBe(4);
    expect(await db.drafts.count()).toBe(2);

    server.network = 'up';
    const report = await replay();
    expect(report.synced).toHaveLength(4);
    const [createStore, createProduct, editProduct, editStore] = server.calls.filter(
      (call) => call.body.title !== undefined || call.body.name !== undefined,
    );
    const storeId = [...server.stores.keys()][0];
    const productId = [...server.products.keys()][0];
    expect(createStore).toMatchObject({ method: 'POST', url: '/api/stores' });
    expect(createProduct).toMatchObject({
      method: 'POST',
      url: '/api/products',
      body: { storeId },
    });
    expect(editProduct).toMatchObject({ method: 'PUT', url: `/api/products/${productId}` });
    // The edit carries the version the create answered, not a guess.
    expect(editProduct?.body.updatedAt).toBe(report.synced[1]?.saved.updatedAt);
    expect(editStore?.body.updatedAt).toBe(report.synced[0]?.saved.updatedAt);
    expect(server.stores.get(storeId ?? '')?.name).toBe('Moon Shop 2');
    expect(server.products.get(productId ?? '')?.title).toBe('Big Mug');
    expect(await db.outbox.count()).toBe(0);
    expect(await db.drafts.count()).toBe(0);
    expect((await db.adminProducts.get(productId ?? ''))?.title).toBe('Big Mug');
  });
});

describe('idempotency', () => {
  it('re-sends a create whose answer was lost with the same key, creating one row', async () => {
    server.seed('store', { name: 'S', slug: 's' });
    const storeId = [...server.stores.keys()][0] ?? '';
    await enqueue({
      userId,
      kind: 'product',
      op: 'create',
      storeId,
      changes: { title: 'Tee', priceUsdc: '5.00' },
    });
    server.network = 'drop-answer';
    expect((await replay()).stopped).toBe('offline');
    expect(server.products.size).toBe(1);
    expect(await db.outbox.count()).toBe(1);

    const report = await replay();
    expect(report.synced).toHaveLength(1);
    expect(server.products.size).toBe(1);
    const keys = server.calls.map((call) => call.key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('conflicts', () => {
  async function staleEdit() {
    const store = server.seed('store', { name: 'S', slug: 's' });
    const product = server.seed('product', {
      storeId: store.id,
      title: 'Tee',
      priceUsdc: '5.00',
      isPublished: true,
      inventory: 0,
    });
    server.editElsewhere('product', product.id, { title: 'Tee (server)' });
    await enqueue({
      userId,
      kind: 'product',
      op: 'update',
      entityId: product.id,
      storeId: store.id,
      changes: { title: 'Tee (mine)' },
      baseUpdatedAt: product.updatedAt,
      current: product,
    });
    const report = await replay();
    expect(report.conflicts).toHaveLength(1);
    const [entry] = await db.outbox.toArray();
    expect(entry?.status).toBe('conflict');
    expect(entry?.server?.title).toBe('Tee (server)');
    return { product, entry: entry as NonNullable<typeof entry> };
  }

  it('keeps mine: re-sends on the server version with a new key', async () => {
    const { product, entry } = await staleEdit();
    await keepMine(entry);
    const report = await replay();
    expect(report.synced).toHaveLength(1);
    expect(server.products.get(product.id)?.title).toBe('Tee (mine)');
    const [first, second] = server.calls;
    expect(second?.key).not.toBe(first?.key);
    expect(second?.body.updatedAt).toBe(entry.server?.updatedAt);
    expect(await db.drafts.count()).toBe(0);
  });

  it("takes the server's: drops my edit and shows the server version", async () => {
    const { product, entry } = await staleEdit();
    await takeServer(entry);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.drafts.count()).toBe(0);
    expect((await db.adminProducts.get(product.id))?.title).toBe('Tee (server)');
    expect(server.products.get(product.id)?.title).toBe('Tee (server)');
  });
});

describe('409s told apart by their code', () => {
  it('leaves an entry whose key is still in flight for the next replay, whatever the wording', async () => {
    server.network = 'down';
    const store = await enqueue({ userId, kind: 'store', op: 'create', changes: storeBody });
    server.network = 'up';
    const [entry] = await db.outbox.toArray();
    server.inFlight.add(entry?.idempotencyKey ?? '');
    server.busyText = 'Une requête avec cette clé est en cours';
    const busy = await replay();
    expect(busy).toMatchObject({ synced: [], conflicts: [], failures: [] });
    expect((await db.outbox.toArray()).map((row) => row.status)).toEqual(['pending']);

    server.inFlight.clear();
    expect((await replay()).synced).toHaveLength(1);
    expect(await db.drafts.get(`store:${store.entityId}`)).toBeUndefined();
    expect(server.stores.size).toBe(1);
  });

  it('refuses a taken slug as a failed entry, not as a conflict', async () => {
    server.seed('store', { name: 'Taken', slug: storeBody.slug });
    server.network = 'down';
    await enqueue({ userId, kind: 'store', op: 'create', changes: storeBody });
    server.network = 'up';
    const report = await replay();
    expect(report.conflicts).toHaveLength(0);
    expect(report.failures.map((row) => row.error)).toEqual([
      'That store slug is already taken; choose another',
    ]);
  });
});

describe('submitMutation', () => {
  it('answers synced online, queued offline', async () => {
    expect(
      (await submitMutation({ userId, kind: 'store', op: 'create', changes: storeBody })).status,
    ).toBe('synced');
    server.network = 'down';
    const queued = await submitMutation({
      userId,
      kind: 'store',
      op: 'create',
      changes: { ...storeBody, slug: 'other' },
    });
    expect(queued.status).toBe('queued');
    expect(await db.drafts.count()).toBe(1);
  });

  it('undoes an edit the server refused, so the form can be fixed', async () => {
    await submitMutation({ userId, kind: 'store', op: 'create', changes: storeBody });
    const refused = await submitMutation({
      userId,
      kind: 'store',
      op: 'create',
      changes: storeBody,
    });
    expect(refused).toMatchObject({
      status: 'failed',
      kept: false,
      message: 'That store slug is already taken; choose another',
    });
    expect(await db.outbox.count()).toBe(0);
    expect(await db.drafts.count()).toBe(0);
  });
});
