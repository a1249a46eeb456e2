// Discount codes carried by a checkout session or a signed payment link, on a real Postgres. An
// integrator names one of its store's codes when it creates the session, a merchant when it signs a
// link; the server checks it then (unknown, another store's, expired, below its minimum: 422 with
// the reason) and again, under the code's lock, when the shopper's order is made, where the shared
// totals take it off (never the browser's amount). The order and the reads show it; the last use
// goes to one order; another merchant and an anonymous client are refused; a link whose code was
// changed, added or dropped is refused as altered, and a hand-made link's code is not honoured.
import { describe, expect, test } from 'bun:test';
import {
  CHECKOUT_SESSION_MESSAGES,
  checkoutSessionTotal,
  DISCOUNT_MESSAGES,
  type DiscountRule,
  formatUsdc,
  parseCheckoutParams,
  parseUsdc,
  SIGNED_LINK_MESSAGES,
  type UniversalCheckoutForm,
} from '@store/shared';
import { buildUniversalOrderBody } from '@store/shared/universal-order';
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

  test('a code that leaves nothing to pay makes no session: 422 at creation, and at checkout when the code grew meanwhile', async () => {
    const store = await storeWithCodes(t.owner, { ALL: { kind: 'percent', percentBps: 10_000 } });
    const free = (patch: Record<string, unknown>) =>
      sessionBody(store.id, {
        taxUsdc: '0',
        shippingOptions: [
          { id: 'pickup', label: 'Pick up', priceUsdc: '0' },
          { id: 'std', label: 'Standard', priceUsdc: '4.00' },
        ],
        ...patch,
      });
    expect(
      refusal(await t.owner.api.post('/api/checkout-sessions', free({ discountCode: 'ALL' }))),
    ).toEqual([422, CHECKOUT_SESSION_MESSAGES.zeroTotal]);
    // With tax left to pay, the same code makes a session.
    const taxed = await t.owner.api.post(
      '/api/checkout-sessions',
      free({ discountCode: 'ALL', taxUsdc: '0.50' }),
    );
    expect(taxed.status).toBe(201);

    // A half-off code made into a whole-off one after the session was made: the checkout that
    // would owe nothing is refused, and the session stays open.
    const made = (
      await t.owner.api.post(`/api/stores/${store.id}/discounts`, {
        code: 'HALF2',
        kind: 'percent',
        percentBps: 5000,
      })
    ).body as { id: string };
    const half = await t.owner.api.post('/api/checkout-sessions', free({ discountCode: 'HALF2' }));
    expect(half.status).toBe(201);
    const edited = await t.owner.api.put(`/api/stores/${store.id}/discounts/${made.id}`, {
      code: 'HALF2',
      kind: 'percent',
      percentBps: 10_000,
    });
    expect(edited.status).toBe(200);
    const checkout = await t.shopper.post(
      `/api/checkout-sessions/${half.body.id}/complete`,
      checkoutForm({ shippingOptionId: 'pickup' }),
    );
    expect(refusal(checkout)).toEqual([422, CHECKOUT_SESSION_MESSAGES.zeroTotal]);
    expect((await t.owner.api.get(`/api/checkout-sessions/${half.body.id}`)).body.status).toBe(
      'open',
    );
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

/** The query of a link to sign: 2 × 12.50 and 3.00 (28.00), standard shipping at 4.00. */
const linkQuery = (patch: Record<string, string> = {}) =>
  new URLSearchParams({
    storeName: 'Corner Shop',
    items: JSON.stringify([
      { title: 'Mug', priceUsdc: '12.50', quantity: 2 },
      { title: 'Tea', priceUsdc: '3.00', quantity: 1 },
    ]),
    externalOrderId: `ext-${crypto.randomUUID()}`,
    shipping: 'true',
    standardShipping: '4.00',
    ...patch,
  }).toString();

const linkForm: UniversalCheckoutForm = {
  customerEmail: customer.customerEmail,
  ...customer.shippingAddress,
  shippingMethod: 'standard',
};

/** The order body the checkout page builds from `query`, with the code's rule it was answered. */
function linkOrder(query: string, rule?: DiscountRule, extra: Record<string, unknown> = {}) {
  const parsed = parseCheckoutParams(query);
  if (!parsed.ok) throw new Error(parsed.error);
  return {
    ...buildUniversalOrderBody(parsed.value, linkForm, Date.now(), Math.random, rule),
    signedLink: query,
    ...extra,
  };
}

/** What the checkout page asks the API about a code. */
async function ruleOf(storeId: string, code: string): Promise<DiscountRule> {
  const answer = await t.shopper.post('/api/discount-codes/check', { storeId, code });
  expect(answer.status).toBe(200);
  return answer.body;
}

const signLink = (owner: typeof t.owner, storeId: string, query: string) =>
  owner.api.post(`/api/stores/${storeId}/signed-links`, { link: query });

/** Replaces (or, with null, drops) one parameter of a query. */
function edit(query: string, name: string, value: string | null) {
  const params = new URLSearchParams(query);
  if (value === null) params.delete(name);
  else params.set(name, value);
  return params.toString();
}

const placeOrder = (body: unknown) => t.shopper.post('/api/universal-orders', body);

describe('a signed payment link carrying a discount code', () => {
  test('signed with the code, the order takes it off in the shared totals, shown on the order', async () => {
    const store = await storeWithCodes(t.owner, { LINK10: tenPercent });
    const signed = await signLink(t.owner, store.id, linkQuery({ discountCode: 'link10' }));
    expect(signed.status).toBe(201);
    const query = signed.body.query as string;
    expect(new URLSearchParams(query).get('discountCode')).toBe('LINK10');

    const rule = await ruleOf(store.id, 'LINK10');
    const body = linkOrder(query, rule);
    expect(body).toMatchObject({
      subtotalUsdc: '28.00',
      discountCode: 'LINK10',
      discountUsdc: '2.80',
      shippingUsdc: '4.00',
      totalUsdc: '29.20',
    });
    const made = await placeOrder(body);
    expect(made.status).toBe(201);
    const order = (await t.owner.api.get(`/api/orders/${made.body.order.id}`)).body;
    expect(order).toMatchObject({
      storeId: store.id,
      subtotalUsdc: '28.00',
      discountCode: 'LINK10',
      discountUsdc: '2.80',
      shippingUsdc: '4.00',
      totalUsdc: '29.20',
    });
    const [code] = (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body;
    expect(code).toMatchObject({ code: 'LINK10', uses: 1 });
  });

  test('signing is refused with the reason: unknown, another store’s, expired, for none of the lines; another merchant and anonymous refused', async () => {
    const store = await storeWithCodes(t.owner, {
      GONE10: { ...tenPercent, expiresAt: '2020-01-01T00:00:00Z' },
      MANY10: { ...tenPercent, minimumSubtotalUsdc: '500.00' },
    });
    const hat = await t.owner.api.post('/api/products', {
      storeId: store.id,
      title: 'Hat',
      priceUsdc: '9.00',
    });
    await t.owner.api.post(`/api/stores/${store.id}/discounts`, {
      code: 'HATS10',
      ...tenPercent,
      productIds: [hat.body.id],
    });
    await storeWithCodes(t.other, { OTHER10: tenPercent });
    const sign = (discountCode: string) => signLink(t.owner, store.id, linkQuery({ discountCode }));
    expect(refusal(await sign('NOPE10'))).toEqual([422, DISCOUNT_MESSAGES.unknown]);
    expect(refusal(await sign('OTHER10'))).toEqual([422, DISCOUNT_MESSAGES.unknown]);
    expect(refusal(await sign('GONE10'))).toEqual([422, DISCOUNT_MESSAGES.expired]);
    expect(refusal(await sign('MANY10'))).toEqual([422, DISCOUNT_MESSAGES.minimum('500.00')]);
    expect(refusal(await sign('HATS10'))).toEqual([422, DISCOUNT_MESSAGES.noProducts]);

    const mine = await storeWithCodes(t.owner, { MINE20: tenPercent });
    const link = { link: linkQuery({ discountCode: 'MINE20' }) };
    expect((await t.other.api.post(`/api/stores/${mine.id}/signed-links`, link)).status).toBe(404);
    expect((await t.shopper.post(`/api/stores/${mine.id}/signed-links`, link)).status).toBe(401);
  });

  test('a link whose code was changed, added or dropped is refused as altered; a hand-made link’s code is not honoured; the browser’s amount is checked', async () => {
    const store = await storeWithCodes(t.owner, { SMALL5: tenPercent, HUGE90: tenPercent });
    await t.owner.api.put(
      `/api/stores/${store.id}/discounts/${
        (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body.find(
          (c: { code: string }) => c.code === 'HUGE90',
        ).id
      }`,
      { code: 'HUGE90', kind: 'percent', percentBps: 9000 },
    );
    const withCode = (await signLink(t.owner, store.id, linkQuery({ discountCode: 'SMALL5' }))).body
      .query as string;
    const without = (await signLink(t.owner, store.id, linkQuery())).body.query as string;
    const huge = await ruleOf(store.id, 'HUGE90');
    const small = await ruleOf(store.id, 'SMALL5');
    const altered = [422, SIGNED_LINK_MESSAGES.altered];

    // The code swapped in the link, dropped from it, or added to a link signed without one.
    const swapped = edit(withCode, 'discountCode', 'HUGE90');
    expect(refusal(await placeOrder(linkOrder(swapped, huge)))).toEqual(altered);
    const dropped = edit(withCode, 'discountCode', null);
    expect(refusal(await placeOrder(linkOrder(dropped)))).toEqual(altered);
    const added = edit(without, 'discountCode', 'HUGE90');
    expect(refusal(await placeOrder(linkOrder(added, huge)))).toEqual(altered);
    // The body naming another code (or none) than the untouched link's.
    expect(
      refusal(await placeOrder({ ...linkOrder(withCode, small), discountCode: 'HUGE90' })),
    ).toEqual(altered);
    const { discountCode: _, discountUsdc: __, ...noCode } = linkOrder(withCode, small);
    expect(refusal(await placeOrder(noCode))).toEqual(altered);
    // The browser's amount and total are checked against the server's.
    const greedy = await placeOrder(
      linkOrder(withCode, small, { discountUsdc: '25.20', totalUsdc: '6.80' }),
    );
    expect(greedy.status).toBe(422);
    expect(greedy.body.error.message).toContain(
      'expected subtotal 28.00, shipping 4.00, total 29.20',
    );

    // A hand-made link naming a store's code: refused, nothing is discounted.
    const handMade = linkQuery({
      discountCode: 'HUGE90',
      paymentAddress: (await t.owner.api.get(`/api/stores/${store.id}`)).body.paymentAddress,
    });
    const parsed = parseCheckoutParams(handMade);
    if (!parsed.ok) throw new Error(parsed.error);
    const unsigned = await placeOrder(
      buildUniversalOrderBody(parsed.value, linkForm, Date.now(), Math.random, huge),
    );
    expect(refusal(unsigned)).toEqual([422, SIGNED_LINK_MESSAGES.discountUnsigned]);
    const codes = (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body;
    expect(codes.map((c: { uses: number }) => c.uses)).toEqual([0, 0]);
  });

  test('the last use goes to one order: two shoppers on a one-use link', async () => {
    const store = await storeWithCodes(t.owner, { LAST1: { ...tenPercent, maxUses: 1 } });
    const query = (await signLink(t.owner, store.id, linkQuery({ discountCode: 'LAST1' }))).body
      .query as string;
    const rule = await ruleOf(store.id, 'LAST1');
    const answers = await Promise.all([1, 2].map(() => placeOrder(linkOrder(query, rule))));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect(answers.find((a) => a.status === 422)?.body.error.message).toBe(
      DISCOUNT_MESSAGES.usedUp,
    );
    const [code] = (await t.owner.api.get(`/api/stores/${store.id}/discounts`)).body;
    expect(code.uses).toBe(1);
  });
});
