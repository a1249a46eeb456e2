// A store's customers on the real stack (Postgres, anvil with Circle's USDC, the indexer, the
// worker's loops): orders of three people, some paid on the chain, become one customer per email
// address (whatever its case) with their orders, what they paid, first and last order and their
// latest name; search by email or name, cursor pages, a customer's orders from the orders list;
// another merchant gets 404 and an anonymous client 401.
import { describe, expect, test } from 'bun:test';
import { CustomerErasureSchema } from '@store/shared/invoices';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import * as v from 'valibot';
import type { Address } from 'viem';
import { parseUnits } from 'viem';
import { loadWorkerConfig } from '../src/config.ts';
import { runCustomerRetention } from '../src/retention/customer-data.ts';
import { startSettlement } from '../src/worker/settlement-loops.ts';
import { useChainApi } from './support/chain-api.ts';
import { type ApiClient, apiClient, newMerchant, storeForm } from './support/client.ts';
import { waitUntil } from './support/settlement.ts';

const t = useChainApi({
  confirmations: 1,
  poolSize: 4,
  worker: ({ stack, database }) =>
    startSettlement(
      loadWorkerConfig({ ...stack.env, CONFIRMATIONS: '1', FORWARDING_RETRY_BASE_MS: '100' }),
      database.db,
    ),
});

