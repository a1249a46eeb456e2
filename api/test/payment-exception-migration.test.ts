// Migration 0027 on a database from before it: deposit addresses in every state (waiting,
// detected, underpaid, accepted underpaid, received, overpaid, paid late, expired with and
// without money, reversed) migrate with the same facts, the exception now a column of its own:
// an underpaid order its merchant accepted is received with its accepted amount, like its order;
// the order list's exception filter reads the column. Migrated on to the latest, where the state
// says only where the payment is (0036): underpaid is waiting, overpaid and paid late received.
import { describe, expect, test } from 'bun:test';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { listMerchantOrders } from '../src/modules/orders/service.ts';
import { useDatabaseBefore } from './support/migration-before.ts';
import { SEEDED, seedOrderWithWallet, seedStore } from './support/migration-seed.ts';

const MIGRATION = '0027_payment_exception';
const { before } = useDatabaseBefore(MIGRATION);

const USER = SEEDED.user;

/** Each case: the wallet's state and amounts and the order's status before, and what migrates. */
const CASES = [
  ['waiting', 'pending', '0', '0', { status: 'waiting', exception: 'none', accepted: null }],
  ['detected', 'pending', '10', '0', { status: 'detected', exception: 'none', accepted: null }],
  ['underpaid', 'pending', '4', '4', { status: 'waiting', exception: 'underpaid', accepted: null }],
  [
    'underpaid',
    'shipped',
    '6',
    '6',
    { status: 'received', exception: 'accepted_underpaid', accepted: '6.000000' },
  ],
  ['received', 'paid', '10', '10', { status: 'received', exception: 'none', accepted: null }],
  ['overpaid', 'paid', '13', '13', { status: 'received', exception: 'overpaid', accepted: null }],
  ['paid_late', 'paid', '10', '10', { status: 'received', exception: 'paid_late', accepted: null }],
  ['expired', 'pending', '0', '0', { status: 'expired', exception: 'none', accepted: null }],
  ['expired', 'pending', '2', '2', { status: 'expired', exception: 'underpaid', accepted: null }],
  ['reversed', 'reversed', '0', '0', { status: 'reversed', exception: 'none', accepted: null }],
] as const;
const idOf = (i: number) => `0e0e0e0e-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;

describe(`migration ${MIGRATION}`, () => {
  test('payments in every state and exception read the same facts back', async () => {
    const { url, db, apiUrl } = await before('before_exception');
    await seedStore(db);
    for (const [i, [state, orderStatus, detected, received]] of CASES.entries()) {
      await seedOrderWithWallet(db, i, idOf(i), orderStatus, {
        status: state,
        detected_amount_usdc: detected,
        received_amount_usdc: received,
        payment_received: ['received', 'overpaid', 'paid_late'].includes(state),
      });
    }

    await migrateDatabase(url);

    const rows = await db<
      {
        order_id: string;
        status: string;
        exception: string;
        accepted_amount_usdc: string | null;
        detected_amount_usdc: string;
        received_amount_usdc: string;
      }[]
    >`select order_id, status, exception, accepted_amount_usdc, detected_amount_usdc,
        received_amount_usdc from payment_wallets order by order_id`;
    expect(rows).toHaveLength(CASES.length);
    for (const [i, [, , detected, received, want]] of CASES.entries()) {
      const row = rows.find((r) => r.order_id === idOf(i));
      expect({ case: i, ...row }).toMatchObject({
        case: i,
        status: want.status,
        exception: want.exception,
        accepted_amount_usdc: want.accepted,
        // The amounts are what they were.
        detected_amount_usdc: Number(detected).toFixed(6),
        received_amount_usdc: Number(received).toFixed(6),
      });
    }
    // The copy of the state is gone: the state says it.
    const copies = await db`select column_name from information_schema.columns
      where table_name = 'payment_wallets' and column_name = 'payment_received'`;
    expect([...copies]).toEqual([]);
    await expect(
      db`update payment_wallets set exception = 'mystery' where order_id = ${idOf(0)}`,
    ).rejects.toThrow(/payment_wallets_exception_check/);

    // The order list's filter reads the stored exception.
    const app = createDatabase(apiUrl, { max: 1 });
    try {
      const listed = async (exception: 'underpaid' | 'overpaid' | 'paid_late') =>
        (await listMerchantOrders(app.db, { id: USER }, { exception })).orders
          .map((o) => o.id)
          .sort();
      expect(await listed('underpaid')).toEqual([idOf(2), idOf(3), idOf(8)].sort());
      expect(await listed('overpaid')).toEqual([idOf(5)]);
      expect(await listed('paid_late')).toEqual([idOf(6)]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
