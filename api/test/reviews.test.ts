// Verified-purchase reviews on a real Postgres: only the buyer of a paid order holding the product
// (proved by the order's review token, which the merchant never sees) may review it, once; everyone reads the visible ones with count and average; the owner alone lists, hides
// and shows them (another merchant and an anonymous client are refused).
import { beforeAll, describe, expect, test } from 'bun:test';
import { REVIEW_LIMITS, REVIEW_MESSAGES, shippingFor, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq } from 'drizzle-orm';
import { orders } from '../src/db/schema.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
type Product = { id: string; title: string; priceUsdc: string };

let store: { id: string; slug: string };
let mug: Product;
let tea: Product;
let otherProduct: Product;

async function placeOrder(storeId: string, lines: Product[]) {
  const items = lines.map((p) => ({ ...p, productId: p.id, quantity: 1 }));
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  const response = await t.shopper.post('/api/orders', {
    storeId,
    ...customer,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    shippingMethod: 'free',
  });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
  return response.body as { id: string; reviewToken: string };
}
const markPaid = (orderId: string) =>
  t.testDb.database.db.update(orders).set({ status: 'paid' }).where(eq(orders.id, orderId));

type Placed = { id: string; reviewToken: string };
const review = (order: Placed, productId: string, patch: Record<string, unknown> = {}) => ({
  orderId: order.id,
  token: order.reviewToken,
  productId,
  rating: 5,
  body: 'Holds a lot of tea.',
  authorName: 'Ada',
  ...patch,
});

beforeAll(async () => {
  store = (await t.owner.api.post('/api/stores', storeForm())).body;
  const add = async (storeId: string, title: string, merchant = t.owner) =>
    (await merchant.api.post('/api/products', { storeId, title, priceUsdc: '10.00' }))
      .body as Product;
  mug = await add(store.id, 'Mug');
  tea = await add(store.id, 'Tea');
  const otherStore = (await t.other.api.post('/api/stores', storeForm())).body;
  otherProduct = await add(otherStore.id, 'Elsewhere', t.other);
});

