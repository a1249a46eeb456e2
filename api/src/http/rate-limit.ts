// Rate limits shared by every API process: hits are counted in Postgres (table rate_limits), one
// row per (bucket, key) and one upsert per hit, so replicas behind a load balancer see the same
// counts. A key's window starts at its first hit and lasts `windowMs`; a hit beyond `max` in it is
// refused with 429 and Retry-After (the time left in the window). Rows whose window has ended are
// deleted by the API's hourly prune.
// Note: a refused hit still counts, which never lengthens the window; the next window starts with
// the first hit after it.
import { lt, sql } from 'drizzle-orm';
import type { ApiConfig } from '../config.ts';
import type { AppDeps } from '../context.ts';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { hashKey, tooManyAttempts } from './attempt-limiter.ts';
import { clientAddress, clientBucket, type RequestSource } from './client-address.ts';

const MINUTE_MS = 60 * 1000;

/** One limited action. */
export interface RateLimit {
  /** The action's name in the table ('orders:client', …). */
  bucket: string;
  /** Hits allowed per key in one window. */
  max: number;
  /** Length of a key's window, from its first hit. */
  windowMs: number;
}

/** A limit to apply to one key, and the 429's reason (its message before "; try again in …"). */
export interface RateLimitCheck {
  limit: RateLimit;
  key: string;
  reason: string;
}

/** Where a route's handler puts its response headers. */
type ResponseHeaders = { headers: Record<string, unknown> };

/** Counts and reads hits in the shared table. */
export class RateLimiter {
  constructor(private readonly db: Database) {}

  /** Counts one hit of `key`; the milliseconds to wait when this hit is beyond the limit, else 0. */
  async hit(limit: RateLimit, key: string): Promise<number> {
    // Note: `r.` is the stored row; both expressions read it before the update.
    const [row] = await this.db.execute<{ hits: number; wait_ms: number }>(sql`
      insert into ${rateLimits} as r (bucket, key, hits, window_ends_at)
      values (${limit.bucket}, ${hashKey(key)}, 1,
        now() + make_interval(secs => ${limit.windowMs / 1000}))
      on conflict (bucket, key) do update set
        hits = case when r.window_ends_at <= now() then 1 else least(r.hits, 2147483646) + 1 end,
        window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at
          else r.window_ends_at end
      returning hits, extract(epoch from window_ends_at - now())::float8 * 1000 as wait_ms`);
    return row && row.hits > limit.max ? Math.max(1, row.wait_ms) : 0;
  }

  /** The milliseconds `key` must wait before its next hit would be allowed, without counting one. */
  async waitMs(limit: RateLimit, key: string): Promise<number> {
    const [row] = await this.db.execute<{ hits: number; wait_ms: number }>(sql`
      select hits, extract(epoch from window_ends_at - now())::float8 * 1000 as wait_ms
      from ${rateLimits}
      where bucket = ${limit.bucket} and key = ${hashKey(key)} and window_ends_at > now()`);
    return row && row.hits >= limit.max ? Math.max(1, row.wait_ms) : 0;
  }

  /**
   * Counts a hit for each check in turn and throws the 429 (with Retry-After) of the first one
   * beyond its limit; the checks after it are not counted (a client refused on its own limit
   * never uses up a store's). One statement for all the checks (a prepared one per number of
   * checks): each check's upsert runs only when the one before it was within its limit.
   */
  async enforce(set: ResponseHeaders, checks: readonly RateLimitCheck[]): Promise<void> {
    if (checks.length === 0) return;
    const [row] = await this.db.$client.unsafe<RateLimitRow[]>(
      enforceStatement(checks.length),
      rateLimitParams(checks),
      { prepare: true },
    );
    throwIfRefused(set, checks, row);
  }
}

/** The columns of `rateLimitColumns`: check i's `refused_i` and `wait_ms_i` (null when not counted). */
export type RateLimitRow = Record<string, boolean | number | null>;

/** The parameters of `rateLimitCtes` for `checks`: four per check, in their order. */
export function rateLimitParams(checks: readonly RateLimitCheck[]): Array<string | number> {
  const params: Array<string | number> = [];
  for (const { limit, key } of checks)
    params.push(limit.bucket, hashKey(key), limit.windowMs / 1000, limit.max);
  return params;
}

