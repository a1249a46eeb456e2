// The merchant's side of orders on a real Postgres: the order list, status changes, the inventory
// step of a paid order, and the 30-day analytics.
import { beforeAll, describe, expect, test } from 'bun:test';
import { shippingFor, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq, sql } from 'drizzle-orm';
import { orders, products } from '../src/db/schema.ts';
import { decrementInventoryForPaidOrder } from '../src/payments/stock.ts';
import { apiClient, storeForm } from './support/client.ts';
import { createTestApp } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
type Product = { id: string; title: string; priceUsdc: string };

const addStore = async (merchant = t.owner) =>
  (await merchant.api.post('/api/stores', storeForm())).body as { id: string };
const addProduct = async (storeId: string, patch: Record<string, unknown>) =>
  (await t.owner.api.post('/api/products', { storeId, ...patch })).body as Product;

/** The body of a store order of `lines` (free shipping). */
function orderOf(storeId: string, lines: Array<[Product, number]>) {
  const items = lines.map(([p, quantity]) => ({ ...p, productId: p.id, quantity }));
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  return {
    storeId,
    ...customer,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
  };
}

/** The shopper asks to pay: the order gets its deposit address and holds its units. */
const askToPay = (orderId: string, client = t.shopper) =>
  client.post(`/api/orders/${orderId}/assign-payment-wallet`, { paymentChain: 'base' });

/** A placed order whose shopper asked to pay (so it holds its units of tracked products). */
async function placeOrder(storeId: string, lines: Array<[Product, number]>) {
  const response = await t.shopper.post('/api/orders', orderOf(storeId, lines));
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  const wallet = await askToPay(response.body.id);
  if (wallet.status !== 200) throw new Error(JSON.stringify(wallet.body));
  return response.body as { id: string; updatedAt: string; totalUsdc: string };
}

/** What the payment system does: mark paid and take the stock, in one transaction. */
const markPaid = (orderId: string) =>
  t.testDb.database.db.transaction(async (tx) => {
    await tx.update(orders).set({ status: 'paid' }).where(eq(orders.id, orderId));
    return decrementInventoryForPaidOrder(tx, orderId);
  });

describe('GET /api/orders', () => {
  let first: { id: string };
  let second: { id: string };
  let storeA: { id: string };
  beforeAll(async () => {
    storeA = await addStore();
    const storeB = await addStore();
    const a = await addProduct(storeA.id, { title: 'A', priceUsdc: '1.00' });
    const b = await addProduct(storeB.id, { title: 'B', priceUsdc: '2.00' });
    first = await placeOrder(storeA.id, [[a, 1]]);
    second = await placeOrder(storeB.id, [[b, 1]]);
    await markPaid(second.id);
  });

  test('401 signed out; another merchant sees none of these orders', async () => {
    expect((await t.shopper.get('/api/orders')).status).toBe(401);
    expect((await t.other.api.get('/api/orders')).body).toEqual([]);
    expect((await t.other.api.get(`/api/orders?storeId=${storeA.id}`)).status).toBe(404);
  });

  test('lists the orders of all own stores, newest first, with filters', async () => {
    const all = await t.owner.api.get('/api/orders');
    expect(all.status).toBe(200);
    expect(all.body.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
    expect(all.body[0]).toMatchObject({ customerEmail: 'ada@example.com', status: 'paid' });
    const ofA = await t.owner.api.get(`/api/orders?storeId=${storeA.id}`);
    expect(ofA.body.map((o: { id: string }) => o.id)).toEqual([first.id]);
    const paid = await t.owner.api.get('/api/orders?status=paid');
    expect(paid.body.map((o: { id: string }) => o.id)).toEqual([second.id]);
    expect((await t.owner.api.get('/api/orders?limit=1')).body).toHaveLength(1);
    expect((await t.owner.api.get('/api/orders?status=lost')).status).toBe(422);
  });
});

describe('GET /api/orders/{id}/detail', () => {
  test('the owner reads its order, amounts adding up with the tax; others are refused', async () => {
    const store = await addStore();
    const mug = await addProduct(store.id, { title: 'Mug', priceUsdc: '25.99' });
    const order = await placeOrder(store.id, [[mug, 1]]);
    const read = await t.owner.api.get(`/api/orders/${order.id}/detail`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: order.id,
      customerEmail: 'ada@example.com',
      shippingAddress: customer.shippingAddress,
      subtotalUsdc: '25.99',
      shippingUsdc: '0.00',
      taxUsdc: '2.08',
      totalUsdc: '28.07',
    });
    expect((await t.other.api.get(`/api/orders/${order.id}/detail`)).status).toBe(404);
    expect((await t.shopper.get(`/api/orders/${order.id}/detail`)).status).toBe(401);
    expect((await t.owner.api.get('/api/orders/not-an-id/detail')).status).toBe(404);
  });
});

