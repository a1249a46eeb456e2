// Migration 0041 on a database from before it: a signed transaction's bytes, written on every leg
// it carried, are kept once in signed_transactions (a batch's once for all its legs), each leg
// keeps its hash and the worker finds the same bytes there.
import { describe, expect, test } from 'bun:test';
import { createDatabase, migrateDatabase } from '../src/db/client.ts';
import { signedTransactionOf } from '../src/payments/forwarding-store.ts';
import { useDatabaseBefore } from './support/migration-before.ts';
import { SEEDED, seedOrderWithWallet, seedStore } from './support/migration-seed.ts';

const MIGRATION = '0041_signed_transactions';
const { before } = useDatabaseBefore(MIGRATION);

const orderId = '0f0f0f0f-0000-4000-8000-000000000041';
const BATCH = { hash: `0x${'ab'.repeat(32)}`, raw: `0x02${'cd'.repeat(600)}` };
const ALONE = { hash: `0x${'ef'.repeat(32)}`, raw: `0x02${'12'.repeat(300)}` };

describe(`migration ${MIGRATION}`, () => {
  test("a transaction's bytes are kept once, and every leg it carried finds them", async () => {
    const { url, db, workerUrl } = await before('before_signed');
    await seedStore(db);
    const walletId = await seedOrderWithWallet(db, 0, orderId, 'paid', {
      status: 'received',
      detected_amount_usdc: '10',
      received_amount_usdc: '10',
      forwarding_status: 'forwarding',
    });
    // Round 1: merchant and fee legs in one batch; round 2: a leg sent alone; round 3: planned.
    const legs: [number, string, { hash: string; raw: string } | null, number | null][] = [
      [1, 'merchant', BATCH, 7],
      [1, 'fee', BATCH, 7],
      [2, 'merchant', ALONE, 8],
      [3, 'merchant', null, null],
    ];
    for (const [round, leg, tx, nonce] of legs)
      await db`insert into forwarding_transfers (wallet_id, round, leg, mode, from_address,
          to_address, value, status, raw_transaction, tx_hash, tx_nonce)
        values (${walletId}, ${round}, ${leg}, 'eip3009', ${`0x${'1'.padStart(40, '0')}`},
          ${SEEDED.payout}, 1000, ${tx ? 'sent' : 'planned'}, ${tx?.raw ?? null},
          ${tx?.hash ?? null}, ${nonce})`;

    await migrateDatabase(url);

    const columns = await db`select column_name from information_schema.columns
      where table_name = 'forwarding_transfers' and column_name = 'raw_transaction'`;
    expect([...columns]).toEqual([]);
    const kept = await db<{ hash: string; raw: string }[]>`
      select hash, raw from signed_transactions order by hash`;
    expect([...kept]).toEqual([BATCH, ALONE]);
    const worker = createDatabase(workerUrl, { max: 1 });
    try {
      const after = await db<{ leg: string; round: number; tx_hash: string | null }[]>`
        select leg, round, tx_hash from forwarding_transfers order by round, leg`;
      const raws = await Promise.all(after.map((l) => signedTransactionOf(worker.db, l.tx_hash)));
      expect(raws.map((raw): string | null => raw ?? null)).toEqual([
        BATCH.raw,
        BATCH.raw,
        ALONE.raw,
        null,
      ]);
    } finally {
      await worker.close();
    }
  }, 60_000);
});