/**
 * Throws the 429 (with Retry-After) of the first check beyond its limit, from a row with
 * `rateLimitColumns`; the checks after it were not counted.
 */
export function throwIfRefused(
  set: ResponseHeaders,
  checks: readonly RateLimitCheck[],
  row: RateLimitRow | undefined,
): void {
  checks.forEach(({ reason }, i) => {
    if (row?.[`refused_${i}`] === true)
      throw tooManyAttempts(set, Math.max(1, Number(row[`wait_ms_${i}`])), reason);
  });
}

/**
 * The upserts of `count` checks as CTEs c0…c(count-1), for a statement of their own or inside a
 * larger one: check i's parameters are $(offset+4i+1) (bucket), $(offset+4i+2) (hashed key),
 * $(offset+4i+3) (window in seconds) and $(offset+4i+4) (its max). Each check's upsert runs only
 * when the one before it was within its limit (a client refused on its own limit never uses up a
 * store's).
 */
export function rateLimitCtes(count: number, offset = 0): string {
  return Array.from({ length: count }, (_, i) => {
    const p = (n: number) => `$${offset + 4 * i + n}`;
    const guard =
      i === 0 ? '' : `where (select hits from c${i - 1}) <= $${offset + 4 * (i - 1) + 4}::int`;
    return `c${i} as (
      insert into rate_limits as r (bucket, key, hits, window_ends_at)
      select ${p(1)}::text, ${p(2)}::text, 1, now() + make_interval(secs => ${p(3)}::float8)
      ${guard}
      on conflict (bucket, key) do update set
        hits = case when r.window_ends_at <= now() then 1 else least(r.hits, 2147483646) + 1 end,
        window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at
          else r.window_ends_at end
      returning hits, extract(epoch from window_ends_at - now())::float8 * 1000 as wait_ms)`;
  }).join(',\n');
}

/** The select list reading the CTEs of `rateLimitCtes`: `refused_i` and `wait_ms_i` per check. */
export function rateLimitColumns(count: number, offset = 0): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `(select hits > $${offset + 4 * i + 4}::int from c${i}) as refused_${i}, (select wait_ms from c${i}) as wait_ms_${i}`,
  ).join(', ');
}

// Note: one statement for all the checks, a prepared one per number of checks.
const enforceStatements = new Map<number, string>();
function enforceStatement(count: number): string {
  const cached = enforceStatements.get(count);
  if (cached) return cached;
  const statement = `with ${rateLimitCtes(count)}\nselect ${rateLimitColumns(count)}`;
  enforceStatements.set(count, statement);
  return statement;
}

/** Deletes the counters whose window has ended (the API's hourly prune). */
export async function pruneRateLimits(db: Database): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowEndsAt, sql`now()`));
}

/** The key of a request's client: its address's bucket (an IPv6 /64 counts as one client). */
export function clientKey(source: RequestSource, config: Pick<ApiConfig, 'trustProxy'>): string {
  return clientBucket(clientAddress(source, { trustProxy: config.trustProxy }));
}

/** Texts of the write limits (each 429 message ends with "; try again in …"). */
export const RATE_LIMIT_MESSAGES = {
  clientOrders: 'Too many orders from your network',
  storeOrders: 'This store is receiving too many orders right now',
  clientWallets: 'Too many payment addresses requested from your network',
  clientPaymentStreams: 'Too many payment status streams opened from your network',
  clientStockHolds: 'Too many orders holding stock from your network',
  accountUploads: 'Too many image uploads from your account',
  clientDiscountChecks: 'Too many discount codes tried from your network',
} as const;

/** The limits of the public writes, per minute, from the configuration. */
export function publicWriteLimits(config: Pick<ApiConfig, 'rateLimits'>) {
  const perMinute = (bucket: string, max: number): RateLimit => ({
    bucket,
    max,
    windowMs: MINUTE_MS,
  });
  return {
    /** Orders (store and universal) created by one client. */
    clientOrders: perMinute('orders:client', config.rateLimits.ordersPerMinute),
    /** Orders of one store (its id) or one universal payout address. */
    storeOrders: perMinute('orders:store', config.rateLimits.storeOrdersPerMinute),
    /** Deposit addresses asked for by one client. */
    clientWallets: perMinute('wallets:client', config.rateLimits.walletsPerMinute),
    /** Payment status streams opened by one client. */
    clientPaymentStreams: perMinute(
      'payment-streams:client',
      config.rateLimits.paymentStreamsPerMinute,
    ),
  };
}

