// Migration 0025 on a database from before it: orders of every source as they were stored (a
// storefront order, a checkout session's, a signed link's and an unsigned link's with
// store_id 'universal' and the link in metadata and on the wallet, and an early link order with
// no wallet and no `signed` flag) migrate with their ids, and read the same facts back from the
// columns: the store they pay, where they came from, the payee and webhook URL; the metadata
// keeps the link's branding and nothing twice; the store's orders and the analytics views hold
// the signed link's order.
import { describe, expect, test } from 'bun:test';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { listMerchantOrders } from '../src/modules/orders/service.ts';
import { useDatabaseBefore } from './support/migration-before.ts';

const MIGRATION = '0025_universal_orders_as_rows';
const { before } = useDatabaseBefore(MIGRATION);

const STORE = '5a0e5f9c-1111-4aaa-8aaa-000000000001';
const USER = '5a0e5f9c-2222-4aaa-8aaa-000000000002';
const PAYOUT = '0x1111111111111111111111111111111111111111';
const STRANGER_PAYEE = '0x2222222222222222222222222222222222222222';
const ids = {
  storefront: '0e0e0e0e-0000-4000-8000-000000000001',
  session: '0e0e0e0e-0000-4000-8000-000000000002',
  signed: '0e0e0e0e-0000-4000-8000-000000000003',
  unsigned: '0e0e0e0e-0000-4000-8000-000000000004',
  early: '0e0e0e0e-0000-4000-8000-000000000005',
};

