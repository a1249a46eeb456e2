// The sign-in backoff, counted in Postgres (table rate_limits) so that every API process sees the
// same failures: rows of the buckets 'sign-in:client', 'sign-in:account' and 'sign-in:pair' (a
// client on an account), keys stored hashed, hits = failures, window_ends_at = the last failure +
// 1 hour (then the hourly prune of http/rate-limit.ts deletes the row). Each wait is computed from
// these by Postgres's clock. A row with 0 hits (an attempt given back) counts as absent.
// Note: an attempt is taken (counted as a failure) before the password is checked, and given back
// when it turns out not to be one; taking it is serialised per client and per account (advisory
// locks held by the taking transaction), so requests sent at once to any number of processes
// cannot all pass the wait before any of them is counted.
import type { Database } from '../../db/client.ts';
import { backoffWaitSql, FAILURE_BACKOFF, hashKey } from '../../http/attempt-limiter.ts';

/** The rows of the backoff. */
export const SIGN_IN_BUCKETS = {
  client: 'sign-in:client',
  account: 'sign-in:account',
  pair: 'sign-in:pair',
} as const;

/** Failures allowed before the doubling waits start. */
export interface SignInBackoffSettings {
  /** Failed sign-ins of one client (any usernames). */
  clientFreeFailures: number;
  /** Failed sign-ins on one account (from any clients). */
  accountFreeFailures: number;
}

/** A row's failures are forgotten this long after its last one. */
const FORGET_AFTER = `${FAILURE_BACKOFF.forgetMs} milliseconds`;

/** An attempt taken by `SignInBackoff.take`: what giving it back restores. */
export interface SignInAttempt {
  keys: { client: string; account: string; pair: string };
  /** The window end the attempt stamped on its rows (Postgres's text, microseconds kept). */
  stamp: string;
  /** Each row's window end before the attempt (null: no live row). */
  before: { client: string | null; account: string | null; pair: string | null };
}

/** What taking an attempt gave: the attempt, or the milliseconds to wait (nothing counted). */
export type SignInTake = { attempt: SignInAttempt; waitMs: 0 } | { attempt: null; waitMs: number };

/** The wait of a row (columns `hits` and `window_ends_at`, the last failure + FORGET_AFTER). */
const rowWait = (free: number) =>
  `greatest(0, ${backoffWaitSql('hits', `window_ends_at - interval '${FORGET_AFTER}'`, free)})`;

/**
 * CTEs `live` (the live rows of $1 client, $2 account, $3 pair) and `wait` (its `ms`: the client's
 * own wait, and the account's when the client has failed on it), for $4 and $5 free failures.
 */
function waitCtes(settings: SignInBackoffSettings): string {
  const { clientFreeFailures: clientFree, accountFreeFailures: accountFree } = settings;
  return `live as (
      select bucket, hits, window_ends_at from rate_limits
      where window_ends_at > now() and hits > 0 and (
        (bucket = '${SIGN_IN_BUCKETS.client}' and key = $1)
        or (bucket = '${SIGN_IN_BUCKETS.account}' and key = $2)
        or (bucket = '${SIGN_IN_BUCKETS.pair}' and key = $3))),
    wait as (
      select greatest(
        coalesce((select ${rowWait(clientFree)} from live
          where bucket = '${SIGN_IN_BUCKETS.client}'), 0),
        case when exists (select from live where bucket = '${SIGN_IN_BUCKETS.pair}')
          then coalesce((select ${rowWait(accountFree)} from live
            where bucket = '${SIGN_IN_BUCKETS.account}'), 0)
          else 0 end)::float8 as ms)`;
}

/** The backoff of failed sign-ins, shared by every API process through Postgres. */
export class SignInBackoff {
  private readonly waitStatement: string;
  private readonly takeStatement: string;

