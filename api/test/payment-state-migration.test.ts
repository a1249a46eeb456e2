// Migration 0036 on a database from before it: a payment's state says only where it is, its
// exception alone what went wrong. Deposit addresses in every state and exception of the day
// before (waiting, detected, underpaid, accepted underpaid, received, overpaid, paid late, expired
// with and without money, reversed after an acceptance) migrate to the narrow state and read the
// same facts back: the phase the state machine, the webhooks and the timeline step on, the status
// API's answer, the order list's exception filters, and each payment event's title.
import { describe, expect, test } from 'bun:test';
import {
  apiPaymentStatus,
  isPaymentException,
  isPaymentState,
  type PaymentPhase,
  paymentPhase,
} from '@store/shared';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { getOrderActivity } from '../src/modules/fulfilment/activity.ts';
import { listMerchantOrders } from '../src/modules/orders/service.ts';
import { useDatabaseBefore } from './support/migration-before.ts';
import { SEEDED, seedOrderWithWallet, seedStore } from './support/migration-seed.ts';

const MIGRATION = '0036_payment_state_apart_from_exception';
const { before } = useDatabaseBefore(MIGRATION);

const USER = SEEDED.user;

/**
 * Each case: the wallet's state, exception and amount before, the order's status; its stored state
 * and exception after, the phase they read back as, and the status API's answer.
 */
const CASES = [
  ['waiting', 'none', '0', 'pending', 'waiting', 'none', 'waiting', 'waiting'],
  [
    'detected',
    'none',
    '10',
    'pending',
    'detected',
    'none',
    'detected',
    'detected_pending_processing',
  ],
  ['underpaid', 'underpaid', '4', 'pending', 'waiting', 'underpaid', 'underpaid', 'underpaid'],
  [
    'received',
    'accepted_underpaid',
    '6',
    'paid',
    'received',
    'accepted_underpaid',
    'received',
    'received',
  ],
  ['received', 'none', '10', 'paid', 'received', 'none', 'received', 'received'],
  ['overpaid', 'overpaid', '13', 'paid', 'received', 'overpaid', 'overpaid', 'received'],
  ['paid_late', 'paid_late', '10', 'shipped', 'received', 'paid_late', 'paid_late', 'received'],
  ['expired', 'none', '0', 'pending', 'expired', 'none', 'expired', 'expired'],
  ['expired', 'underpaid', '2', 'pending', 'expired', 'underpaid', 'expired', 'expired'],
  [
    'reversed',
    'accepted_underpaid',
    '0',
    'reversed',
    'reversed',
    'accepted_underpaid',
    'reversed',
    'reversed',
  ],
] as const;
const idOf = (i: number) => `0e0e0e0e-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;

/** The payment events of a case, as the record step wrote them before: "from -> to" old states. */
const EVENTS: Partial<Record<number, [string | null, string, Record<string, string | boolean>][]>> =
  {
    2: [['waiting', 'underpaid', { detectedAmountUsdc: '4.000000' }]],
    3: [
      ['waiting', 'underpaid', {}],
      ['underpaid', 'received', { acceptedUnderpaid: true, shortfall: '4.000000' }],
    ],
    5: [
      ['waiting', 'detected', {}],
      ['detected', 'overpaid', {}],
      ['overpaid', 'overpaid', { forwardingReopened: true, leg: 'merchant' }],
    ],
    6: [['detected', 'paid_late', {}]],
  };

describe(`migration ${MIGRATION}`, () => {
  test('payments in every state and exception read the same facts back', async () => {
    const { url, db, apiUrl } = await before('before_payment_state');
    await seedStore(db);
    for (const [i, [state, exception, amount, orderStatus]] of CASES.entries()) {
      const walletId = await seedOrderWithWallet(db, i, idOf(i), orderStatus, {
        status: state,
        exception,
        detected_amount_usdc: amount,
        received_amount_usdc: amount,
      });
      for (const [n, [from, to, details]] of (EVENTS[i] ?? []).entries()) {
        await db`insert into payment_events (wallet_id, order_id, from_status, to_status,
            received_amount_usdc, details, created_at)
          values (${walletId}, ${idOf(i)}, ${from}, ${to}, ${amount}, ${db.json(details)},
            ${new Date(Date.UTC(2026, 0, 1, 12, n))})`;
      }
    }

    await migrateDatabase(url);

    const rows = await db<
      { order_id: string; status: string; exception: string; received: string }[]
    >`
      select order_id, status, exception, received_amount_usdc::text as received
      from payment_wallets order by order_id`;
    expect(rows).toHaveLength(CASES.length);
    for (const [i, [, , amount, , status, exception, phase, api]] of CASES.entries()) {
      const row = rows.find((r) => r.order_id === idOf(i));
      expect({ case: i, ...row }).toEqual({
        case: i,
        order_id: idOf(i),
        status,
        exception,
        received: Number(amount).toFixed(6),
      });
      if (!row || !isPaymentState(row.status) || !isPaymentException(row.exception))
        throw new Error(`case ${i}: unknown state`);
      const read: [PaymentPhase, string] = [
        paymentPhase(row.status, row.exception),
        apiPaymentStatus(row.status, row.exception),
      ];
      expect({ case: i, read }).toEqual({ case: i, read: [phase, api] });
    }
    // A state that mixes in an exception is refused from now on.
    await expect(
      db`update payment_wallets set status = 'overpaid' where order_id = ${idOf(5)}`,
    ).rejects.toThrow(/payment_wallets_status_check/);
    await expect(
      db`update payment_events set exception = 'mystery' where order_id = ${idOf(5)}`,
    ).rejects.toThrow(/payment_events_exception_check/);

    const app = createDatabase(apiUrl, { max: 1 });
    try {
      // The order list's exception filters read the stored exception.
      const listed = async (exception: 'underpaid' | 'overpaid' | 'paid_late') =>
        (await listMerchantOrders(app.db, { id: USER }, { exception })).orders
          .map((o) => o.id)
          .sort();
      expect(await listed('underpaid')).toEqual([idOf(2), idOf(3), idOf(8), idOf(9)].sort());
      expect(await listed('overpaid')).toEqual([idOf(5)]);
      expect(await listed('paid_late')).toEqual([idOf(6)]);
      // Each event's title in the order's timeline is what it was.
      const titles = async (i: number) =>
        (await getOrderActivity(app.db, { id: USER }, idOf(i))).timeline
          .filter((e) => e.kind !== 'created')
          .map((e) => e.title);
      expect(await titles(2)).toEqual(['Underpaid']);
      expect(await titles(3)).toEqual(['Underpaid', 'Accepted as paid by the merchant']);
      expect(await titles(5)).toEqual([
        'Payment detected',
        'Payment confirmed: overpaid',
        'A forwarding leg left the chain; sent again',
      ]);
      expect(await titles(6)).toEqual(['Payment confirmed: paid late']);
    } finally {
      await app.close();
    }
  }, 60_000);
});
