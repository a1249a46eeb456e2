// Rows a migration's test inserts before migrating (beside migration-before.ts): one merchant
// with one store, and for each case an order of one 10.00 USDC mug with its deposit wallet. The
// wallet's columns that differ between schema versions (its state, exception, flags) are the
// test's own.
import type postgres from 'postgres';

/** The seeded store, its owner and the store's payout address. */
export const SEEDED = {
  store: '5a0e5f9c-1111-4aaa-8aaa-000000000001',
  user: '5a0e5f9c-2222-4aaa-8aaa-000000000002',
  payout: '0x1111111111111111111111111111111111111111',
} as const;

/** Inserts the merchant and its store. */
export async function seedStore(db: postgres.Sql): Promise<void> {
  await db`insert into users (id, username, password) values (${SEEDED.user}, 'before', 'x')`;
  await db`insert into stores (id, name, slug, owner_id, payment_address)
    values (${SEEDED.store}, 'Before Shop', 'before-shop', ${SEEDED.user}, ${SEEDED.payout})`;
}

/**
 * Inserts case `index`'s order (id `orderId`, in `orderStatus`) and its wallet: a distinct
 * address and derivation index, 10.00 expected, paid out to the store, plus `columns`. Returns
 * the wallet's id.
 */
export async function seedOrderWithWallet(
  db: postgres.Sql,
  index: number,
  orderId: string,
  orderStatus: string,
  columns: Record<string, string | boolean | null>,
): Promise<string> {
  const item = [{ productId: 'p', title: 'Mug', priceUsdc: '10.00', quantity: 1 }];
  await db`insert into orders (id, store_id, source, customer_email, items, total_usdc, status)
    values (${orderId}, ${SEEDED.store}, 'storefront', 'a@example.com', ${db.json(item)}, '10.00',
      ${orderStatus})`;
  const wallet = {
    order_id: orderId,
    wallet_address: `0x${String(index + 1).padStart(40, '0')}`,
    derivation_path: `m/${index}`,
    derivation_index: index,
    expected_amount_usdc: '10.00',
    store_payment_address: SEEDED.payout,
    payment_chain: 'base',
    ...columns,
  };
  const [row] = await db<{ id: string }[]>`insert into payment_wallets ${db(wallet)} returning id`;
  if (!row) throw new Error(`no wallet for ${orderId}`);
  return row.id;
}
