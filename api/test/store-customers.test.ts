// A store's customers on the real stack (Postgres, anvil with Circle's USDC, the indexer, the
// worker's loops): orders of three people, some paid on the chain, become one customer per email
// address (whatever its case) with their orders, what they paid, first and last order and their
// latest name; search by email or name, cursor pages, a customer's orders from the orders list;
// another merchant gets 404 and an anonymous client 401.
import { describe, expect, test } from 'bun:test';
import { customer } from '@store/stack/api-process';
import { payUsdc } from '@store/stack/usdc';
import type { Address } from 'viem';
import { parseUnits } from 'viem';
import { loadWorkerConfig } from '../src/config.ts';
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
});
