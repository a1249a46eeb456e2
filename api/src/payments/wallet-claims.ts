// One owner per forwarding: a worker forwards a wallet only while it holds that wallet's Postgres
// advisory lock, taken with pg_try_advisory_lock on ONE connection the worker keeps for its
// claims. Two or more workers (a deployment with replicas, or a restart overlapping the old
// process) never plan or submit a round of the same wallet at once; a worker that dies loses its
// connection, and Postgres releases its claims at that moment, so another worker takes over at
// once instead of waiting for a lease to run out.
import postgres from 'postgres';

/** Claims of one worker process. */
export interface WalletClaims {
  /** True when this worker now owns the wallet (until `release`); false when another does. */
  claim(walletId: string): Promise<boolean>;
  release(walletId: string): Promise<void>;
  /** Closes the claim connection (every claim is released with it). */
  close(): Promise<void>;
}

// Note: the two-key form of the advisory lock: a namespace for forwarding, then the wallet.
const NAMESPACE = 'storefront-forwarding';

/**
 * Claims on a connection of their own to `databaseUrl` (opened on first use).
 * Note: a pool of one, not a connection reserved from the worker's pool: when Postgres restarts,
 * the postgres client reconnects a pool's connection for its next query, while a reserved one
 * whose socket closed takes the next query into a write on no socket (an uncaught TypeError that
 * ends the process, the query never answered). The claims held on a lost connection are gone
 * with it (Postgres released them); a round under way goes on, guarded as ever by its nonces.
 */
export function walletClaims(databaseUrl: string): WalletClaims {
  const sql = postgres(databaseUrl, {
    max: 1,
    // Note: never closed while idle or by age: that would release every claim it holds.
    idle_timeout: 0,
    max_lifetime: null,
    // Note: unlocking a claim a lost connection took with it only warns.
    onnotice: () => {},
    connection: { application_name: 'storefront-worker-claims' },
  });
  // Note: one statement at a time on the one connection; the claims and releases asked for while
  // one runs go together in the next (one round trip for all of them, in the order asked), so a
  // busy worker's claims never queue one by one behind each other.
  const pending: Ask[] = [];
  let running: Promise<void> | undefined;
  const drain = async () => {
    while (pending.length > 0) {
      const asks = pending.splice(0, MAX_ASKS);
      try {
        const rows = await sql<{ ok: boolean | null }[]>`
          select case when t.kind = 'claim'
              then pg_try_advisory_lock(hashtext(${NAMESPACE}), hashtext(t.id))
              else pg_advisory_unlock(hashtext(${NAMESPACE}), hashtext(t.id)) end as ok
          from unnest(${asks.map((a) => a.kind)}::text[], ${asks.map((a) => a.walletId)}::text[])
            with ordinality as t(kind, id, n)
          order by t.n`;
        for (const [i, ask] of asks.entries()) ask.resolve(rows[i]?.ok === true);
      } catch (error) {
        for (const ask of asks) ask.reject(error);
      }
    }
    // Note: in the same step as the last look at `pending`, so no ask is left without a drain.
    running = undefined;
  };
  const ask = (kind: Ask['kind'], walletId: string) =>
    new Promise<boolean>((resolve, reject) => {
      pending.push({ kind, walletId, resolve, reject });
      running ??= drain();
    });
  return {
    claim: (walletId) => ask('claim', walletId),
    release: async (walletId) => {
      await ask('release', walletId);
    },
    close: async () => {
      await running;
      await sql.end({ timeout: 5 });
    },
  };
}

/** A claim or a release waiting for the connection. */
interface Ask {
  kind: 'claim' | 'release';
  walletId: string;
  resolve: (answer: boolean) => void;
  reject: (error: unknown) => void;
}

/** Most claims and releases in one statement. */
const MAX_ASKS = 500;
