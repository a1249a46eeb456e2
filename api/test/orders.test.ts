// Store orders on a real Postgres: server-side totals, the checkout form's messages, inventory,
// the merchant's order list and status changes, and the inventory step of a paid order.
import { beforeAll, describe, expect, test } from 'bun:test';
import { shippingFor, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { orders } from '../src/db/schema.ts';
import { apiClient, newMerchant, storeForm } from './support/client.ts';
import { STACK_TIMEOUT_MS } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
let store: { id: string; slug: string };
type Product = { id: string; title: string; priceUsdc: string; inventory: number };
let hoodie: Product;
let tote: Product;

const addProduct = async (patch: Record<string, unknown>) =>
  (await t.owner.api.post('/api/products', { storeId: store.id, ...patch })).body as Product;

/** An order line as the server stores it. */
const line = (p: Product, quantity: number) => ({
  productId: p.id,
  title: p.title,
  priceUsdc: p.priceUsdc,
  quantity,
  imageUrl: null,
});

/** A valid order body for these lines, with the totals the web client would compute. */
function orderBody(
  lines: Array<[Product, number]>,
  method: 'free' | 'standard' | 'express' = 'standard',
  storeId = store.id,
) {
  const items = lines.map(([p, quantity]) => ({
    productId: p.id,
    title: p.title,
    priceUsdc: p.priceUsdc,
    quantity,
  }));
  const totals = storeCheckoutTotals(items, shippingFor(method));
  return {
    storeId,
    ...customer,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    status: 'pending',
  };
}

beforeAll(async () => {
  store = (await t.owner.api.post('/api/stores', storeForm())).body;
  hoodie = await addProduct({ title: 'Hoodie', priceUsdc: '12.99', inventory: 5 });
  tote = await addProduct({ title: 'Tote', priceUsdc: '7.50' });
}, STACK_TIMEOUT_MS);

describe('POST /api/orders', () => {
  test('creates a pending order priced from the catalogue (8% tax in the total)', async () => {
    const body = orderBody(
      [
        [hoodie, 2],
        [tote, 1],
      ],
      'standard',
    );
    const response = await t.shopper.post('/api/orders', { ...body, status: 'paid' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      storeId: store.id,
      customerEmail: 'ada@example.com',
      shippingAddress: customer.shippingAddress,
      subtotalUsdc: '33.48',
      shippingUsdc: '12.99',
      // 33.48 + 12.99 + 2.68 tax: the tax is stored, so the amounts add up
      taxUsdc: '2.68',
      totalUsdc: '49.15',
      status: 'pending',
      paymentChain: null,
    });
    expect(response.body.items).toEqual([
      // Hoodie's stock is counted (5 left); Tote's is not tracked (inventory 0).
      { ...line(hoodie, 2), stockTracked: true },
      { ...line(tote, 1), stockTracked: false },
    ]);
    // The browser that placed it reads the same order with its buyer token (without the token
    // itself: only the order's creation answers that).
    const { reviewToken, ...created } = response.body;
    expect(reviewToken).toMatch(/^[0-9a-f]{64}$/);
    const read = await t.shopper.get(`/api/orders/${response.body.id}`, {
      headers: { 'x-buyer-token': reviewToken },
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
  });

  test('GET /api/orders/{id} without the buyer token carries no personal data', async () => {
    const response = await t.shopper.post('/api/orders', orderBody([[tote, 1]]));
    expect(response.status).toBe(201);
    const { reviewToken, ...created } = response.body;
    const anonymous = { ...created, customerEmail: '', shippingAddress: null };
    // Anyone with the order's id (its merchant, a referrer, another merchant, a wrong token).
    const other = await newMerchant(t.app, 'other');
    for (const options of [
      {},
      { headers: { 'x-buyer-token': 'f'.repeat(64) } },
      { headers: { 'x-buyer-token': reviewToken.slice(1) } },
    ]) {
      const read = await apiClient(t.app).get(`/api/orders/${created.id}`, options);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(anonymous);
      expect(JSON.stringify(read.body)).not.toContain('@');
      expect(JSON.stringify(read.body)).not.toContain(customer.shippingAddress.street);
    }
    expect((await t.owner.api.get(`/api/orders/${created.id}`)).body).toEqual(anonymous);
    expect((await other.api.get(`/api/orders/${created.id}`)).body).toEqual(anonymous);
    // The merchant reads it in full through its own route.
    const detail = await t.owner.api.get(`/api/orders/${created.id}/detail`);
    expect(detail.body.customerEmail).toBe(created.customerEmail);
  });

  test('stores titles and prices from the catalogue, not from the client', async () => {
    const body = orderBody([[tote, 1]], 'free');
    const items = [{ ...body.items[0], title: 'Free stuff' }];
    const response = await t.shopper.post('/api/orders', { ...body, items });
    expect(response.status).toBe(201);
    expect(response.body.items[0].title).toBe('Tote');
  });

  test('an order placed with an upper-case store id still belongs to the store', async () => {
    const response = await t.shopper.post(
      '/api/orders',
      orderBody([[tote, 1]], 'free', store.id.toUpperCase()),
    );
    expect(response.status).toBe(201);
    expect(response.body.storeId).toBe(store.id);
    const listed = (await t.owner.api.get(`/api/orders?storeId=${store.id}`)).body as Array<{
      id: string;
    }>;
    expect(listed.map((order) => order.id)).toContain(response.body.id);
  });

  test('the shipping method may be named, or is read from the shipping amount', async () => {
    for (const method of ['free', 'standard', 'express'] as const) {
      const body = orderBody([[tote, 1]], method);
      const named = await t.shopper.post('/api/orders', { ...body, shippingMethod: method });
      const inferred = await t.shopper.post('/api/orders', body);
      expect(named.status).toBe(201);
      expect(inferred.body.shippingUsdc).toBe(named.body.shippingUsdc);
    }
    const odd = { ...orderBody([[tote, 1]]), shippingUsdc: '5.00' };
    const response = await t.shopper.post('/api/orders', odd);
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe(
      'Shipping must be free (0.00), standard (12.99) or express (24.99)',
    );
  });

  test.each([
    ['subtotalUsdc', '1.00'],
    ['shippingUsdc', '0.00'],
    ['totalUsdc', '0.01'],
  ])('tampered %s -> 422, nothing stored', async (field, value) => {
    const before = (await t.testDb.database.db.select().from(orders)).length;
    const body = { ...orderBody([[hoodie, 1]], 'standard'), [field]: value };
    const response = await t.shopper.post('/api/orders', body);
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe(
      'Order totals do not match current prices; refresh and try again',
    );
    expect((await t.testDb.database.db.select().from(orders)).length).toBe(before);
  });

  test('a named method that disagrees with the shipping amount is 422', async () => {
    const body = { ...orderBody([[tote, 1]], 'standard'), shippingMethod: 'express' };
    expect((await t.shopper.post('/api/orders', body)).status).toBe(422);
  });

  test('a price changed since the cart was filled is refused', async () => {
    const mug = await addProduct({ title: 'Mug', priceUsdc: '10.00' });
    const body = orderBody([[mug, 1]]);
    await t.owner.api.put(`/api/products/${mug.id}`, { priceUsdc: '11.00' });
    const response = await t.shopper.post('/api/orders', body);
    expect(response.status).toBe(422);
    expect(response.body.error.message).toContain('do not match current prices');
  });

  test.each([
    ['customerEmail', 'nope', 'Invalid email address'],
    ['phone', '', 'Phone number is required'],
    ['firstName', '', 'First name is required'],
    ['lastName', '', 'Last name is required'],
    ['street', '', 'Street address is required'],
    ['city', '', 'City is required'],
    ['state', '', 'State is required'],
    ['zipCode', '', 'ZIP code is required'],
    ['shippingMethod', 'overnight', 'Shipping method must be free, standard or express'],
  ])('%s = %j -> 422 %s', async (field, value, message) => {
    const body: Record<string, unknown> = orderBody([[tote, 1]]);
    if (field === 'customerEmail' || field === 'shippingMethod') body[field] = value;
    else body.shippingAddress = { ...customer.shippingAddress, [field]: value };
    const response = await t.shopper.post('/api/orders', body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { code: 'validation_failed', message } });
  });

  test("an empty cart is 422 'Cart is empty'", async () => {
    const response = await t.shopper.post('/api/orders', { ...orderBody([[tote, 1]]), items: [] });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toBe('Cart is empty');
  });

  test('unpublished products and products of another store cannot be ordered', async () => {
    const hidden = await addProduct({ title: 'Secret', priceUsdc: '3.00', isPublished: false });
    const otherStore = (await t.other.api.post('/api/stores', storeForm())).body;
    const foreign = (
      await t.other.api.post('/api/products', {
        storeId: otherStore.id,
        title: 'Theirs',
        priceUsdc: '4',
      })
    ).body;
    for (const product of [hidden, foreign]) {
      const response = await t.shopper.post('/api/orders', orderBody([[product, 1]]));
      expect(response.status).toBe(422);
      expect(response.body.error.message).toBe(
        `"${product.title}" is no longer available; remove it from your cart and try again`,
      );
    }
  });

  test('quantities beyond the stock are refused, naming the product; untracked stock allows 99', async () => {
    // Note: an order holds its units once its shopper asks to pay (until paid or
    // STOCK_HOLD_MINUTES pass): holding 2 of the 5 hoodies leaves 3 to buy.
    const holding = await t.shopper.post('/api/orders', orderBody([[hoodie, 2]]));
    const asked = await t.shopper.post(`/api/orders/${holding.body.id}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    expect(asked.status).toBe(200);
    const tooMany = await t.shopper.post('/api/orders', orderBody([[hoodie, 4]]));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.message).toBe('Only 3 of "Hoodie" left in stock');
    // Two lines of the same product count together.
    const split = await t.shopper.post(
      '/api/orders',
      orderBody([
        [hoodie, 3],
        [hoodie, 3],
      ]),
    );
    expect(split.body.error.message).toBe('Only 3 of "Hoodie" left in stock');
    expect((await t.shopper.post('/api/orders', orderBody([[tote, 99]]))).status).toBe(201);
    const over = await t.shopper.post('/api/orders', orderBody([[tote, 100]]));
    expect(over.body.error.message).toBe('You can order at most 99 of "Tote"');
  });

  test('unknown stores are 404; closed stores and stores without a payout address are 422', async () => {
    const missing = orderBody([[tote, 1]], 'standard', '00000000-0000-4000-8000-000000000000');
    expect((await t.shopper.post('/api/orders', missing)).status).toBe(404);
    expect(
      (await t.shopper.post('/api/orders', orderBody([[tote, 1]], 'standard', 'abc'))).status,
    ).toBe(404);
    const closed = (await t.owner.api.post('/api/stores', storeForm({ isActive: false }))).body;
    const closedBody = orderBody([[tote, 1]], 'standard', closed.id);
    expect((await t.shopper.post('/api/orders', closedBody)).body.error.message).toBe(
      'This store is not taking orders right now',
    );
    const unpaid = (await t.owner.api.post('/api/stores', storeForm({ paymentAddress: '' }))).body;
    const unpaidBody = orderBody([[tote, 1]], 'standard', unpaid.id);
    expect((await t.shopper.post('/api/orders', unpaidBody)).body.error.message).toBe(
      'This store cannot accept payments yet; please contact the merchant',
    );
  });

  test('GET /api/orders/{id} of an unknown id is 404', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const response = await t.shopper.get(`/api/orders/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.message).toBe('Order not found');
    }
  });
});
