// The forwarding loop's list of wallets with work: the oldest payments first, without the wallets
// the loop is forwarding already, and never more than the free places it asks for.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { createDatabase } from '../src/db/client.ts';
import { loadWalletsWithWork } from '../src/payments/forwarding-store.ts';
import { STACK_TIMEOUT_MS, startTestDatabase, type TestDatabase } from './support/database.ts';
import { seedOrderWithWallet, seedStore } from './support/migration-seed.ts';

let t: TestDatabase;
let admin: postgres.Sql;
let worker: ReturnType<typeof createDatabase>;
const paid: string[] = [];

beforeAll(async () => {
  t = await startTestDatabase();
  admin = postgres(t.adminUrl, { max: 1, onnotice: () => {} });
  worker = createDatabase(t.roleUrls.worker, { max: 1 });
  await seedStore(admin);
  // Three paid wallets (received a minute apart, the oldest first) and one still waiting.
  for (const i of [0, 1, 2])
    paid.push(
      await seedOrderWithWallet(admin, i, `0f0f0f0f-0000-4000-8000-00000000010${i}`, 'paid', {
        status: 'received',
        detected_amount_usdc: '10',
        received_amount_usdc: '10',
        payment_received_at: new Date(Date.UTC(2026, 10, 29, 12, i)).toISOString(),
      }),
    );
  await seedOrderWithWallet(admin, 3, '0f0f0f0f-0000-4000-8000-000000000103', 'pending', {
    status: 'waiting',
  });
}, STACK_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  await admin?.end();
  await t?.stop();
}, STACK_TIMEOUT_MS);

const listed = async (limit: number, skip?: string[]) =>
  (await loadWalletsWithWork(worker.db, new Date(), limit, skip)).map((w) => w.id);

describe('the wallets the forwarding loop starts', () => {
  test('are the paid ones, oldest payment first, as whole rows', async () => {
    expect(await listed(10)).toEqual(paid);
    const [first] = await loadWalletsWithWork(worker.db, new Date(), 1);
    expect(first?.receivedAmountUsdc).toBe('10.000000');
    expect(first?.walletAddress).toBe(`0x${'1'.padStart(40, '0')}`);
  });

  test('leave out the wallets already being forwarded, within the places asked for', async () => {
    const [oldest, second, newest] = paid as [string, string, string];
    expect(await listed(1, [oldest])).toEqual([second]);
    expect(await listed(10, [newest, oldest])).toEqual([second]);
    expect(await listed(10, paid)).toEqual([]);
  });
});
