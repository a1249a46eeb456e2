// One owner per forwarding: a worker forwards a wallet only while it holds that wallet's Postgres
// advisory lock, taken with pg_try_advisory_lock on ONE connection the worker keeps for its
// claims. Two or more workers (a deployment with replicas, or a restart overlapping the old
// process) never plan or submit a round of the same wallet at once; a worker that dies loses its
// connection, and Postgres releases its claims at that moment, so another worker takes over at
// once instead of waiting for a lease to run out.
import type { Database } from '../db/client.ts';

/** Claims of one worker process. */
export interface WalletClaims {
  /** True when this worker now owns the wallet (until `release`); false when another does. */
  claim(walletId: string): Promise<boolean>;
  release(walletId: string): Promise<void>;
  /** Gives the claim connection back (every claim is released with it). */
  close(): Promise<void>;
}

// Note: the two-key form of the advisory lock: a namespace for forwarding, then the wallet.
const NAMESPACE = 'storefront-forwarding';

/** Claims on a connection reserved from the worker's pool (taken on first use). */
export function walletClaims(db: Database): WalletClaims {
  type Reserved = Awaited<ReturnType<Database['$client']['reserve']>>;
  let reserved: Promise<Reserved> | undefined;
  const connection = () => {
    // Note: a failed reserve (the database down) is forgotten, so the next claim tries again.
    reserved ??= db.$client.reserve().catch((error: unknown) => {
      reserved = undefined;
      throw error;
    });
    return reserved;
  };
  // Note: one statement at a time on the one connection.
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    tail = run.catch(() => {});
    return run;
  };
  const forget = async (error: unknown) => {
    // Note: a broken claim connection released every claim with it; start a new one next time.
    const lost = reserved;
    reserved = undefined;
    (await lost?.catch(() => undefined))?.release();
    throw error;
  };
  return {
    claim: (walletId) =>
      serial(async () => {
        const sql = await connection();
        const [row] = await sql<{ claimed: boolean }[]>`
          select pg_try_advisory_lock(hashtext(${NAMESPACE}), hashtext(${walletId})) as claimed`.catch(
          forget,
        );
        return row?.claimed === true;
      }),
    release: (walletId) =>
      serial(async () => {
        if (!reserved) return;
        const sql = await connection();
        await sql`select pg_advisory_unlock(hashtext(${NAMESPACE}), hashtext(${walletId}))`.catch(
          forget,
        );
      }),
    close: async () => {
      await tail;
      const lost = reserved;
      reserved = undefined;
      (await lost?.catch(() => undefined))?.release();
    },
  };
}