/** A 10.80 order (one 10.00 mug, 8% tax, free shipping) by `email` with that name. */
async function order(storeId: string, productId: string, email: string, name: [string, string]) {
  const created = await t.shopper.post('/api/orders', {
    storeId,
    customerEmail: email,
    shippingAddress: {
      ...customer.shippingAddress,
      email,
      firstName: name[0],
      lastName: name[1],
    },
    items: [{ productId, title: 'Mug', priceUsdc: '10.00', quantity: 1 }],
    subtotalUsdc: '10.00',
    shippingUsdc: '0.00',
    totalUsdc: '10.80',
    status: 'pending',
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; createdAt: string };
}

/** Pays the order in full from test account `account` and waits until it reads paid. */
async function pay(orderId: string, account: number) {
  const wallet = await t.shopper.post(`/api/orders/${orderId}/assign-payment-wallet`, {
    paymentChain: 'base',
  });
  expect(wallet.status).toBe(200);
  await payUsdc(
    t.stack.env,
    account,
    wallet.body.paymentWallet.address as Address,
    parseUnits('10.80', 6),
  );
  await waitUntil(
    async () => (await t.shopper.get(`/api/orders/${orderId}`)).body.status === 'paid',
    `order ${orderId} to be paid`,
  );
}

const emailsOf = (body: { email: string }[]) => body.map((c) => c.email);

describe("a store's customers", () => {
  test('are one per email address with orders, total paid, first and last order; searched and paged', async () => {
    const owner = await newMerchant(t.app, 'customers');
    const store = (await owner.api.post('/api/stores', storeForm())).body as { id: string };
    const product = (
      await owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Mug',
        priceUsdc: '10.00',
        inventory: 20,
      })
    ).body as { id: string };
    const ada1 = await order(store.id, product.id, 'ada@example.com', ['Ada', 'Lovelace']);
    const grace = await order(store.id, product.id, 'grace@example.com', ['Grace', 'Hopper']);
    const ada2 = await order(store.id, product.id, 'ADA@Example.com', ['Ada', 'King']);
    await order(store.id, product.id, 'bob@example.com', ['Bob', 'Stone']);
    await pay(ada1.id, 1);
    await pay(grace.id, 2);

    const list = await owner.api.get(`/api/stores/${store.id}/customers`);
    expect(list.status).toBe(200);
    // Newest last order first: Bob, then Ada (her second order), then Grace.
    expect(emailsOf(list.body)).toEqual([
      'bob@example.com',
      'ada@example.com',
      'grace@example.com',
    ]);
    const [, ada, graceRow] = list.body;
    expect(ada).toEqual({
      email: 'ada@example.com',
      name: 'Ada King',
      orders: 2,
      paidOrders: 1,
      totalPaidUsdc: '10.80',
      firstOrderAt: new Date(ada1.createdAt).toISOString(),
      lastOrderAt: new Date(ada2.createdAt).toISOString(),
    });
    expect(graceRow).toMatchObject({ orders: 1, paidOrders: 1, totalPaidUsdc: '10.80' });
    expect(list.body[0]).toMatchObject({ orders: 1, paidOrders: 0, totalPaidUsdc: '0.00' });

    // Search: part of an email, or a name of any of their orders (the counts stay whole).
    const search = async (q: string) =>
      (await owner.api.get(`/api/stores/${store.id}/customers?q=${encodeURIComponent(q)}`)).body;
    expect(emailsOf(await search('GRACE@'))).toEqual(['grace@example.com']);
    expect(await search('lovelace')).toMatchObject([{ email: 'ada@example.com', orders: 2 }]);
    expect(await search('%')).toEqual([]);
    expect(await search('nobody')).toEqual([]);

    // Cursor pages of two.
    const first = await owner.api.get(`/api/stores/${store.id}/customers?limit=2`);
    expect(emailsOf(first.body)).toEqual(['bob@example.com', 'ada@example.com']);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const second = await owner.api.get(
      `/api/stores/${store.id}/customers?limit=2&cursor=${cursor}`,
    );
    expect(emailsOf(second.body)).toEqual(['grace@example.com']);
    expect(second.headers.get('x-next-cursor')).toBeNull();

    // A customer's orders: the orders list of the store searched by their email.
    const orders = await owner.api.get(`/api/orders?storeId=${store.id}&q=ada@example.com`);
    expect(new Set(orders.body.map((o: { id: string }) => o.id))).toEqual(
      new Set([ada1.id, ada2.id]),
    );

    // Queries outside the caps are refused.
    for (const query of [
      'limit=0',
      'limit=501',
      'limit=abc',
      `q=${'a'.repeat(201)}`,
      'cursor=not-a-cursor',
      `cursor=${'a'.repeat(601)}`,
    ]) {
      const refused = await owner.api.get(`/api/stores/${store.id}/customers?${query}`);
      expect(refused.status, query).toBe(422);
    }

    // Another merchant gets 404, an anonymous client 401; a store of another owner lists nothing.
    const stranger = await newMerchant(t.app, 'stranger');
    expect((await stranger.api.get(`/api/stores/${store.id}/customers`)).status).toBe(404);
    expect((await apiClient(t.app).get(`/api/stores/${store.id}/customers`)).status).toBe(401);
    const theirs = (await stranger.api.post('/api/stores', storeForm())).body as { id: string };
    const empty = await (stranger.api as ApiClient).get(`/api/stores/${theirs.id}/customers`);
    expect(empty.body).toEqual([]);
  }, 120_000);

  test('erased on request: orders keep their amounts and lose the person; the list and search forget them; retention erases old orders', async () => {
    const owner = await newMerchant(t.app, 'erasure');
    const store = (await owner.api.post('/api/stores', storeForm())).body as { id: string };
    const product = (
      await owner.api.post('/api/products', {
        storeId: store.id,
        title: 'Mug',
        priceUsdc: '10.00',
        inventory: 20,
      })
    ).body as { id: string };
    const paid = await order(store.id, product.id, 'erin@example.com', ['Erin', 'Erased']);
    const pending = await order(store.id, product.id, 'ERIN@example.com', ['Erin', 'Erased']);
    const kept = await order(store.id, product.id, 'kim@example.com', ['Kim', 'Kept']);
    await pay(paid.id, 3);
    // A mail still waiting for Erin (a refund claim, say) must not go out once she is erased.
    await t.database.db.$client`
      insert into email_outbox (order_id, kind, to_address, payload, next_attempt_at, retry_until)
      values (${pending.id}, 'refund_claim', 'erin@example.com', '{"refundId":"x"}', now() + interval '1 hour', now() + interval '1 day')`;

    // Another merchant: 404; anonymous: 401; a body outside its caps: 422. Nothing is erased.
    const stranger = await newMerchant(t.app, 'stranger');
    const erase = `/api/stores/${store.id}/customers/erase`;
    expect((await stranger.api.post(erase, { email: 'erin@example.com' })).status).toBe(404);
    expect((await apiClient(t.app).post(erase, { email: 'erin@example.com' })).status).toBe(401);
    expect((await owner.api.post(erase, { email: 'x'.repeat(255) })).status).toBe(422);
    expect((await owner.api.post(erase, {})).status).toBe(422);
    expect(emailsOf((await owner.api.get(`/api/stores/${store.id}/customers`)).body)).toContain(
      'erin@example.com',
    );

    const erased = await owner.api.post(erase, { email: 'Erin@Example.com' });
    expect(erased.status).toBe(200);
    expect(v.parse(CustomerErasureSchema, erased.body)).toEqual(erased.body);
    expect(erased.body.erasedOrders).toBe(2);

    // The orders keep their amounts, status and payment, and lose the person.
    for (const id of [paid.id, pending.id]) {
      const detail = (await owner.api.get(`/api/orders/${id}/detail`)).body;
      expect(detail).toMatchObject({
        customerEmail: '',
        shippingAddress: null,
        totalUsdc: '10.80',
      });
    }
    expect((await owner.api.get(`/api/orders/${paid.id}/detail`)).body.status).toBe('paid');
    // The customers list and its search forget them; Kim stays.
    const list = (await owner.api.get(`/api/stores/${store.id}/customers`)).body;
    expect(emailsOf(list)).toEqual(['kim@example.com']);
    expect((await owner.api.get(`/api/stores/${store.id}/customers?q=erin`)).body).toEqual([]);
    expect(
      (await owner.api.get(`/api/orders?storeId=${store.id}&customerEmail=erin@example.com`)).body,
    ).toEqual([]);
    // No mail waits for her any more, and none keeps her address.
    const mails = await t.database.db.$client<{ status: string; to_address: string }[]>`
      select status, to_address from email_outbox where order_id in (${paid.id}, ${pending.id})`;
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.every((m) => m.to_address === '' && m.status !== 'pending')).toBe(true);
    // Her webhook payloads keep no email; the erasure is recorded without her.
    const payloads = await t.database.db.$client<{ payload: string }[]>`
      select payload from webhook_deliveries where order_id = ${paid.id}`;
    for (const { payload } of payloads) expect(payload).not.toContain('erin@example.com');
    const records = await t.database.db.$client<{ reason: string; orders: number }[]>`
      select reason, orders from customer_erasures where store_id = ${store.id}`;
    expect([...records]).toEqual([{ reason: 'request', orders: 2 }]);
    // Erasing again finds nobody.
    expect((await owner.api.post(erase, { email: 'erin@example.com' })).body.erasedOrders).toBe(0);

    // The store's retention: Kim's order, placed 7 months ago, goes with a 6-month retention.
    await t.database.db.$client`
      update orders set created_at = now() - interval '7 months' where id = ${kept.id}`;
    const current = (await owner.api.get(`/api/stores/${store.id}`)).body;
    const set = await owner.api.put(`/api/stores/${store.id}`, {
      customerRetentionMonths: 6,
      updatedAt: current.updatedAt,
    });
    expect(set.body.customerRetentionMonths).toBe(6);
    expect(await runCustomerRetention(t.database.db)).toBe(1);
    expect((await owner.api.get(`/api/orders/${kept.id}/detail`)).body).toMatchObject({
      customerEmail: '',
      shippingAddress: null,
      totalUsdc: '10.80',
    });
    expect((await owner.api.get(`/api/stores/${store.id}/customers`)).body).toEqual([]);
    expect(await runCustomerRetention(t.database.db)).toBe(0);
  }, 120_000);
});