/** What a route's `transform` hook sees of the request. */
type Context = RequestSource & { set: ResponseHeaders };

/**
 * The checks of the public writes, for the routes' `transform` hooks.
 * Note: `transform` runs before the Idempotency-Key is claimed, so a refused request leaves no
 * stored 429 behind that a retry with the same key would replay; the body there is parsed but not
 * validated yet, so the store's key is read defensively (none when the body names none).
 */
export function publicWriteGuards({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  const limiter = new RateLimiter(db);
  const limits = publicWriteLimits(config);
  const clientCheck = (context: Context, limit: RateLimit, reason: string): RateLimitCheck => ({
    limit,
    key: clientKey(context, config),
    reason,
  });
  /** The checks of one order from the request's client for `store` (a store id or payout address). */
  const orderChecks = (context: RequestSource, store: unknown): RateLimitCheck[] => {
    const checks: RateLimitCheck[] = [
      {
        limit: limits.clientOrders,
        key: clientKey(context, config),
        reason: RATE_LIMIT_MESSAGES.clientOrders,
      },
    ];
    if (typeof store === 'string' && store.length > 0 && store.length <= 200)
      checks.push({
        limit: limits.storeOrders,
        key: store.trim().toLowerCase(),
        reason: RATE_LIMIT_MESSAGES.storeOrders,
      });
    return checks;
  };
  const order = (context: Context, store: unknown) =>
    limiter.enforce(context.set, orderChecks(context, store));
  return {
    /**
     * The checks of POST /api/orders (the client, then the store), for a route that counts them
     * in its own statement (`rateLimitCtes`).
     */
    storeOrderChecks: (context: RequestSource, storeId: string) => orderChecks(context, storeId),
    /** POST /api/orders: the client, then the store of `body.storeId`. */
    storeOrder: (context: Context & { body: unknown }) =>
      order(context, (context.body as { storeId?: unknown } | null)?.storeId),
    /** POST /api/universal-orders: the client, then the payout address of the body. */
    universalOrder: (context: Context & { body: unknown }) =>
      order(
        context,
        (context.body as { storePaymentAddress?: unknown } | null)?.storePaymentAddress,
      ),
    /**
     * POST /api/discount-codes/check: the client, at most twice its orders per minute, so codes
     * cannot be guessed by the thousand.
     */
    discountCheck: (context: Context) =>
      limiter.enforce(context.set, [
        clientCheck(
          context,
          {
            bucket: 'discount-checks:client',
            max: config.rateLimits.ordersPerMinute * 2,
            windowMs: MINUTE_MS,
          },
          RATE_LIMIT_MESSAGES.clientDiscountChecks,
        ),
      ]),
    /** POST /api/orders/{id}/assign-payment-wallet: the client. */
    wallet: (context: Context) =>
      limiter.enforce(context.set, [
        clientCheck(context, limits.clientWallets, RATE_LIMIT_MESSAGES.clientWallets),
      ]),
    /**
     * An order that will hold stock (POST /api/orders with tracked products): the client, at most
     * `stockHoldsPerClient` within one hold's time. Called by the order's creation itself.
     */
    stockHold: (context: Context, holdMinutes: number) =>
      limiter.enforce(context.set, [
        clientCheck(
          context,
          {
            bucket: 'stock-holds:client',
            max: config.rateLimits.stockHoldsPerClient,
            windowMs: holdMinutes * MINUTE_MS,
          },
          RATE_LIMIT_MESSAGES.clientStockHolds,
        ),
      ]),
    /** GET /api/orders/{id}/payment-events: the client. */
    paymentStream: (context: Context) =>
      limiter.enforce(context.set, [
        clientCheck(context, limits.clientPaymentStreams, RATE_LIMIT_MESSAGES.clientPaymentStreams),
      ]),
  };
}