describe(`migration ${MIGRATION}`, () => {
  test('orders of every source read the same facts back, as columns', async () => {
    const { url, db, apiUrl } = await before('before_rows');
    const item = [{ productId: 'p', title: 'Mug', priceUsdc: '10.00', quantity: 1 }];
    await db`insert into users (id, username, password) values (${USER}, 'before', 'x')`;
    await db`insert into stores (id, name, slug, owner_id, payment_address)
      values (${STORE}, 'Before Shop', 'before-shop', ${USER}, ${PAYOUT})`;
    const order = (id: string, storeId: string, metadata: object | null) =>
      db`insert into orders (id, store_id, customer_email, items, total_usdc, status, metadata)
        values (${id}, ${storeId}, 'a@example.com', ${db.json(item)}, '10.00', 'paid',
          ${metadata === null ? null : db.json(metadata as never)})`;
    const wallet = (
      orderId: string,
      index: number,
      payee: string,
      universal: boolean,
      hook: string | null,
    ) =>
      db`insert into payment_wallets (order_id, wallet_address, derivation_path, derivation_index,
          expected_amount_usdc, store_payment_address, payment_chain, is_universal, webhook_url,
          external_order_id)
        values (${orderId}, ${`0x${String(index).padStart(40, '0')}`}, ${`m/${index}`}, ${index},
          '10.00', ${payee}, 'base', ${universal}, ${hook}, ${`ext-${index}`})`;
    await order(ids.storefront, STORE, null);
    await wallet(ids.storefront, 1, PAYOUT, false, null);
    await order(ids.session, STORE, { externalOrderId: 'ext-2', checkoutSessionId: 'cs_before' });
    await db`insert into checkout_sessions (id, user_id, store_id, status, items, subtotal_usdc,
        expires_at, order_id)
      values ('cs_before', ${USER}, ${STORE}, 'completed', '[]', '10.00', now(), ${ids.session})`;
    await wallet(ids.session, 2, PAYOUT, false, null);
    const link = (payee: string, extra: object) => ({
      isUniversal: true,
      storeName: 'Corner Shop',
      externalStoreName: 'Corner Shop',
      storePaymentAddress: payee,
      externalPaymentAddress: payee,
      externalOrderId: 'ext-link',
      theme: 'light',
      ...extra,
    });
    await order(
      ids.signed,
      'universal',
      link(PAYOUT, { signed: true, linkStoreId: STORE, webhookUrl: 'https://shop.example/hook' }),
    );
    await wallet(ids.signed, 3, PAYOUT, true, 'https://shop.example/hook');
    await order(
      ids.unsigned,
      'universal',
      link(STRANGER_PAYEE, { signed: false, webhookUrl: 'https://corner.example/hook' }),
    );
    // Note: the wallet's copy of the webhook URL is the one the outbox used first.
    await wallet(ids.unsigned, 4, STRANGER_PAYEE, true, 'https://corner.example/hook');
    await order(ids.early, 'universal', link(STRANGER_PAYEE, {}));
    await db`insert into forwarding_transfers (wallet_id, round, leg, mode, from_address, to_address,
        value, status)
      select id, 1, 'merchant', 'eip3009', wallet_address, ${PAYOUT}, 9800000, 'confirmed'
      from payment_wallets where order_id = ${ids.signed}`;

    await migrateDatabase(url);

    const rows = await db<
      {
        id: string;
        store_id: string | null;
        source: string;
        payee_address: string | null;
        webhook_url: string | null;
        metadata: Record<string, unknown> | null;
      }[]
    >`select id, store_id, source, payee_address, webhook_url, metadata from orders order by id`;
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(rows).toHaveLength(5);
    expect(byId.get(ids.storefront)).toMatchObject({
      store_id: STORE,
      source: 'storefront',
      payee_address: null,
      webhook_url: null,
      metadata: null,
    });
    expect(byId.get(ids.session)).toMatchObject({
      store_id: STORE,
      source: 'checkout_session',
      payee_address: null,
      metadata: { externalOrderId: 'ext-2', checkoutSessionId: 'cs_before' },
    });
    const branding = {
      storeName: 'Corner Shop',
      externalStoreName: 'Corner Shop',
      externalOrderId: 'ext-link',
      theme: 'light',
    };
    expect(byId.get(ids.signed)).toEqual({
      id: ids.signed,
      store_id: STORE,
      source: 'signed_link',
      payee_address: PAYOUT,
      webhook_url: 'https://shop.example/hook',
      metadata: branding,
    });
    expect(byId.get(ids.unsigned)).toEqual({
      id: ids.unsigned,
      store_id: null,
      source: 'unsigned_link',
      payee_address: STRANGER_PAYEE,
      webhook_url: 'https://corner.example/hook',
      metadata: branding,
    });
    expect(byId.get(ids.early)).toEqual({
      id: ids.early,
      store_id: null,
      source: 'unsigned_link',
      payee_address: STRANGER_PAYEE,
      webhook_url: null,
      metadata: branding,
    });
    const walletColumns = await db`select column_name from information_schema.columns
      where table_name = 'payment_wallets' and column_name in ('is_universal', 'webhook_url')`;
    expect([...walletColumns]).toEqual([]);
    // A store's orders are the three that pay it.
    const app = createDatabase(apiUrl, { max: 1 });
    try {
      const page = await listMerchantOrders(app.db, { id: USER }, {});
      expect(page.orders.map((o) => o.id).sort()).toEqual(
        [ids.storefront, ids.session, ids.signed].sort(),
      );
    } finally {
      await app.close();
    }
    // The views read the store of the signed link's leg (the indexer's table as Ponder makes it).
    await db.unsafe(`create schema indexer;
      create table indexer.transfer (id text primary key, "from" text not null, "to" text not null,
        value numeric(78) not null, block_number numeric(78) not null,
        block_timestamp numeric(78) not null, tx_hash text not null, log_index integer not null)`);
    const legs = await db`select order_id, store_id, store_name, is_universal, order_source
      from analytics.settlements`;
    expect([...legs]).toEqual([
      {
        order_id: ids.signed,
        store_id: STORE,
        store_name: 'Before Shop',
        is_universal: false,
        order_source: 'signed_link',
      },
    ]);
  }, 60_000);
});