describe('POST /api/reviews', () => {
  // Note: the second review has no title, posted as the form sends it (null).
  test('a pending order cannot review; once paid it reviews each of its products once', async () => {
    const order = await placeOrder(store.id, [mug, tea]);
    const early = await t.shopper.post('/api/reviews', review(order, mug.id));
    expect(early.status).toBe(422);
    expect(early.body.error.message).toBe(REVIEW_MESSAGES.notEligible);
    await markPaid(order.id);
    const posted = await t.shopper.post(
      '/api/reviews',
      review(order, mug.id, { title: ' Great ' }),
    );
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({
      productId: mug.id,
      rating: 5,
      title: 'Great',
      authorName: 'Ada',
      verifiedPurchase: true,
    });
    expect(posted.body.orderId).toBeUndefined();
    const again = await t.shopper.post('/api/reviews', review(order, mug.id, { rating: 1 }));
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(REVIEW_MESSAGES.duplicate);
    expect(
      (await t.shopper.post('/api/reviews', review(order, tea.id, { rating: 4, title: null })))
        .status,
    ).toBe(201);
  });

  test('refuses a product the order does not hold, unknown orders, and bad input', async () => {
    const order = await placeOrder(store.id, [mug]);
    await markPaid(order.id);
    const notInOrder = await t.shopper.post('/api/reviews', review(order, tea.id));
    expect(notInOrder.status).toBe(422);
    const foreign = await t.shopper.post('/api/reviews', review(order, otherProduct.id));
    expect(foreign.status).toBe(422);
    const unknown = await t.shopper.post(
      '/api/reviews',
      review({ ...order, id: crypto.randomUUID() }, mug.id),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toBe(REVIEW_MESSAGES.linkInvalid);
    for (const patch of [
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      { body: '  ' },
      { authorName: '' },
      { body: 'x'.repeat(REVIEW_LIMITS.body + 1) },
      { authorName: 'x'.repeat(REVIEW_LIMITS.authorName + 1) },
      { orderId: 'not-an-id' },
      { token: 'short' },
    ]) {
      const refused = await t.shopper.post('/api/reviews', review(order, mug.id, patch));
      expect(refused.status).toBe(422);
    }
    const stack = await t.shopper.post('/api/reviews', review(order, mug.id, { rating: 'x' }));
    expect(JSON.stringify(stack.body)).not.toContain('at ');
  });
});

describe('reading and moderating reviews', () => {
  let mugReviewId: string;
  beforeAll(async () => {
    const order = await placeOrder(store.id, [mug]);
    await markPaid(order.id);
    const posted = await t.shopper.post('/api/reviews', review(order, mug.id, { rating: 2 }));
    mugReviewId = posted.body.id;
  });

  test('everyone reads the visible reviews of a product with count and average', async () => {
    const read = await t.shopper.get(`/api/products/${mug.id}/reviews`);
    expect(read.status).toBe(200);
    // 5 (first test) and 2
    expect(read.body).toMatchObject({ count: 2, averageRating: 3.5 });
    expect(read.body.reviews.map((r: { rating: number }) => r.rating)).toEqual([2, 5]);
    const none = await t.shopper.get(`/api/products/${otherProduct.id}/reviews`);
    expect(none.body).toEqual({ reviews: [], count: 0, averageRating: null });
    expect(
      (await t.shopper.get(`/api/products/${mug.id}/reviews?limit=1`)).body.reviews,
    ).toHaveLength(1);
    expect((await t.shopper.get(`/api/products/${mug.id}/reviews?limit=500`)).status).toBe(422);
  });

  test('the owner lists and hides a review; hidden ones leave the public list and average', async () => {
    expect((await t.shopper.get(`/api/stores/${store.id}/reviews`)).status).toBe(401);
    expect((await t.other.api.get(`/api/stores/${store.id}/reviews`)).status).toBe(404);
    const list = await t.owner.api.get(`/api/stores/${store.id}/reviews`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(3);
    expect(list.body[0]).toMatchObject({ id: mugReviewId, productTitle: 'Mug', hiddenAt: null });

    expect((await t.shopper.patch(`/api/reviews/${mugReviewId}`, { hidden: true })).status).toBe(
      401,
    );
    expect((await t.other.api.patch(`/api/reviews/${mugReviewId}`, { hidden: true })).status).toBe(
      404,
    );
    const hidden = await t.owner.api.patch(`/api/reviews/${mugReviewId}`, { hidden: true });
    expect(hidden.status).toBe(200);
    expect(hidden.body.hiddenAt).toBeString();
    const read = await t.shopper.get(`/api/products/${mug.id}/reviews`);
    expect(read.body).toMatchObject({ count: 1, averageRating: 5 });
    expect(read.body.reviews.map((r: { id: string }) => r.id)).not.toContain(mugReviewId);

    // The merchant can hide, never edit.
    const edit = await t.owner.api.patch(`/api/reviews/${mugReviewId}`, {
      hidden: false,
      body: 'Best!',
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ hiddenAt: null, body: 'Holds a lot of tea.' });
    expect((await t.shopper.get(`/api/products/${mug.id}/reviews`)).body.count).toBe(2);
    expect(
      (await t.owner.api.patch(`/api/reviews/${crypto.randomUUID()}`, { hidden: true })).status,
    ).toBe(404);
  });
});

describe("the proof of purchase is the buyer's, not the merchant's", () => {
  test('the merchant knows the order id but never its review token, so cannot review it', async () => {
    // Note: a product of its own (after the tests that count the store's reviews).
    const cup = (
      await t.owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Cup',
        priceUsdc: '4.00',
      })
    ).body as Product;
    const order = await placeOrder(store.id, [cup]);
    expect(order.reviewToken).toMatch(/^[0-9a-f]{64}$/);
    await markPaid(order.id);
    // Everything the merchant (and anyone with the order id) can read leaves the token out.
    const seen = [
      await t.owner.api.get(`/api/orders/${order.id}`),
      await t.owner.api.get('/api/orders'),
      await t.owner.api.get(`/api/orders/${order.id}/activity`),
      await t.shopper.get(`/api/orders/${order.id}`),
    ];
    for (const response of seen) {
      expect(response.status).toBe(200);
      expect(JSON.stringify(response.body)).not.toContain(order.reviewToken);
    }
    for (const token of [undefined, '0'.repeat(64), order.reviewToken.replace(/.$/, 'x')]) {
      const forged = await t.owner.api.post('/api/reviews', {
        ...review(order, cup.id),
        token,
      });
      expect(forged.status).toBe(422);
      expect(forged.body.error.message).toBe(REVIEW_MESSAGES.linkInvalid);
    }
    // Another order's token proves nothing about this one.
    const other = await placeOrder(store.id, [cup]);
    const crossed = await t.shopper.post('/api/reviews', {
      ...review(order, cup.id),
      token: other.reviewToken,
    });
    expect(crossed.status).toBe(422);
    // The buyer's own token posts it.
    expect((await t.shopper.post('/api/reviews', review(order, cup.id))).status).toBe(201);
  });
});