  constructor(
    private readonly db: Database,
    settings: SignInBackoffSettings,
  ) {
    const ctes = waitCtes(settings);
    this.waitStatement = `with ${ctes} select ms from wait`;
    // Note: the upserts run only when nothing waits; a live row counts one more failure, a
    // forgotten one starts again at 1; `live` still holds each row as it was before.
    this.takeStatement = `with ${ctes},
    taken as (
      insert into rate_limits as r (bucket, key, hits, window_ends_at)
      select v.bucket, v.key, 1, now() + interval '${FORGET_AFTER}'
      from (values ('${SIGN_IN_BUCKETS.client}', $1::text), ('${SIGN_IN_BUCKETS.account}', $2::text),
        ('${SIGN_IN_BUCKETS.pair}', $3::text)) as v(bucket, key), wait
      where wait.ms <= 0
      on conflict (bucket, key) do update set
        hits = case when r.window_ends_at <= now() or r.hits <= 0 then 1
          else least(r.hits, 2147483646) + 1 end,
        window_ends_at = excluded.window_ends_at
      returning r.bucket)
    select (select ms from wait) as wait_ms, (select count(*) from taken)::int as taken,
      (now() + interval '${FORGET_AFTER}')::text as stamp,
      (select window_ends_at::text from live where bucket = '${SIGN_IN_BUCKETS.client}') as client,
      (select window_ends_at::text from live where bucket = '${SIGN_IN_BUCKETS.account}') as account,
      (select window_ends_at::text from live where bucket = '${SIGN_IN_BUCKETS.pair}') as pair`;
  }

  /** Milliseconds `client` must wait before trying to sign in as `account` (0: now); counts nothing. */
  async waitMs(account: string, client: string): Promise<number> {
    const keys = keysOf(account, client);
    const [row] = await this.db.$client.unsafe<{ ms: number }[]>(
      this.waitStatement,
      [keys.client, keys.account, keys.pair],
      { prepare: true },
    );
    return waitOf(row?.ms);
  }

  /**
   * Takes one attempt of `client` on `account`, counted as a failure of the client, the account
   * and the pair until it is given back; none while a wait applies (then its milliseconds).
   */
  async take(account: string, client: string): Promise<SignInTake> {
    const keys = keysOf(account, client);
    const row = await this.db.$client.begin(async (tx) => {
      // Note: every attempt locks its client then its account (the same order everywhere), and
      // the statement after it reads the rows as the attempts before it left them.
      await tx.unsafe(
        'select pg_advisory_xact_lock(hashtextextended($1, 0)), pg_advisory_xact_lock(hashtextextended($2, 0))',
        [
          `${SIGN_IN_BUCKETS.client}\n${keys.client}`,
          `${SIGN_IN_BUCKETS.account}\n${keys.account}`,
        ],
        { prepare: true },
      );
      const [taken] = await tx.unsafe<TakeRow[]>(
        this.takeStatement,
        [keys.client, keys.account, keys.pair],
        { prepare: true },
      );
      return taken;
    });
    if (!row || row.taken === 0) return { attempt: null, waitMs: waitOf(row?.wait_ms) };
    return {
      attempt: {
        keys,
        stamp: row.stamp,
        before: { client: row.client, account: row.account, pair: row.pair },
      },
      waitMs: 0,
    };
  }

  /**
   * Gives an attempt back (it was not a failure): one hit less on each row, and each row's last
   * failure as it was unless a later attempt has stamped it since. With `clearPair`, the pair is
   * forgotten instead: the client proved it knows the password, so the account's wait no longer
   * holds it (its own failures and the account's stay counted otherwise).
   */
  async giveBack(attempt: SignInAttempt, options: { clearPair?: boolean } = {}): Promise<void> {
    const { keys, stamp, before } = attempt;
    await this.db.$client.unsafe(
      `update rate_limits as r set
        hits = case when v.clear then 0 else greatest(r.hits - 1, 0) end,
        window_ends_at = case when r.window_ends_at = $7::timestamptz and v.before is not null
          then v.before::timestamptz else r.window_ends_at end
      from (values ('${SIGN_IN_BUCKETS.client}', $1::text, $4::text, false),
        ('${SIGN_IN_BUCKETS.account}', $2::text, $5::text, false),
        ('${SIGN_IN_BUCKETS.pair}', $3::text, $6::text, $8::boolean)) as v(bucket, key, before, clear)
      where r.bucket = v.bucket and r.key = v.key`,
      [
        keys.client,
        keys.account,
        keys.pair,
        before.client,
        before.account,
        before.pair,
        stamp,
        options.clearPair === true,
      ],
      { prepare: true },
    );
  }
}

interface TakeRow {
  wait_ms: number;
  taken: number;
  stamp: string;
  client: string | null;
  account: string | null;
  pair: string | null;
}

/** The hashed keys of an attempt: the client, the account, and the client on the account. */
function keysOf(account: string, client: string): SignInAttempt['keys'] {
  return {
    client: hashKey(client),
    account: hashKey(account),
    pair: hashKey(`${account}\n${client}`),
  };
}

/** A wait read from Postgres, in whole milliseconds (at least 1 when there is one). */
function waitOf(ms: number | null | undefined): number {
  const value = Number(ms ?? 0);
  return value > 0 ? Math.max(1, Math.ceil(value)) : 0;
}
