// The bytes of signed transactions leave once nothing may send them again: signed more than a week
// ago, with every leg on them canceled or confirmed more than a week ago (or moved to a
// replacement). A transaction whose leg is still open, or was confirmed lately, keeps its bytes
// however old, and a recent one is kept whatever its legs.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { createDatabase } from '../src/db/client.ts';
import {
  pruneSignedTransactions,
  SIGNED_TRANSACTION_KEEP_DAYS,
  signedTransactionOf,
} from '../src/payments/forwarding-store.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';
import { seedOrderWithWallet, seedStore } from './support/migration-seed.ts';

let t: TestDatabase;
let admin: postgres.Sql;
let worker: ReturnType<typeof createDatabase>;
let walletId = '';

const DAY_MS = 86_400_000;
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** A leg on a transaction: its status, and how many days ago it was confirmed (if it was). */
type Leg = string | { status: string; confirmedDaysAgo: number };

/** A signed transaction made `daysAgo` days ago, carrying `legs`. */
async function signed(n: number, daysAgo: number, legs: Leg[]) {
  const hash = hashOf(n);
  const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
  await admin`insert into signed_transactions (hash, raw, created_at)
    values (${hash}, ${`0x02${n}`}, ${ago(daysAgo)})`;
  for (const [i, leg] of legs.entries()) {
    const { status, confirmedDaysAgo } = typeof leg === 'string' ? { status: leg } : leg;
    const confirmedAt = confirmedDaysAgo === undefined ? null : ago(confirmedDaysAgo);
    await admin`insert into forwarding_transfers
        (wallet_id, round, leg, mode, from_address, to_address, value, tx_hash, tx_nonce, status,
         confirmed_at)
      values (${walletId}, ${n}, ${`leg-${i}`}, 'eip3009', ${`0x${'1'.padStart(40, '0')}`},
        ${`0x${'2'.padStart(40, '0')}`}, 1000000, ${hash}, ${n}, ${status}, ${confirmedAt})`;
  }
  return hash;
}

beforeAll(async () => {
  t = await startTestDatabase();
  admin = postgres(t.adminUrl, { max: 1, onnotice: () => {} });
  worker = createDatabase(t.roleUrls.worker, { max: 1 });
  await seedStore(admin);
  walletId = await seedOrderWithWallet(admin, 0, '0f0f0f0f-0000-4000-8000-000000000201', 'paid', {
    status: 'received',
    received_amount_usdc: '10',
  });
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  await admin?.end();
  await t?.stop();
}, STACK_TIMEOUT_MS);

describe('pruning signed transactions', () => {
  test('deletes the old settled ones only, and says how many', async () => {
    const old = SIGNED_TRANSACTION_KEEP_DAYS + 1;
    const settled = await signed(1, old, [
      { status: 'confirmed', confirmedDaysAgo: old },
      { status: 'confirmed', confirmedDaysAgo: old },
      'canceled',
    ]);
    // A transaction replaced by another (a higher fee): no leg holds its hash any more.
    const replaced = await signed(2, old, []);
    const open = await signed(3, old, [{ status: 'confirmed', confirmedDaysAgo: old }, 'mined']);
    const sending = await signed(4, old, ['sent']);
    const canceling = await signed(5, old, ['canceling']);
    const reverted = await signed(6, old, ['reverted']);
    const recent = await signed(7, SIGNED_TRANSACTION_KEEP_DAYS - 1, ['canceled']);
    // Signed long ago but confirmed today (sent again after an outage): reconciliation may still
    // reopen its legs after a deep reorg.
    const lateConfirmed = await signed(8, old, [{ status: 'confirmed', confirmedDaysAgo: 0 }]);

    expect(await pruneSignedTransactions(worker.db)).toBe(2);
    const kept = async (hash: string) => (await signedTransactionOf(worker.db, hash)) !== undefined;
    expect(await kept(settled)).toBe(false);
    expect(await kept(replaced)).toBe(false);
    for (const hash of [open, sending, canceling, reverted, recent, lateConfirmed])
      expect(await kept(hash)).toBe(true);
    // The legs keep their hash: what the chain carried stays on record.
    const [legs] = await admin<{ n: number }[]>`
      select count(*)::int as n from forwarding_transfers where tx_hash = ${settled}`;
    expect(legs?.n).toBe(3);
    expect(await pruneSignedTransactions(worker.db)).toBe(0);
  });

  test('goes no further than its limit a call', async () => {
    const old = SIGNED_TRANSACTION_KEEP_DAYS + 2;
    for (const n of [11, 12, 13]) await signed(n, old, ['canceled']);
    expect(await pruneSignedTransactions(worker.db, SIGNED_TRANSACTION_KEEP_DAYS, 2)).toBe(2);
    expect(await pruneSignedTransactions(worker.db, SIGNED_TRANSACTION_KEEP_DAYS, 2)).toBe(1);
  });
});
