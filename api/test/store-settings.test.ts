// Store settings on a real Postgres: the owner edits tax rate, shipping methods, shipping time and
// return policy; the public store read carries them; orders are priced with them.
import { describe, expect, test } from 'bun:test';
import { parseUsdc, STORE_SETTINGS_MESSAGES, storeCheckoutTotals } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

const OWN_SHIPPING = {
  free: { enabled: false, priceUsdc: '0.00', delivery: '10-14 days' },
  standard: { enabled: true, priceUsdc: '4.50', delivery: '3-5 days' },
  express: { enabled: true, priceUsdc: '9.00', delivery: 'Next day' },
};

async function storeWithMug() {
  const store = (await t.owner.api.post('/api/stores', storeForm())).body as {
    id: string;
    slug: string;
    updatedAt: string;
  };
  const mug = (
    await t.owner.api.post('/api/products', { storeId: store.id, title: 'Mug', priceUsdc: '20.00' })
  ).body as { id: string; title: string; priceUsdc: string };
  return { store, mug };
}

const orderBody = (
  storeId: string,
  mug: { id: string; title: string; priceUsdc: string },
  shippingMethod: 'free' | 'standard' | 'express',
  amounts: { shippingUsdc: string; taxBps: number },
) => {
  const items = [{ productId: mug.id, title: mug.title, priceUsdc: mug.priceUsdc, quantity: 2 }];
  const totals = storeCheckoutTotals(items, parseUsdc(amounts.shippingUsdc), amounts.taxBps);
  return {
    storeId,
    ...customer,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
    shippingMethod,
  };
};

describe('store settings', () => {
  test('a new store charges no tax and ships free only until its merchant sets them', async () => {
    // The store form without settings, as the admin's Create Store dialog sends it.
    const bare = storeForm({ taxRateBps: undefined, shippingOptions: undefined });
    const created = await t.owner.api.post('/api/stores', bare);
    expect(created.status).toBe(201);
    const store = created.body as { id: string; slug: string };
    const freeOnly = {
      free: { enabled: true, priceUsdc: '0.00', delivery: '7-10 business days' },
      standard: { enabled: false, priceUsdc: '12.99', delivery: '5-7 business days' },
      express: { enabled: false, priceUsdc: '24.99', delivery: '2-3 business days' },
    };
    const read = await t.shopper.get(`/api/stores/${store.slug}`);
    expect(read.body).toMatchObject({
      taxRateBps: 0,
      shippingOptions: freeOnly,
      shippingTime: null,
      returnPolicyDays: null,
      verified: false,
    });
    const mug = (
      await t.owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Mug',
        priceUsdc: '20.00',
      })
    ).body as { id: string; title: string; priceUsdc: string };
    // The former 8% and paid shipping are nobody's choice here: refused.
    for (const [method, shippingUsdc, taxBps] of [
      ['free', '0.00', 800],
      ['standard', '12.99', 0],
    ] as const) {
      const refused = await t.shopper.post(
        '/api/orders',
        orderBody(store.id, mug, method, { shippingUsdc, taxBps }),
      );
      expect(refused.status).toBe(422);
    }
    const placed = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, 'free', { shippingUsdc: '0.00', taxBps: 0 }),
    );
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({
      subtotalUsdc: '40.00',
      shippingUsdc: '0.00',
      taxUsdc: '0.00',
      totalUsdc: '40.00',
    });
    // Once the merchant sets a rate, it applies.
    await t.owner.api.put(`/api/stores/${store.id}`, { taxRateBps: 800 });
    expect((await t.shopper.get(`/api/stores/${store.slug}`)).body.taxRateBps).toBe(800);
  });

  test('a store may be created with its settings, checked as an edit checks them', async () => {
    const created = await t.owner.api.post(
      '/api/stores',
      storeForm({ taxRateBps: 725, shippingOptions: OWN_SHIPPING }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ taxRateBps: 725, shippingOptions: OWN_SHIPPING });
    const tooHigh = await t.owner.api.post('/api/stores', storeForm({ taxRateBps: 9000 }));
    expect(tooHigh.status).toBe(422);
    expect(JSON.stringify(tooHigh.body)).toContain(STORE_SETTINGS_MESSAGES.taxRate);
  });

  test('the owner sets them; the public read carries them; others are refused', async () => {
    const { store } = await storeWithMug();
    const settings = {
      taxRateBps: 500,
      shippingOptions: OWN_SHIPPING,
      shippingTime: '1-3 days',
      returnPolicyDays: 0,
    };
    expect((await t.shopper.put(`/api/stores/${store.id}`, settings)).status).toBe(401);
    expect((await t.other.api.put(`/api/stores/${store.id}`, settings)).status).toBe(404);
    const saved = await t.owner.api.put(`/api/stores/${store.id}`, settings);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject(settings);
    const read = await t.shopper.get(`/api/stores/${store.slug}`);
    expect(read.body).toMatchObject(settings);
    expect(read.body.paymentAddress).toBeUndefined();
    // null puts the defaults back
    const reset = await t.owner.api.put(`/api/stores/${store.id}`, {
      shippingOptions: null,
      returnPolicyDays: null,
    });
    expect(reset.body).toMatchObject({
      shippingOptions: null,
      returnPolicyDays: null,
      taxRateBps: 500,
    });
  });

  test('refuses settings out of range with the field message', async () => {
    const { store } = await storeWithMug();
    const tooHigh = await t.owner.api.put(`/api/stores/${store.id}`, { taxRateBps: 9000 });
    expect(tooHigh.status).toBe(422);
    expect(JSON.stringify(tooHigh.body)).toContain(STORE_SETTINGS_MESSAGES.taxRate);
    const none = await t.owner.api.put(`/api/stores/${store.id}`, {
      shippingOptions: {
        free: { ...OWN_SHIPPING.free, enabled: false },
        standard: { ...OWN_SHIPPING.standard, enabled: false },
        express: { ...OWN_SHIPPING.express, enabled: false },
      },
    });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain(STORE_SETTINGS_MESSAGES.noneEnabled);
    const long = await t.owner.api.put(`/api/stores/${store.id}`, { shippingTime: 'x'.repeat(61) });
    expect(long.status).toBe(422);
  });

  test("orders are priced with the store's tax rate and shipping prices", async () => {
    const { store, mug } = await storeWithMug();
    await t.owner.api.put(`/api/stores/${store.id}`, {
      taxRateBps: 500,
      shippingOptions: OWN_SHIPPING,
    });
    // the default 12.99 and 8% no longer add up
    const spec = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, 'standard', { shippingUsdc: '12.99', taxBps: 800 }),
    );
    expect(spec.status).toBe(422);
    const own = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, 'standard', { shippingUsdc: '4.50', taxBps: 500 }),
    );
    expect(own.status).toBe(201);
    // 40.00 + 4.50 + 5% of 40.00
    expect(own.body).toMatchObject({
      subtotalUsdc: '40.00',
      shippingUsdc: '4.50',
      taxUsdc: '2.00',
      totalUsdc: '46.50',
    });
    const free = await t.shopper.post(
      '/api/orders',
      orderBody(store.id, mug, 'free', { shippingUsdc: '0', taxBps: 500 }),
    );
    expect(free.status).toBe(422);
    expect(JSON.stringify(free.body)).toContain(STORE_SETTINGS_MESSAGES.methodOff('Free'));
  });
});