describe('PATCH /api/orders/{id}', () => {
  let order: { id: string; updatedAt: string };
  beforeAll(async () => {
    const store = await addStore();
    const item = await addProduct(store.id, { title: 'Lamp', priceUsdc: '30.00' });
    order = await placeOrder(store.id, [[item, 1]]);
  });

  test('a pending order cannot be moved by hand', async () => {
    const response = await t.owner.api.patch(`/api/orders/${order.id}`, { status: 'shipped' });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe(
      'An order that is pending cannot be marked shipped; orders move from paid to processing, shipped, then completed',
    );
  });

  test('a paid order moves to processing, shipped and completed, one step at a time', async () => {
    await markPaid(order.id);
    expect((await t.owner.api.patch(`/api/orders/${order.id}`, { status: 'shipped' })).status).toBe(
      422,
    );
    for (const status of ['processing', 'shipped', 'completed']) {
      const response = await t.owner.api.patch(`/api/orders/${order.id}`, { status });
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(status);
      order = response.body;
    }
    expect((await t.owner.api.patch(`/api/orders/${order.id}`, { status: 'paid' })).status).toBe(
      422,
    );
  });

  test('401 signed out, 404 for another merchant, 409 for a stale version', async () => {
    const store = await addStore();
    const item = await addProduct(store.id, { title: 'Rug', priceUsdc: '50.00' });
    const fresh = await placeOrder(store.id, [[item, 1]]);
    await markPaid(fresh.id);
    expect(
      (await t.shopper.patch(`/api/orders/${fresh.id}`, { status: 'processing' })).status,
    ).toBe(401);
    const theirs = await t.other.api.patch(`/api/orders/${fresh.id}`, { status: 'processing' });
    expect(theirs.status).toBe(404);
    const stale = await t.owner.api.patch(`/api/orders/${fresh.id}`, {
      status: 'processing',
      updatedAt: fresh.updatedAt,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('stale_version');
    expect(stale.body.error.details.current).toMatchObject({ id: fresh.id, status: 'paid' });
  });
});

describe('decrementInventoryForPaidOrder', () => {
  test('takes the stock once, leaves untracked products alone, keeps the sold-out tracked and published', async () => {
    const store = await addStore();
    const lamp = await addProduct(store.id, { title: 'Lamp', priceUsdc: '5.00', inventory: 3 });
    const vase = await addProduct(store.id, { title: 'Vase', priceUsdc: '5.00', inventory: 4 });
    const card = await addProduct(store.id, { title: 'Card', priceUsdc: '1.00' });
    const placed = await placeOrder(store.id, [
      [lamp, 1],
      [lamp, 2],
      [vase, 1],
      [card, 10],
    ]);
    const stock = async () =>
      t.testDb.database.db
        .select({
          title: products.title,
          inventory: products.inventory,
          isPublished: products.isPublished,
        })
        .from(products)
        .where(eq(products.storeId, store.id))
        .orderBy(products.title);
    // Creating the order takes nothing: stock moves when the order is paid.
    expect((await stock()).map((p) => p.inventory)).toEqual([0, 3, 4]);
    expect(await markPaid(placed.id)).toBe(true);
    expect(await markPaid(placed.id)).toBe(false);
    expect(await stock()).toEqual([
      { title: 'Card', inventory: 0, isPublished: true },
      { title: 'Lamp', inventory: 0, isPublished: true },
      { title: 'Vase', inventory: 3, isPublished: true },
    ]);
    // Sold out, not unlimited: shoppers see it so, and cannot order it.
    const shown = (await t.shopper.get(`/api/products/${lamp.id}`)).body;
    expect(shown).toMatchObject({ inventory: 0, trackInventory: true, soldOut: true });
    const refused = await t.shopper.post('/api/orders', orderOf(store.id, [[lamp, 1]]));
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe('"Lamp" is sold out');
    // Published again (an edit that does not touch the stock), it stays tracked and sold out.
    const owner = (await t.owner.api.get(`/api/products/${lamp.id}`)).body;
    const republished = await t.owner.api.put(`/api/products/${lamp.id}`, {
      isPublished: true,
      title: 'Lamp',
      updatedAt: owner.updatedAt,
    });
    expect(republished.body).toMatchObject({ trackInventory: true, soldOut: true, inventory: 0 });
    // Restocked, it sells again.
    const restocked = await t.owner.api.put(`/api/products/${lamp.id}`, {
      inventory: 2,
      updatedAt: republished.body.updatedAt,
    });
    expect(restocked.body).toMatchObject({ trackInventory: true, soldOut: false, inventory: 2 });
  });

  test('a placed order holds nothing: a stranger cannot make a product sold out without asking to pay', async () => {
    const store = await addStore();
    const lamp = await addProduct(store.id, { title: 'Lamp', priceUsdc: '5.00', inventory: 3 });
    const stranger = await t.shopper.post('/api/orders', orderOf(store.id, [[lamp, 3]]));
    expect(stranger.status).toBe(201);
    expect((await t.shopper.get(`/api/products/${lamp.id}`)).body).toMatchObject({
      inventory: 3,
      soldOut: false,
    });
    // A real shopper buys one and asks to pay; the stranger's order can no longer hold all three.
    const shopper = await placeOrder(store.id, [[lamp, 1]]);
    const late = await askToPay(stranger.body.id);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Only 2 of "Lamp" left in stock');
    // Nothing of the refused attempt stays: no deposit address, no hold.
    const [row] = await t.testDb.database.db
      .select({ until: orders.stockHeldUntil, address: orders.paymentAddress })
      .from(orders)
      .where(eq(orders.id, stranger.body.id));
    expect(row).toEqual({ until: null, address: null });
    expect(await markPaid(shopper.id)).toBe(true);
  });

  test('two shoppers racing for the last unit: one order holds it, the other is refused before paying', async () => {
    const store = await addStore();
    const lamp = await addProduct(store.id, { title: 'Lamp', priceUsdc: '5.00', inventory: 1 });
    const placed = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.shopper.post('/api/orders', orderOf(store.id, [[lamp, 1]])),
      ),
    );
    expect(placed.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const tries = await Promise.all(placed.map((order) => askToPay(order.body.id)));
    const asked = await Promise.all(placed.map((order) => askToPay(order.body.id)));
    expect(tries.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    // Asking again answers the same: the holder its address, the others sold out.
    expect(asked.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const refused of asked.filter((r) => r.status === 409))
      expect(refused.body.error.message).toBe('"Lamp" is sold out');
    // Placing another order now is refused before paying.
    const more = await t.shopper.post('/api/orders', orderOf(store.id, [[lamp, 1]]));
    expect(more.status).toBe(422);
    expect(more.body.error.message).toBe('"Lamp" is sold out');
    // While the order holds it, shoppers see the lamp sold out; the owner still sees its stock.
    expect((await t.shopper.get(`/api/products/${lamp.id}`)).body).toMatchObject({
      inventory: 0,
      soldOut: true,
    });
    expect((await t.owner.api.get(`/api/products/${lamp.id}`)).body).toMatchObject({
      inventory: 1,
      soldOut: false,
    });
    const held = placed[tries.findIndex((r) => r.status === 200)]?.body;
    const [row] = await t.testDb.database.db
      .select({ until: orders.stockHeldUntil })
      .from(orders)
      .where(eq(orders.id, held.id));
    // Held for STOCK_HOLD_MINUTES (30 by default).
    const minutes = ((row?.until?.getTime() ?? 0) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    expect(await markPaid(held.id)).toBe(true);
    expect((await t.shopper.get(`/api/products/${lamp.id}`)).body).toMatchObject({
      inventory: 0,
      soldOut: true,
    });
  });

  test('one client cannot keep a stock reserved: 99 a line, and a few holding orders per hold time', async () => {
    const store = await addStore();
    const crate = await addProduct(store.id, { title: 'Crate', priceUsdc: '1.00', inventory: 500 });
    const card = await addProduct(store.id, { title: 'Card', priceUsdc: '1.00' });
    const whole = await t.shopper.post('/api/orders', orderOf(store.id, [[crate, 100]]));
    expect(whole.status).toBe(422);
    expect(whole.body.error.message).toBe('You can order at most 99 of "Crate"');
    const strict = apiClient(createTestApp(t.testDb, { STOCK_HOLDS_PER_CLIENT: '2' }));
    // Note: the tests above held stock from this same client; its count starts afresh here.
    await t.testDb.database.db.execute(
      sql`delete from rate_limits where bucket = 'stock-holds:client'`,
    );
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const order = await strict.post('/api/orders', orderOf(store.id, [[crate, 1]]));
      expect(order.status).toBe(201);
      statuses.push((await askToPay(order.body.id, strict)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const order = await strict.post('/api/orders', orderOf(store.id, [[crate, 1]]));
    const refused = await askToPay(order.body.id, strict);
    expect(refused.body.error.message).toMatch(/^Too many orders holding stock from your network/);
    // A refusal keeps nothing: once the client may hold again, the same order gets its address.
    await t.testDb.database.db.execute(
      sql`delete from rate_limits where bucket = 'stock-holds:client'`,
    );
    expect((await askToPay(order.body.id, strict)).status).toBe(200);
    // Orders that hold nothing are not counted.
    for (let i = 0; i < 3; i++) {
      const untracked = await strict.post('/api/orders', orderOf(store.id, [[card, 5]]));
      expect((await askToPay(untracked.body.id, strict)).status).toBe(200);
    }
  });

  test('a hold that ended gives the units back; paid after it, with no stock left, the order is oversold', async () => {
    const store = await addStore();
    const lamp = await addProduct(store.id, { title: 'Lamp', priceUsdc: '5.00', inventory: 1 });
    const first = await placeOrder(store.id, [[lamp, 1]]);
    // The first shopper walks away: its hold ends.
    await t.testDb.database.db
      .update(orders)
      .set({ stockHeldUntil: sql`now() - interval '1 second'` })
      .where(eq(orders.id, first.id));
    expect((await t.shopper.get(`/api/products/${lamp.id}`)).body.soldOut).toBe(false);
    const second = await placeOrder(store.id, [[lamp, 1]]);
    expect(await markPaid(second.id)).toBe(true);
    // The first pays late anyway: the payment stands, the order says what it lacks.
    expect(await markPaid(first.id)).toBe(true);
    const shown = async (id: string) =>
      (
        (await t.owner.api.get(`/api/orders/${id}`)).body as {
          metadata: { stockShortfall?: unknown } | null;
        }
      ).metadata?.stockShortfall;
    expect(await shown(second.id)).toBeUndefined();
    expect(await shown(first.id)).toEqual([
      { productId: lamp.id, title: 'Lamp', ordered: 1, available: 0 },
    ]);
    const [left] = await t.testDb.database.db
      .select({ inventory: products.inventory, isPublished: products.isPublished })
      .from(products)
      .where(eq(products.id, lamp.id));
    expect(left).toEqual({ inventory: 0, isPublished: true });
  });

  test('paid after its hold ended, an order never takes a unit another live order holds', async () => {
    const store = await addStore();
    const lamp = await addProduct(store.id, { title: 'Lamp', priceUsdc: '5.00', inventory: 1 });
    const late = await placeOrder(store.id, [[lamp, 1]]);
    await t.testDb.database.db
      .update(orders)
      .set({ stockHeldUntil: sql`now() - interval '1 second'` })
      .where(eq(orders.id, late.id));
    const holding = await placeOrder(store.id, [[lamp, 1]]);
    // The late payer arrives first (its window is days, its hold minutes): the unit is not its.
    expect(await markPaid(late.id)).toBe(true);
    expect(await markPaid(holding.id)).toBe(true);
    const shortfallOf = async (id: string) =>
      (
        (await t.owner.api.get(`/api/orders/${id}`)).body as {
          metadata: { stockShortfall?: unknown } | null;
        }
      ).metadata?.stockShortfall;
    expect(await shortfallOf(late.id)).toEqual([
      { productId: lamp.id, title: 'Lamp', ordered: 1, available: 0 },
    ]);
    expect(await shortfallOf(holding.id)).toBeUndefined();
    const [left] = await t.testDb.database.db
      .select({ inventory: products.inventory })
      .from(products)
      .where(eq(products.id, lamp.id));
    expect(left?.inventory).toBe(0);
  });

  test('is safe on universal orders (no catalogue) and unknown ids', async () => {
    const [universal] = await t.testDb.database.db
      .insert(orders)
      .values({
        storeId: null,
        source: 'unsigned_link',
        payeeAddress: '0x000000000000000000000000000000000000dEaD',
        customerEmail: 'a@b.co',
        items: [{ productId: 'universal-1-x', title: 'Thing', priceUsdc: '1.00', quantity: 1 }],
        totalUsdc: '1.00',
      })
      .returning({ id: orders.id });
    expect(await decrementInventoryForPaidOrder(t.testDb.database.db, universal?.id ?? '')).toBe(
      true,
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await decrementInventoryForPaidOrder(t.testDb.database.db, unknown)).toBe(false);
  });
});

describe('GET /api/stores/{id}/analytics', () => {
  // The figures themselves are read from the chain's payments: test/dashboard-figures.test.ts.
  test('401 signed out, 404 for another merchant or an unknown store', async () => {
    const store = await addStore();
    expect((await t.shopper.get(`/api/stores/${store.id}/analytics`)).status).toBe(401);
    expect((await t.other.api.get(`/api/stores/${store.id}/analytics`)).status).toBe(404);
    expect((await t.owner.api.get('/api/stores/nope/analytics')).status).toBe(404);
  });
});
