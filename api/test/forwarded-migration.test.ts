// Migration 0040 on a database from before it: the stored `forwarding_completed` flag goes, and
// every wallet reads the same answer from the derivation (payments/forwarded.ts) as the flag gave:
// paid and forwarded; overpaid with the excess held for the payer, or already sent to them; an
// oversold order whose missing units are held for the payer; a round still open; an underpaid
// order forwarded at its window's end; a payment still waiting.
import { describe, expect, test } from 'bun:test';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { paymentWallets } from '../src/db/schema.ts';
import { walletForwarded } from '../src/payments/forwarded.ts';
import { useDatabaseBefore } from './support/migration-before.ts';
import { SEEDED, seedOrderWithWallet, seedStore } from './support/migration-seed.ts';

const MIGRATION = '0040_drop_forwarding_completed';
const { before } = useDatabaseBefore(MIGRATION);

/** A leg of a round: which, its value in base units, its status. */
type Leg = [leg: 'merchant' | 'fee' | 'refund', value: number, status: string, round?: number];
/** A deposit refund: its reason, amount in base units, status. */
type Refund = [reason: string, amount: number, status: string];

interface Case {
  name: string;
  orderStatus: string;
  wallet: Record<string, string | boolean | null>;
  legs: Leg[];
  refunds: Refund[];
}

const paid = (received: string, forwarded: string, completed: boolean) => ({
  status: 'received',
  detected_amount_usdc: received,
  received_amount_usdc: received,
  forwarded_amount_usdc: forwarded,
  forwarding_status: 'completed',
  forwarding_completed: completed,
});

const CASES: Case[] = [
  {
    name: 'paid and forwarded',
    orderStatus: 'paid',
    wallet: paid('10', '10', true),
    legs: [
      ['merchant', 9_800_000, 'confirmed'],
      ['fee', 200_000, 'confirmed'],
    ],
    refunds: [],
  },
  {
    name: 'overpaid, the excess held for the payer',
    orderStatus: 'paid',
    wallet: { ...paid('12.5', '10', true), exception: 'overpaid' },
    legs: [
      ['merchant', 9_800_000, 'confirmed'],
      ['fee', 200_000, 'confirmed'],
    ],
    refunds: [['excess', 2_500_000, 'awaiting_address']],
  },
  {
    name: 'overpaid, the excess since sent to the payer',
    orderStatus: 'paid',
    wallet: { ...paid('12.5', '12.5', true), exception: 'overpaid' },
    legs: [
      ['merchant', 9_800_000, 'confirmed'],
      ['fee', 200_000, 'confirmed'],
      ['refund', 2_500_000, 'confirmed', 2],
    ],
    refunds: [['excess', 2_500_000, 'refunded']],
  },
  {
    name: 'oversold, the missing units held for the payer',
    orderStatus: 'paid',
    wallet: paid('10', '7', true),
    legs: [
      ['merchant', 6_860_000, 'confirmed'],
      ['fee', 140_000, 'confirmed'],
    ],
    refunds: [['oversold', 3_000_000, 'ready']],
  },
  {
    name: 'paid, its round not yet at depth',
    orderStatus: 'paid',
    wallet: { ...paid('10', '0', false), forwarding_status: 'forwarding' },
    legs: [
      ['merchant', 9_800_000, 'sent'],
      ['fee', 200_000, 'sent'],
    ],
    refunds: [],
  },
  {
    name: 'underpaid, forwarded at the window end',
    orderStatus: 'pending',
    wallet: {
      status: 'expired',
      exception: 'underpaid',
      detected_amount_usdc: '3',
      received_amount_usdc: '3',
      forwarded_amount_usdc: '3',
      forwarding_status: 'completed',
      forwarding_completed: false,
      expired_at: '2026-01-01T00:00:00Z',
    },
    legs: [
      ['merchant', 2_940_000, 'confirmed'],
      ['fee', 60_000, 'confirmed'],
    ],
    refunds: [],
  },
  { name: 'waiting', orderStatus: 'pending', wallet: {}, legs: [], refunds: [] },
];
const idOf = (i: number) => `0f0f0f0f-0000-4000-8000-${String(i + 1).padStart(12, '0')}`;

describe(`migration ${MIGRATION}`, () => {
  test('every wallet reads as forwarded exactly when its stored flag said so', async () => {
    const { url, db, apiUrl } = await before('before_forwarded');
    await seedStore(db);
    const stored = new Map<string, boolean>();
    for (const [i, c] of CASES.entries()) {
      const walletId = await seedOrderWithWallet(db, i, idOf(i), c.orderStatus, c.wallet);
      stored.set(idOf(i), c.wallet.forwarding_completed === true);
      for (const [leg, value, status, round = 1] of c.legs)
        await db`insert into forwarding_transfers (wallet_id, round, leg, mode, from_address,
            to_address, value, status)
          values (${walletId}, ${round}, ${leg}, 'eip3009', ${`0x${String(i + 1).padStart(40, '0')}`},
            ${SEEDED.payout}, ${value}, ${status})`;
      for (const [reason, amount, status] of c.refunds)
        await db`insert into refunds (order_id, wallet_id, source, reason, amount, status)
          values (${idOf(i)}, ${walletId}, 'deposit', ${reason}, ${amount}, ${status})`;
    }
    // The flag as stored: forwarded for the paid orders whose merchant share left, not otherwise.
    const flags = await db<{ order_id: string; forwarding_completed: boolean }[]>`
      select order_id, forwarding_completed from payment_wallets`;
    expect(Object.fromEntries(flags.map((f) => [f.order_id, f.forwarding_completed]))).toEqual(
      Object.fromEntries(stored),
    );

    await migrateDatabase(url);

    const columns = await db`select column_name from information_schema.columns
      where table_name = 'payment_wallets' and column_name = 'forwarding_completed'`;
    expect([...columns]).toEqual([]);
    const app = createDatabase(apiUrl, { max: 1 });
    try {
      const wallets = await app.db.select().from(paymentWallets);
      expect(wallets).toHaveLength(CASES.length);
      const derived = new Map<string, boolean>();
      for (const wallet of wallets)
        derived.set(wallet.orderId, await walletForwarded(app.db, wallet));
      for (const [i, c] of CASES.entries())
        expect({ case: c.name, forwarded: derived.get(idOf(i)) }).toEqual({
          case: c.name,
          forwarded: stored.get(idOf(i)),
        });
    } finally {
      await app.close();
    }
  }, 60_000);
});
