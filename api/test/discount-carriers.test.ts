// Discount codes carried by a checkout session on a real Postgres: an integrator names one of its
// store's codes when it creates the session; the server checks it then (unknown, another store's,
// expired, below its minimum: 422 with the reason) and again, under the code's lock, when the
// shopper's order is made, where the shared totals take it off (the browser sends no amount). The
// order, the owner's and the hosted page's reads show it; the last use goes to one order; another
// merchant and an anonymous client are refused.
import { describe, expect, test } from 'bun:test';
import {
  CHECKOUT_SESSION_MESSAGES,
  checkoutSessionTotal,
  DISCOUNT_MESSAGES,
  formatUsdc,
  parseUsdc,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

const refusal = (response: { status: number; body: { error?: { message: string } } }) => [
  response.status,
  response.body.error?.message,
];

/** A store of `owner` with the discount codes given (code, then settings). */
async function storeWithCodes(
  owner: typeof t.owner,
  codes: Record<string, Record<string, unknown>> = {},
) {
  const store = (await owner.api.post('/api/stores', storeForm())).body as { id: string };
  for (const [code, settings] of Object.entries(codes)) {
    const made = await owner.api.post(`/api/stores/${store.id}/discounts`, { code, ...settings });
    expect(made.status).toBe(201);
  }
  return store;
}

const tenPercent = { kind: 'percent', percentBps: 1000 };

/** A session body: 2 × 20.00 and 3.50 (43.50), tax 1.25, a 4.00 shipping option. */
const sessionBody = (storeId: string, patch: Record<string, unknown> = {}) => ({
  storeId,
  items: [
    { title: 'Linen shirt', priceUsdc: '20.00', quantity: 2, productId: 'sku-shirt' },
    { title: 'Socks', priceUsdc: '3.50', quantity: 1 },
  ],
  taxUsdc: '1.25',
  shippingOptions: [{ id: 'std', label: 'Standard', priceUsdc: '4.00' }],
  ...patch,
});

const checkoutForm = (patch: Record<string, unknown> = {}) => ({
  customerEmail: customer.customerEmail,
  ...customer.shippingAddress,
  shippingOptionId: 'std',
  ...patch,
});

describe('a checkout session carrying a discount code', () => {
  test('checked at creation, taken off in the shared totals when the order is made, shown on the session and the order', async () => {
    const store = await storeWithCodes(t.owner, { SAVE10: tenPercent });
    const created = await t.owner.api.post(
      '/api/checkout-sessions',
      sessionBody(store.id, { discountCode: ' save10 ' }),
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const owned = await t.owner.api.get(`/api/checkout-sessions/${id}`);
    expect(owned.body).toMatchObject({
      subtotalUsdc: '43.50',
      discountCode: 'SAVE10',
      discountUsdc: '4.35',
      taxUsdc: '1.25',
    });
    const hosted = await t.shopper.get(`/api/checkout-sessions/${id}/public`);
    expect(hosted.body).toMatchObject({ discountCode: 'SAVE10', discountUsdc: '4.35' });

    // The browser's figures are not read: an amount it slips in changes nothing.
    const submitted = await t.shopper.post(
      `/api/checkout-sessions/${id}/complete`,
      checkoutForm({ discountUsdc: '43.50', totalUsdc: '0.01' }),
    );
    expect(submitted.status).toBe(201);
    const order = (await t.owner.api.get(`/api/orders/${submitted.body.orderId}`)).body;
    const total = checkoutSessionTotal(
      parseUsdc('43.50'),
      parseUsdc('4.35'),
      parseUsdc('4.00'),
      parseUsdc('1.25'),
    );
    expect(formatUsdc(total)).toBe('44.40');
    expect(order).toMatchObject({
      subtotalUsdc: '43.50',
      discountCode: 'SAVE10',
      discountUsdc: '4.35',
      shippingUsdc: '4.00',
      taxUsdc: '1.25',
      totalUsdc: '44.40',
    });
    // The code counts the order as a use, as a storefront order with it would.
    const [code] = (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body;
    expect(code).toMatchObject({ code: 'SAVE10', uses: 1 });
  });

  test('refused at creation with the reason: unknown, another store’s, inactive, expired, below its minimum, for none of the lines', async () => {
    const store = await storeWithCodes(t.owner, {
      OLD10: { ...tenPercent, expiresAt: '2020-01-01T00:00:00Z' },
      OFF10: { ...tenPercent, isActive: false },
      BIG10: { ...tenPercent, minimumSubtotalUsdc: '100.00' },
    });
    const products = await t.owner.api.post('/api/products', {
      storeId: store.id,
      title: 'Hat',
      priceUsdc: '9.00',
    });
    await t.owner.api.post(`/api/stores/${store.id}/discounts`, {
      code: 'HATS',
      ...tenPercent,
      productIds: [products.body.id],
    });
    // Merchant B's store has a code named like one A might guess.
    await storeWithCodes(t.other, { THEIRS: tenPercent });
    const create = (discountCode: string) =>
      t.owner.api.post('/api/checkout-sessions', sessionBody(store.id, { discountCode }));
    expect(refusal(await create('NOPE1'))).toEqual([422, DISCOUNT_MESSAGES.unknown]);
    expect(refusal(await create('THEIRS'))).toEqual([422, DISCOUNT_MESSAGES.unknown]);
    expect(refusal(await create('OFF10'))).toEqual([422, DISCOUNT_MESSAGES.inactive]);
    expect(refusal(await create('OLD10'))).toEqual([422, DISCOUNT_MESSAGES.expired]);
    expect(refusal(await create('BIG10'))).toEqual([422, DISCOUNT_MESSAGES.minimum('100.00')]);
    expect(refusal(await create('HATS'))).toEqual([422, DISCOUNT_MESSAGES.noProducts]);
    expect(refusal(await create('x'))).toEqual([422, DISCOUNT_MESSAGES.code]);
  });

  test('another merchant and an anonymous client cannot make a session with the store’s code', async () => {
    const store = await storeWithCodes(t.owner, { MINE10: tenPercent });
    const body = sessionBody(store.id, { discountCode: 'MINE10' });
    expect(refusal(await t.other.api.post('/api/checkout-sessions', body))).toEqual([
      404,
      CHECKOUT_SESSION_MESSAGES.storeNotFound,
    ]);
    expect((await t.shopper.post('/api/checkout-sessions', body)).status).toBe(401);
    const [code] = (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body;
    expect(code.uses).toBe(0);
  });

  test('the last use goes to one order: two sessions with a one-use code, the second checkout is refused', async () => {
    const store = await storeWithCodes(t.owner, { ONCE: { ...tenPercent, maxUses: 1 } });
    const make = async () =>
      (
        await t.owner.api.post(
          '/api/checkout-sessions',
          sessionBody(store.id, { discountCode: 'ONCE' }),
        )
      ).body.id as string;
    const [first, second] = [await make(), await make()];
    const submits = await Promise.all(
      [first, second].map((id) =>
        t.shopper.post(`/api/checkout-sessions/${id}/complete`, checkoutForm()),
      ),
    );
    expect(submits.map((r) => r.status).sort()).toEqual([201, 422]);
    const refused = submits.find((r) => r.status === 422);
    expect(refused?.body.error.message).toBe(DISCOUNT_MESSAGES.usedUp);
    const [code] = (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body;
    expect(code.uses).toBe(1);
    // The refused session is still open: nothing was made for it.
    const left = [first, second][submits.findIndex((r) => r.status === 422)];
    expect((await t.owner.api.get(`/api/checkout-sessions/${left}`)).body).toMatchObject({
      status: 'open',
      order: null,
    });
  });
});
