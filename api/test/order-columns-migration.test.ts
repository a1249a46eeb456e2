// Migration 0030 on a database from before it: what an order's metadata JSON held about the money
// path becomes columns. A reversed order keeps the status it had before (and gets it back when its
// payment returns), an oversold order keeps its lines short of stock (the order list's oversold
// filter and the order's API answer read the column), the rest of the metadata stays as it was.
import { describe, expect, test } from 'bun:test';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { getOwnOrderOrThrow, listMerchantOrders } from '../src/modules/orders/service.ts';
import { useDatabaseBefore } from './support/migration-before.ts';

const MIGRATION = '0030_order_reversal_and_shortfall_columns';
const { before } = useDatabaseBefore(MIGRATION);

const STORE = '5a0e5f9c-1111-4aaa-8aaa-000000000001';
const USER = '5a0e5f9c-2222-4aaa-8aaa-000000000002';
const PAYOUT = '0x1111111111111111111111111111111111111111';
const SHORT = [{ productId: 'p', title: 'Lamp', ordered: 2, available: 1 }];

/** Each case: the order's status and metadata before, and its columns after. */
const CASES = [
  ['paid', { externalOrderId: 'A-1' }, { before: null, shortfall: null }],
  ['reversed', { reversedFrom: 'shipped' }, { before: 'shipped', shortfall: null }],
  ['paid', { stockShortfall: SHORT, storeName: 'Kept' }, { before: null, shortfall: SHORT }],
  [
    'reversed',
    { reversedFrom: 'paid', stockShortfall: SHORT },
    { before: 'paid', shortfall: SHORT },
  ],
  ['pending', null, { before: null, shortfall: null }],
] as const;
const idOf = (i: number) => `0e0e0e0e-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;

describe(`migration ${MIGRATION}`, () => {
  test('reversal and stock shortfall move from the metadata to columns', async () => {
    const { url, db, apiUrl } = await before('before_order_columns');
    const item = [{ productId: 'p', title: 'Lamp', priceUsdc: '10.00', quantity: 2 }];
    await db`insert into users (id, username, password) values (${USER}, 'before', 'x')`;
    await db`insert into stores (id, name, slug, owner_id, payment_address)
      values (${STORE}, 'Before Shop', 'before-shop', ${USER}, ${PAYOUT})`;
    for (const [i, [status, metadata]] of CASES.entries()) {
      await db`insert into orders (id, store_id, source, customer_email, items, total_usdc, status,
          metadata)
        values (${idOf(i)}, ${STORE}, 'storefront', 'a@example.com', ${db.json(item)}, '20.00',
          ${status}, ${metadata === null ? null : db.json(metadata)})`;
    }

    await migrateDatabase(url);

    const rows = await db<
      {
        id: string;
        status: string;
        metadata: Record<string, unknown> | null;
        status_before_reversal: string | null;
        stock_shortfall: unknown;
      }[]
    >`select id, status, metadata, status_before_reversal, stock_shortfall from orders`;
    expect(rows).toHaveLength(CASES.length);
    for (const [i, [status, metadata, want]] of CASES.entries()) {
      const row = rows.find((r) => r.id === idOf(i));
      const {
        reversedFrom: _r,
        stockShortfall: _s,
        ...rest
      } = (metadata ?? {}) as Record<string, unknown>;
      expect({ case: i, ...row }).toEqual({
        case: i,
        id: idOf(i),
        status,
        metadata: metadata === null ? null : rest,
        status_before_reversal: want.before,
        stock_shortfall: want.shortfall,
      });
    }
    await expect(
      db`update orders set status_before_reversal = 'lost' where id = ${idOf(1)}`,
    ).rejects.toThrow(/orders_status_before_reversal_check/);

    // The list's oversold filter and the merchant's answer read the column.
    const app = createDatabase(apiUrl, { max: 1 });
    try {
      const oversold = await listMerchantOrders(app.db, { id: USER }, { exception: 'oversold' });
      expect(oversold.orders.map((o) => o.id).sort()).toEqual([idOf(2), idOf(3)].sort());
      const order = await getOwnOrderOrThrow(app.db, { id: USER }, idOf(2), 'read');
      expect(order.stockShortfall).toEqual(SHORT);
      expect(order.metadata).toEqual({ storeName: 'Kept' });
    } finally {
      await app.close();
    }
  }, 60_000);
});
