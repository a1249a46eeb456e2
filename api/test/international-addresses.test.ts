// Shipping addresses outside the United States on a real Postgres: universal and store orders keep
// the country, an address without one is a US address under the same rules as before, an unknown
// country is refused, and the webhook payload carries the country (US for orders stored before).
import { beforeAll, describe, expect, test } from 'bun:test';
import { shippingFor, storeCheckoutTotals, WEBHOOK_PAYLOAD_SCHEMAS } from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { orders, paymentWallets } from '../src/db/schema.ts';
import { serializePayload } from '../src/webhooks/events.ts';
import { storeForm } from './support/client.ts';
import { STACK_TIMEOUT_MS } from './support/database.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner'] });
let store: { id: string };
let tote: { id: string; title: string; priceUsdc: string };

/** A German address: a postcode and no region. */
const berlin = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.de',
  phone: '+49 30 1234567',
  street: 'Unter den Linden 1',
  city: 'Berlin',
  country: 'DE' as const,
  state: '',
  zipCode: '10115',
};

/** A UK address: a county and a spaced postcode. */
const london = {
  ...berlin,
  street: '10 Downing Street',
  city: 'London',
  country: 'GB' as const,
  state: 'Greater London',
  zipCode: 'SW1A 1AA',
};

/** A universal order body for `shippingAddress`. */
const universalBody = (shippingAddress: Record<string, unknown>) => ({
  externalOrderId: `INTL-${crypto.randomUUID().slice(0, 8)}`,
  storeName: 'Weltladen',
  storePaymentAddress: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
  customerEmail: 'grace@example.de',
  shippingAddress,
  items: [{ productId: 'universal-1-abc', title: 'Mug', priceUsdc: '7.50', quantity: 2 }],
  subtotalUsdc: '15.00',
  shippingUsdc: '0.00',
  totalUsdc: '15.00',
});

/** A store order body of one tote for `shippingAddress`. */
function storeBody(shippingAddress: Record<string, unknown>) {
  const items = [{ productId: tote.id, title: tote.title, priceUsdc: tote.priceUsdc, quantity: 1 }];
  const totals = storeCheckoutTotals(items, shippingFor('standard'));
  return {
    storeId: store.id,
    customerEmail: 'grace@example.de',
    shippingAddress,
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: totals.shippingUsdc,
    totalUsdc: totals.totalUsdc,
  };
}

const storedAddress = async (orderId: string) =>
  (await t.testDb.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]
    ?.shippingAddress;

beforeAll(async () => {
  store = (await t.owner.api.post('/api/stores', storeForm())).body;
  tote = (
    await t.owner.api.post('/api/products', { storeId: store.id, title: 'Tote', priceUsdc: '7.50' })
  ).body;
}, STACK_TIMEOUT_MS);

describe('addresses outside the United States', () => {
  test('a universal order stores and returns a German address with its country', async () => {
    const created = await t.shopper.post('/api/universal-orders', universalBody(berlin));
    expect(created.status).toBe(201);
    const orderId = created.body.order.id as string;
    expect(await storedAddress(orderId)).toEqual(berlin);
    const read = await t.shopper.get(`/api/orders/${orderId}`, {
      headers: { 'x-buyer-token': created.body.order.reviewToken },
    });
    expect(read.body.shippingAddress).toEqual(berlin);
  });

  test('a store order stores and returns a UK address with its country', async () => {
    const created = await t.shopper.post('/api/orders', storeBody(london));
    expect(created.status).toBe(201);
    expect(created.body.shippingAddress).toEqual(london);
    expect(await storedAddress(created.body.id)).toEqual(london);
  });

  test('an address without a country is a US address, under the US rules', async () => {
    const { country: _, ...noCountry } = customer.shippingAddress;
    const created = await t.shopper.post('/api/orders', storeBody(noCountry));
    expect(created.status).toBe(201);
    expect(created.body.shippingAddress).toEqual({ ...noCountry, country: 'US' });

    const bavaria = { ...noCountry, state: 'Bavaria' };
    const refused = await t.shopper.post('/api/universal-orders', universalBody(bavaria));
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe('State must be a US state code');
    const noZip = await t.shopper.post('/api/orders', storeBody({ ...noCountry, zipCode: '' }));
    expect(noZip.body.error.message).toBe('ZIP code is required');
  });

  test('an unknown country is refused', async () => {
    for (const country of ['XX', 'Germany', 'de']) {
      const response = await t.shopper.post('/api/orders', storeBody({ ...berlin, country }));
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: { code: 'validation_failed', message: 'Choose a country from the list' },
      });
    }
  });

  test('the webhook payload carries the country, US for an order stored without one', async () => {
    const created = await t.shopper.post('/api/universal-orders', universalBody(berlin));
    const orderId = created.body.order.id as string;
    const assigned = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
      paymentChain: 'base',
    });
    expect(assigned.status).toBeLessThan(300);
    const db = t.testDb.database.db;
    const [wallet] = await db
      .select()
      .from(paymentWallets)
      .where(eq(paymentWallets.orderId, orderId));
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (!order || !wallet) throw new Error('order or wallet missing');
    const paidSchema = WEBHOOK_PAYLOAD_SCHEMAS['order.paid'];
    const payload = (row: typeof order) =>
      v.parse(paidSchema, JSON.parse(serializePayload('order.paid', new Date(), row, wallet)));
    expect(payload(order).customer.shippingAddress).toEqual(berlin);

    const { country: _, ...before } = customer.shippingAddress;
    const legacy = { ...order, shippingAddress: before as typeof order.shippingAddress };
    expect(JSON.parse(serializePayload('order.paid', new Date(), legacy, wallet))).toMatchObject({
      customer: { shippingAddress: { ...before, country: 'US' } },
    });
  });
});
