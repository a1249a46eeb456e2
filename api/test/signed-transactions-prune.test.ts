// The bytes of signed transactions leave once nothing may send them again: made more than a week
// ago, with every leg on them confirmed or canceled (or moved to a replacement). A transaction
// whose leg is still open keeps its bytes however old, and a recent one is kept whatever its legs.
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

/** A signed transaction made `daysAgo` days ago, carrying legs of the given statuses. */
async function signed(n: number, daysAgo: number, legs: string[]) {
  const hash = hashOf(n);
  await admin`insert into signed_transactions (hash, raw, created_at)
    values (${hash}, ${`0x02${n}`}, ${new Date(Date.now() - daysAgo * DAY_MS)})`;
  for (const [i, status] of legs.entries())
    await admin`insert into forwarding_transfers
        (wallet_id, round, leg, mode, from_address, to_address, value, tx_hash, tx_nonce, status)
      values (${walletId}, ${n}, ${`leg-${i}`}, 'eip3009', ${`0x${'1'.padStart(40, '0')}`},
        ${`0x${'2'.padStart(40, '0')}`}, 1000000, ${hash}, ${n}, ${status})`;
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
    const settled = await signed(1, old, ['confirmed', 'confirmed', 'canceled']);
    // A transaction replaced by another (a higher fee): no leg holds its hash any more.
    const replaced = await signed(2, old, []);
    const open = await signed(3, old, ['confirmed', 'mined']);
    const sending = await signed(4, old, ['sent']);
    const recent = await signed(5, SIGNED_TRANSACTION_KEEP_DAYS - 1, ['confirmed']);

    expect(await pruneSignedTransactions(worker.db)).toBe(2);
    const kept = async (hash: string) => (await signedTransactionOf(worker.db, hash)) !== undefined;
    expect(await kept(settled)).toBe(false);
    expect(await kept(replaced)).toBe(false);
    expect(await kept(open)).toBe(true);
    expect(await kept(sending)).toBe(true);
    expect(await kept(recent)).toBe(true);
    // The legs keep their hash: what the chain carried stays on record.
    const [legs] = await admin<{ n: number }[]>`
      select count(*)::int as n from forwarding_transfers where tx_hash = ${settled}`;
    expect(legs?.n).toBe(3);
    expect(await pruneSignedTransactions(worker.db)).toBe(0);
  });

  test('goes no further than its limit a call', async () => {
    const old = SIGNED_TRANSACTION_KEEP_DAYS + 2;
    for (const n of [11, 12, 13]) await signed(n, old, ['confirmed']);
    expect(await pruneSignedTransactions(worker.db, SIGNED_TRANSACTION_KEEP_DAYS, 2)).toBe(2);
    expect(await pruneSignedTransactions(worker.db, SIGNED_TRANSACTION_KEEP_DAYS, 2)).toBe(1);
  });
});
