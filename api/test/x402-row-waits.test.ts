// A payer's request waits for its x402 payment's row to move: the worker's notification (sent in
// the statement that records the settlement) wakes it at once, not the next re-read; a lost
// notification is caught by the re-read.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { waitForRow } from '../src/modules/x402/row-waits.ts';
import { X402_SETTLED_CHANNEL } from '../src/payments/x402-settlement.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';

let testDb: TestDatabase;
let admin: postgres.Sql;
const USER = '5a0e5f9c-2222-4aaa-8aaa-000000000002';
const STORE = '5a0e5f9c-1111-4aaa-8aaa-000000000001';
const PAYOUT = '0x1111111111111111111111111111111111111111';
let made = 0;

/** A settling x402 payment of a new order; its id. */
async function settlingPayment(): Promise<string> {
  made += 1;
  const orderId = `0e0e0e0e-0000-4000-8000-${String(made).padStart(12, '0')}`;
  await admin`insert into orders (id, store_id, source, customer_email, items, total_usdc, status)
    values (${orderId}, ${STORE}, 'storefront', 'agent@example.com', '[]', '0.01', 'pending')`;
  const [wallet] = await admin<{ id: string }[]>`insert into payment_wallets (order_id,
      wallet_address, derivation_path, derivation_index, expected_amount_usdc,
      store_payment_address, payment_chain)
    values (${orderId}, ${`0x${String(made).padStart(40, '0')}`}, ${`m/${made}`}, ${made}, '0.01',
      ${PAYOUT}, 'base') returning id`;
  const [payment] = await admin<{ id: string }[]>`insert into x402_payments (order_id, wallet_id,
      payer, pay_to, value, valid_after, valid_before, authorization_nonce, signature)
    values (${orderId}, ${wallet?.id ?? ''}, ${PAYOUT}, ${PAYOUT}, 10000, 0, 9999999999,
      ${`0x${String(made).padStart(64, '0')}`}, '0x') returning id`;
  return payment?.id ?? '';
}

beforeAll(async () => {
  testDb = await startTestDatabase();
  admin = postgres(testDb.adminUrl, { max: 1, onnotice: () => {} });
  await admin`insert into users (id, username, password) values (${USER}, 'agent-shop', 'x')`;
  await admin`insert into stores (id, name, slug, owner_id, payment_address)
    values (${STORE}, 'Agent Shop', 'agent-shop', ${USER}, ${PAYOUT})`;
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  await admin?.end();
  await testDb?.stop();
}, STACK_TIMEOUT_MS);

describe('waiting for an x402 payment', () => {
  test('the settlement notification wakes the wait at once', async () => {
    const id = await settlingPayment();
    const { db } = testDb.database;
    // Re-read only after a minute: only the notification can end this wait within the test.
    const waiting = waitForRow(db, id, (row) => row.status === 'settled', 60_000, 60_000);
    await Bun.sleep(200);
    await admin`with updated as (
        update x402_payments set status = 'settled', tx_hash = ${`0x${'ab'.repeat(32)}`},
          block_number = 7, settled_at = now()
        where id = ${id} returning id)
      select pg_notify(${X402_SETTLED_CHANNEL}, ${id}) from updated`;
    const row = await waiting;
    expect(row).toMatchObject({ id, status: 'settled', blockNumber: '7' });
  }, 20_000);

  test("another payment's notification does not end it; a lost one is caught by the re-read", async () => {
    const id = await settlingPayment();
    const other = await settlingPayment();
    const { db } = testDb.database;
    let ended = false;
    const waiting = waitForRow(db, id, (row) => row.status === 'failed', 60_000, 500).then(
      (row) => {
        ended = true;
        return row;
      },
    );
    await admin`select pg_notify(${X402_SETTLED_CHANNEL}, ${other})`;
    await Bun.sleep(100);
    expect(ended).toBe(false);
    // Recorded without a notification: the next re-read sees it.
    await admin`update x402_payments set status = 'failed', error = 'reverted' where id = ${id}`;
    expect(await waiting).toMatchObject({ id, status: 'failed', error: 'reverted' });
  }, 20_000);
});
