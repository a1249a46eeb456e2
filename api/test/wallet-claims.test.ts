// The worker's claims on wallets (session advisory locks on one connection) when that connection
// dies under them, as it does when Postgres restarts: the next claim neither hangs nor takes the
// process down, the lost claims are free for another worker, and claiming works again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import postgres from 'postgres';
import { walletClaims } from '../src/payments/wallet-claims.ts';
import { startTestDatabase, type TestDatabase } from './support/database.ts';

let testDb: TestDatabase;
let admin: postgres.Sql;

beforeAll(async () => {
  testDb = await startTestDatabase();
  admin = postgres(testDb.adminUrl, { max: 1, onnotice: () => {} });
}, 60_000);

afterAll(async () => {
  await admin?.end({ timeout: 5 });
  await testDb?.stop();
}, 60_000);

/** Ends the backends holding advisory locks (the claims' connection), as a crash would. */
async function killClaimConnections(): Promise<number> {
  const killed = await admin<{ pid: number }[]>`
    select pg_terminate_backend(pid) as done, pid from pg_stat_activity
    where pid in (select pid from pg_locks where locktype = 'advisory')`;
  return killed.length;
}

/** `promise`, or an error once `ms` have passed (a hang fails the test instead of stalling it). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    Bun.sleep(ms).then(() => {
      throw new Error(`no answer in ${ms} ms`);
    }),
  ]);
}

describe("a worker's claims when their connection dies", () => {
  test('the next claims answer, the lost ones are free for another worker', async () => {
    const claims = walletClaims(testDb.roleUrls.worker);
    const other = walletClaims(testDb.roleUrls.worker);
    try {
      expect(await claims.claim('wallet-a')).toBe(true);
      expect(await other.claim('wallet-a')).toBe(false);
      expect(await killClaimConnections()).toBe(1);
      await Bun.sleep(200);
      // Note: the first claim after the loss may fail (the connection is gone); it must answer.
      const first = await within(
        claims.claim('wallet-b').then(
          (claimed) => claimed,
          () => 'failed',
        ),
        5000,
      );
      expect([true, 'failed']).toContain(first);
      expect(await within(claims.claim('wallet-c'), 5000)).toBe(true);
      // The dead session's claims went with it: another worker takes wallet-a now.
      expect(await within(other.claim('wallet-a'), 5000)).toBe(true);
      expect(await within(claims.claim('wallet-a'), 5000)).toBe(false);
      await claims.release('wallet-c');
      expect(await other.claim('wallet-c')).toBe(true);
    } finally {
      await claims.close();
      await other.close();
    }
  }, 30_000);
});

describe('claims asked for at once', () => {
  test('each gets its own answer, in the order asked, however many go together', async () => {
    const claims = walletClaims(testDb.roleUrls.worker);
    const other = walletClaims(testDb.roleUrls.worker);
    const ids = Array.from({ length: 120 }, (_, i) => `burst-${i}`);
    try {
      expect(await Promise.all(ids.map((id) => claims.claim(id)))).toEqual(ids.map(() => true));
      expect(await Promise.all(ids.map((id) => other.claim(id)))).toEqual(ids.map(() => false));
      // Half released at once: the other worker gets exactly those.
      const half = ids.slice(0, 60);
      await Promise.all(half.map((id) => claims.release(id)));
      const taken = await Promise.all(ids.map((id) => other.claim(id)));
      expect(taken).toEqual(ids.map((id) => half.includes(id)));
      // A release and a claim of one wallet asked together, in that order, by the same worker.
      const [released, again] = await Promise.all([
        claims.release('burst-100').then(() => 'released'),
        claims.claim('burst-100'),
      ]);
      expect(released).toBe('released');
      expect(again).toBe(true);
      expect(await other.claim('burst-100')).toBe(false);
    } finally {
      await claims.close();
      await other.close();
    }
  }, 30_000);
});
