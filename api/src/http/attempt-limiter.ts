// What the limits on strangers share: `hashKey` (every limit stores its keys hashed) and the 429
// with Retry-After; and an in-memory limiter of failures that earn growing delays (BackoffLimiter).
// Note: a BackoffLimiter counts in one API process only (several processes would each count their
// own); counts that replicas share are in Postgres (http/rate-limit.ts, and the sign-in backoff in
// modules/auth/shared-backoff.ts).
// Note: memory stays bounded whatever strangers send. Keys are stored as their SHA-256 (64
// characters however long the input), an entry is forgotten once it no longer limits anything, and
// at most `maxKeys` entries are kept: past that the least recently touched go first.
import { AppError } from './errors.ts';

/** SHA-256 hex of a key: what the limiters store instead of the key itself. */
export function hashKey(key: string): string {
  return new Bun.CryptoHasher('sha256').update(key).digest('hex');
}

interface Expiring {
  /** When the entry stops mattering (epoch ms): then it reads as absent and is dropped. */
  forgetAt: number;
}

/** Entries by hashed key, in order of last write, at most `maxKeys`, expired ones dropped. */
class BoundedStore<V extends Expiring> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(hash: string): V | undefined {
    const entry = this.entries.get(hash);
    if (entry && entry.forgetAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  /** Stores `value` as the most recently touched entry, then sweeps from the oldest end. */
  set(hash: string, value: V): void {
    this.entries.delete(hash);
    this.entries.set(hash, value);
    this.sweep();
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  // Note: lazy cleanup, amortised O(1): the oldest entries sit first, so dropping from the front
  // while they are expired, or while there are too many, never walks the live ones.
  private sweep(): void {
    const now = this.now();
    for (const [hash, entry] of this.entries) {
      if (this.entries.size <= this.maxKeys && entry.forgetAt > now) break;
      this.entries.delete(hash);
    }
  }
}

/** How a BackoffLimiter slows a key down. */
export interface BackoffOptions {
  /** Failures allowed without any wait. */
  freeFailures: number;
  /** Wait after the first failure beyond the free ones; each further failure doubles it. */
  baseDelayMs: number;
  /** Longest wait. */
  maxDelayMs: number;
  /** A key's failures are forgotten this long after its last one (at least `maxDelayMs`). */
  forgetAfterMs: number;
  /** Most keys remembered. */
  maxKeys: number;
  now?: () => number;
}

interface Failures extends Expiring {
  count: number;
  /** No attempt before this time (epoch ms). */
  waitUntil: number;
}

/**
 * Failures per key that slow the key down instead of locking it out: the first `freeFailures`
 * cost nothing, then each failure makes the key wait `baseDelayMs`, twice that, four times… up to
 * `maxDelayMs`. An attempt during the wait is refused without counting as a failure.
 */
export class BackoffLimiter {
  private readonly store: BoundedStore<Failures>;
  private readonly now: () => number;

  constructor(private readonly options: BackoffOptions) {
    if (options.forgetAfterMs < options.maxDelayMs)
      throw new Error('forgetAfterMs must be at least maxDelayMs');
    this.now = options.now ?? Date.now;
    this.store = new BoundedStore(options.maxKeys, this.now);
  }

  /** Keys remembered (expired ones may linger until the next write sweeps them). */
  get size(): number {
    return this.store.size;
  }

  /** Milliseconds `key` must still wait before its next attempt; 0 when it may try now. */
  waitMs(key: string): number {
    const entry = this.store.get(hashKey(key));
    return entry ? Math.max(0, entry.waitUntil - this.now()) : 0;
  }

  /** Whether `key` has a failure on record. */
  hasFailed(key: string): boolean {
    return this.store.get(hashKey(key)) !== undefined;
  }

  /** Records one failure of `key`; past the free ones it sets the key's next wait. */
  fail(key: string): void {
    const hash = hashKey(key);
    const now = this.now();
    const count = (this.store.get(hash)?.count ?? 0) + 1;
    const beyond = count - this.options.freeFailures;
    const delay =
      beyond > 0
        ? Math.min(
            this.options.baseDelayMs * 2 ** Math.min(beyond - 1, 50),
            this.options.maxDelayMs,
          )
        : 0;
    this.store.set(hash, {
      count,
      waitUntil: now + delay,
      forgetAt: now + this.options.forgetAfterMs,
    });
  }

  /** Forgets the failures of `key`. */
  reset(key: string): void {
    this.store.delete(hashKey(key));
  }
}

/** "N seconds", "N minutes" or "N hours", rounded up, for a wait of `ms`. */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const [amount, unit] =
    seconds < 120
      ? [seconds, 'second']
      : seconds < 2 * 3600
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3600), 'hour'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/**
 * The 429 for a wait of `ms`: sets `Retry-After` (whole seconds, rounded up) on the response and
 * returns the error to throw, whose message ends with "try again in …".
 */
export function tooManyAttempts(
  set: { headers: Record<string, unknown> },
  ms: number,
  reason: string,
): AppError {
  set.headers['retry-after'] = String(Math.max(1, Math.ceil(ms / 1000)));
  return new AppError('rate_limited', `${reason}; try again in ${waitText(ms)}`);
}
