// Discount codes on a real Postgres: the merchant's routes (create, list with figures, edit,
// deactivate, delete; another merchant 404, an anonymous client 401), a code that lowers the total
// the server computes and is stored on the order once, the refusals a shopper reads (unknown,
// expired, inactive, used up in all and per customer, below the minimum, none of its products),
// a tampered total refused, and two shoppers racing for the last use: one order, one refusal.
import { describe, expect, test } from 'bun:test';
import {
  DISCOUNT_MESSAGES,
  type DiscountRule,
  discountAmount,
  parseUsdc,
  storeCheckoutTotals,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import { sql } from 'drizzle-orm';
import { ORDER_MESSAGES } from '../src/modules/orders/model.ts';
import { storeForm } from './support/client.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });

interface Product {
  id: string;
  title: string;
  priceUsdc: string;
}

/** A store (8% tax, free shipping offered) with a 20.00 mug and a 5.00 pin. */
async function shop() {
  const store = (await t.owner.api.post('/api/stores', storeForm())).body as { id: string };
  const product = async (title: string, priceUsdc: string) =>
    (await t.owner.api.post('/api/products', { storeId: store.id, title, priceUsdc }))
      .body as Product;
  return { store, mug: await product('Mug', '20.00'), pin: await product('Pin', '5.00') };
}

const code = (patch: Record<string, unknown> = {}) => ({
  code: 'save10',
  kind: 'percent',
  percentBps: 1000,
  ...patch,
});

/** An order body for `lines`, totals computed by the shared code with `rule` as the browser does. */
function orderBody(
  storeId: string,
  lines: Array<[Product, number]>,
  rule?: DiscountRule,
  email = customer.customerEmail,
) {
  const items = lines.map(([p, quantity]) => ({
    productId: p.id,
    title: p.title,
    priceUsdc: p.priceUsdc,
    quantity,
  }));
  const off = rule ? discountAmount(items, rule) : 0n;
  const totals = storeCheckoutTotals(items, 0n, 800, off);
  return {
    storeId,
    customerEmail: email,
    shippingAddress: { ...customer.shippingAddress, email },
    items,
    subtotalUsdc: totals.subtotalUsdc,
    shippingUsdc: '0.00',
    totalUsdc: totals.totalUsdc,
    shippingMethod: 'free',
    ...(rule ? { discountCode: rule.code, discountUsdc: totals.discountUsdc } : {}),
  };
}

const refusal = (response: { status: number; body: { error?: { message: string } } }) => [
  response.status,
  response.body.error?.message,
];

describe('discount codes', () => {
  test('the merchant creates, lists, edits, deactivates and deletes codes; others are refused', async () => {
    const { store, mug } = await shop();
    const path = `/api/stores/${store.id}/discounts`;
    const created = await t.owner.api.post(path, code({ productIds: [mug.id], maxUses: 5 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'SAVE10',
      kind: 'percent',
      percentBps: 1000,
      amountUsdc: null,
      minimumSubtotalUsdc: '0.00',
      productIds: [mug.id],
      maxUses: 5,
      isActive: true,
      uses: 0,
      paidOrders: 0,
      discountedUsdc: '0.00',
    });
    // The same code in any case is one code.
    expect(refusal(await t.owner.api.post(path, code({ code: 'Save10' })))).toEqual([
      409,
      DISCOUNT_MESSAGES.duplicate,
    ]);
    // Caps and rules of the body.
    expect((await t.owner.api.post(path, code({ code: 'x'.repeat(33) }))).status).toBe(422);
    expect(refusal(await t.owner.api.post(path, code({ percentBps: 0 })))[0]).toBe(422);
    expect(
      refusal(await t.owner.api.post(path, { code: 'FIVE', kind: 'fixed', amountUsdc: '0.00' })),
    ).toEqual([422, DISCOUNT_MESSAGES.amount]);
    const foreign = (await t.other.api.post('/api/stores', storeForm())).body as { id: string };
    const foreignProduct = (
      await t.other.api.post('/api/products', {
        storeId: foreign.id,
        title: 'Hat',
        priceUsdc: '1.00',
      })
    ).body as Product;
    expect(
      refusal(await t.owner.api.post(path, code({ productIds: [foreignProduct.id] }))),
    ).toEqual([422, DISCOUNT_MESSAGES.unknownProduct]);
    // JSON only.
    const form = await t.owner.api.call('POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: undefined,
    });
    expect(form.status).toBeGreaterThanOrEqual(400);

    const id = created.body.id as string;
    const edited = await t.owner.api.put(`${path}/${id}`, {
      ...code({ code: 'SAVE15', percentBps: 1500 }),
      isActive: false,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ code: 'SAVE15', percentBps: 1500, isActive: false });
    expect(((await t.owner.api.get(path)).body as { code: string }[]).map((d) => d.code)).toEqual([
      'SAVE15',
    ]);

    // Another merchant: 404 on every route; an anonymous client: 401.
    for (const [method, route, body] of [
      ['GET', path, undefined],
      ['POST', path, code({ code: 'MINE' })],
      ['PUT', `${path}/${id}`, code()],
      ['DELETE', `${path}/${id}`, undefined],
    ] as const) {
      expect((await t.other.api.call(method, route, { body })).status).toBe(404);
      expect((await t.shopper.call(method, route, { body })).status).toBe(401);
    }
    // The other merchant's own store does not reach the owner's code either.
    expect(
      (await t.other.api.put(`/api/stores/${foreign.id}/discounts/${id}`, code())).status,
    ).toBe(404);

    expect((await t.owner.api.delete(`${path}/${id}`)).body).toEqual({ id, deleted: true });
    expect((await t.owner.api.get(path)).body).toEqual([]);
  });

  test('a code lowers the total the server computes; the order stores it once', async () => {
    const { store, mug, pin } = await shop();
    const path = `/api/stores/${store.id}/discounts`;
    await t.owner.api.post(path, code({ code: 'MUGS10', productIds: [mug.id] }));
    await t.owner.api.post(path, { code: 'FIVE', kind: 'fixed', amountUsdc: '5.00' });

    const check = await t.shopper.post('/api/discount-codes/check', {
      storeId: store.id,
      code: ' mugs10 ',
    });
    expect(check.status).toBe(200);
    const rule = check.body as DiscountRule;
    expect(rule).toEqual({
      code: 'MUGS10',
      kind: 'percent',
      percentBps: 1000,
      amountUsdc: null,
      minimumSubtotalUsdc: '0.00',
      productIds: [mug.id],
    });

    // 2 mugs (40.00) and a pin (5.00): 10% off the mugs only = 4.00; tax 8% of 41.00 = 3.28.
    const without = orderBody(store.id, [
      [mug, 2],
      [pin, 1],
    ]);
    expect(without.totalUsdc).toBe('48.60');
    const body = orderBody(
      store.id,
      [
        [mug, 2],
        [pin, 1],
      ],
      rule,
    );
    expect(body.totalUsdc).toBe('44.28');
    const created = await t.shopper.post('/api/orders', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      subtotalUsdc: '45.00',
      discountCode: 'MUGS10',
      discountUsdc: '4.00',
      taxUsdc: '3.28',
      totalUsdc: '44.28',
    });
    // Read back: the order page's view and the merchant's list carry it.
    const read = await t.shopper.get(`/api/orders/${created.body.id}`);
    expect(read.body).toMatchObject({ discountCode: 'MUGS10', discountUsdc: '4.00' });
    const list = await t.owner.api.get(`/api/orders?storeId=${store.id}`);
    expect(list.body[0]).toMatchObject({ discountCode: 'MUGS10', discountUsdc: '4.00' });
    const stored = await t.testDb.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where discount_code = 'MUGS10' and discount_usdc = 4.00`,
    );
    expect([...stored][0]?.n).toBe(1);

    // A fixed 5.00 is never more than the subtotal: a 5.00 pin pays tax 0 and total 0.00.
    const five = (
      await t.shopper.post('/api/discount-codes/check', { storeId: store.id, code: 'five' })
    ).body as DiscountRule;
    const pinOnly = orderBody(store.id, [[pin, 1]], five);
    expect(pinOnly.totalUsdc).toBe('0.00');

    // The same order with the total the page would show without the code: refused.
    const tampered = { ...body, totalUsdc: '40.00' };
    expect(refusal(await t.shopper.post('/api/orders', tampered))).toEqual([
      422,
      ORDER_MESSAGES.totalsMismatch,
    ]);
    // A discount the code does not give: refused.
    const bigger = { ...body, discountUsdc: '9.00', totalUsdc: '39.96' };
    expect(refusal(await t.shopper.post('/api/orders', bigger))).toEqual([
      422,
      ORDER_MESSAGES.totalsMismatch,
    ]);
    // A discount claimed with no code: refused.
    const { discountCode: _dropped, ...noCode } = body;
    expect(refusal(await t.shopper.post('/api/orders', noCode))).toEqual([
      422,
      ORDER_MESSAGES.totalsMismatch,
    ]);
    // A code of another store: unknown here.
    const elsewhere = await shop();
    expect(
      refusal(
        await t.shopper.post('/api/orders', {
          ...orderBody(elsewhere.store.id, [[elsewhere.mug, 1]]),
          discountCode: 'MUGS10',
        }),
      ),
    ).toEqual([422, DISCOUNT_MESSAGES.unknown]);
    expect(parseUsdc(created.body.totalUsdc)).toBeLessThan(parseUsdc(without.totalUsdc));
  });

  test('expired, inactive, below the minimum, not in the cart and used up are refused with their reason', async () => {
    const { store, mug, pin } = await shop();
    const path = `/api/stores/${store.id}/discounts`;
    const check = (c: string, email?: string) =>
      t.shopper.post('/api/discount-codes/check', {
        storeId: store.id,
        code: c,
        customerEmail: email,
      });
    await t.owner.api.post(path, code({ code: 'OLD', expiresAt: '2020-01-01T00:00:00Z' }));
    await t.owner.api.post(path, code({ code: 'OFF', isActive: false }));
    await t.owner.api.post(path, code({ code: 'BIG', minimumSubtotalUsdc: '50.00' }));
    await t.owner.api.post(path, code({ code: 'PINS', productIds: [pin.id] }));
    await t.owner.api.post(path, code({ code: 'ONCE', maxUses: 1 }));
    await t.owner.api.post(path, code({ code: 'EACH', maxUsesPerCustomer: 1 }));
    expect(refusal(await check('NOPE'))).toEqual([422, DISCOUNT_MESSAGES.unknown]);
    expect(refusal(await check('old'))).toEqual([422, DISCOUNT_MESSAGES.expired]);
    expect(refusal(await check('off'))).toEqual([422, DISCOUNT_MESSAGES.inactive]);

    const rule = async (c: string) => (await check(c)).body as DiscountRule;
    const big = await rule('BIG');
    // The browser would not apply it; an order that names it anyway is refused with the reason.
    const belowMinimum = { ...orderBody(store.id, [[mug, 2]]), discountCode: 'BIG' };
    expect(refusal(await t.shopper.post('/api/orders', belowMinimum))).toEqual([
      422,
      DISCOUNT_MESSAGES.minimum('50.00'),
    ]);
    expect((await t.shopper.post('/api/orders', orderBody(store.id, [[mug, 3]], big))).status).toBe(
      201,
    );
    const noPins = { ...orderBody(store.id, [[mug, 1]]), discountCode: 'PINS' };
    expect(refusal(await t.shopper.post('/api/orders', noPins))).toEqual([
      422,
      DISCOUNT_MESSAGES.noProducts,
    ]);
    const expired = { ...orderBody(store.id, [[mug, 1]]), discountCode: 'OLD' };
    expect(refusal(await t.shopper.post('/api/orders', expired))).toEqual([
      422,
      DISCOUNT_MESSAGES.expired,
    ]);

    // Limits: in all, then per customer email (whatever its case).
    const once = await rule('ONCE');
    expect(
      (await t.shopper.post('/api/orders', orderBody(store.id, [[mug, 1]], once))).status,
    ).toBe(201);
    expect(refusal(await check('ONCE'))).toEqual([422, DISCOUNT_MESSAGES.usedUp]);
    expect(
      refusal(
        await t.shopper.post(
          '/api/orders',
          orderBody(store.id, [[mug, 1]], once, 'grace@example.com'),
        ),
      ),
    ).toEqual([422, DISCOUNT_MESSAGES.usedUp]);
    const each = await rule('EACH');
    expect(
      (await t.shopper.post('/api/orders', orderBody(store.id, [[mug, 1]], each))).status,
    ).toBe(201);
    expect(
      refusal(
        await t.shopper.post(
          '/api/orders',
          orderBody(store.id, [[mug, 1]], each, 'ADA@example.com'),
        ),
      ),
    ).toEqual([422, DISCOUNT_MESSAGES.usedByCustomer]);
    expect(refusal(await check('EACH', 'Ada@Example.com'))).toEqual([
      422,
      DISCOUNT_MESSAGES.usedByCustomer,
    ]);
    expect(
      (
        await t.shopper.post(
          '/api/orders',
          orderBody(store.id, [[mug, 1]], each, 'grace@example.com'),
        )
      ).status,
    ).toBe(201);

    // An unpaid order gives its use back once its hold is over; a paid one keeps it.
    const db = t.testDb.database.db;
    await db.execute(
      sql`update orders set created_at = now() - interval '31 minutes' where discount_code = 'ONCE'`,
    );
    expect((await check('ONCE')).status).toBe(200);
    await db.execute(sql`update orders set status = 'paid' where discount_code = 'ONCE'`);
    expect(refusal(await check('ONCE'))).toEqual([422, DISCOUNT_MESSAGES.usedUp]);
    const listed = (await t.owner.api.get(path)).body as Array<{
      code: string;
      uses: number;
      paidOrders: number;
      discountedUsdc: string;
      revenueUsdc: string;
    }>;
    expect(listed.find((d) => d.code === 'ONCE')).toMatchObject({
      uses: 1,
      paidOrders: 1,
      discountedUsdc: '2.00',
      revenueUsdc: '19.44',
    });
  });

  test('a code that takes off everything of an order with free shipping and no tax is refused: nothing to pay', async () => {
    const store = (await t.owner.api.post('/api/stores', storeForm({ taxRateBps: 0 }))).body as {
      id: string;
    };
    const mug = (
      await t.owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Mug',
        priceUsdc: '20.00',
      })
    ).body as Product;
    await t.owner.api.post(
      `/api/stores/${store.id}/discounts`,
      code({ code: 'FREE', percentBps: 10_000 }),
    );
    const rule = (
      await t.shopper.post('/api/discount-codes/check', { storeId: store.id, code: 'FREE' })
    ).body as DiscountRule;
    const body = orderBody(store.id, [[mug, 1]], rule);
    const free = { ...body, taxUsdc: '0.00', totalUsdc: '0.00' };
    expect(refusal(await t.shopper.post('/api/orders', free))).toEqual([
      422,
      ORDER_MESSAGES.zeroTotal,
    ]);
  });

  test('two shoppers racing for the last use: one order, one "usage limit" refusal', async () => {
    const { store, mug } = await shop();
    await t.owner.api.post(`/api/stores/${store.id}/discounts`, code({ code: 'LAST', maxUses: 1 }));
    const rule = (
      await t.shopper.post('/api/discount-codes/check', { storeId: store.id, code: 'LAST' })
    ).body as DiscountRule;
    for (let round = 0; round < 3; round++) {
      if (round > 0)
        await t.testDb.database.db.execute(
          sql`update orders set created_at = now() - interval '1 hour' where discount_code = 'LAST'`,
        );
      const [a, b] = await Promise.all([
        t.shopper.post(
          '/api/orders',
          orderBody(store.id, [[mug, 1]], rule, `a${round}@example.com`),
        ),
        t.shopper.post(
          '/api/orders',
          orderBody(store.id, [[mug, 1]], rule, `b${round}@example.com`),
        ),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 422]);
      const refused = a.status === 422 ? a : b;
      expect(refused.body.error.message).toBe(DISCOUNT_MESSAGES.usedUp);
    }
  });
});
