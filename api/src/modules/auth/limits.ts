// How hard strangers may push on merchant accounts: failed sign-ins slow down per client and per
// account, a client has few sign-ins in flight at once, and sign-ups are counted per client.
import { BackoffLimiter } from '../../http/attempt-limiter.ts';
import type { RateLimit } from '../../http/rate-limit.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** What the limits allow; the defaults are the production ones. */
export interface AuthLimitSettings {
  /** Failed sign-ins of one client (any usernames) before each further one costs a doubling wait. */
  clientFreeFailures: number;
  /** Failed sign-ins on one account (from any clients) before its doubling wait starts. */
  accountFreeFailures: number;
  /** Sign-ins one client may have in flight at once. */
  clientConcurrency: number;
  /** Sign-up requests (valid bodies, any outcome) per client per hour. */
  signUpTriesPerHour: number;
  /** Accounts per client per hour (sign-ups that passed the password policy). */
  signUpsPerHour: number;
  now?: () => number;
}

/** Production limits. */
export const AUTH_LIMITS: AuthLimitSettings = {
  clientFreeFailures: 10,
  accountFreeFailures: 5,
  clientConcurrency: 2,
  signUpTriesPerHour: 20,
  signUpsPerHour: 5,
};

/**
 * Sign-up limits, counted in Postgres (shared by every API process, see http/rate-limit.ts): at
 * most `signUpTriesPerHour` requests (valid bodies, any outcome) and `signUpsPerHour` new accounts
 * (sign-ups that passed the password policy) per client and hour.
 */
export function signUpRateLimits(settings: AuthLimitSettings): {
  tries: RateLimit;
  accounts: RateLimit;
} {
  return {
    tries: { bucket: 'sign-up:tries', max: settings.signUpTriesPerHour, windowMs: HOUR },
    accounts: { bucket: 'sign-up:accounts', max: settings.signUpsPerHour, windowMs: HOUR },
  };
}

/**
 * The sign-in limits of one API process.
 *
 * Sign-in, against these threats:
 * - Spraying (one client, many usernames): every failure of a client counts against it, whatever
 *   the username; after `clientFreeFailures` each further one doubles its wait (1 s, 2 s, 4 s…
 *   15 minutes at most), forgotten an hour after its last failure. A success does not wipe it
 *   (else signing in to one's own account between guesses would).
 * - Guessing one password from many clients: every failure on an account counts against the
 *   account, with the same doubling wait after `accountFreeFailures`.
 * - Locking the owner out, which a plain per-account lock does: the account's wait applies only to
 *   clients that have themselves failed on that account. The owner signing in from a client that
 *   has not been failing passes however many strangers guessed; each guessing client gets one
 *   guess on the account before the account's wait holds it too (that first guess is what a fresh
 *   client, like the owner's, must be allowed), and its own wait after that.
 * - Parallel bursts, which would all pass the checks before any failure is recorded: a client has
 *   at most `clientConcurrency` sign-ins in flight.
 * Sign-up is limited in Postgres instead (see signUpRateLimits).
 * A client is its address's bucket (see client-address.ts); an account is its lowercased username.
 * Every key is stored hashed and every table is bounded, whatever strangers send.
 */
export class AuthLimits {
  readonly clients: BackoffLimiter;
  readonly accounts: BackoffLimiter;
  /** Which clients have failed on which accounts (no waits of its own). */
  readonly pairs: BackoffLimiter;
  // Note: an entry per client with sign-ins in flight, removed when they end: bounded by the
  // requests in flight, so it needs no hashing or cap.
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly settings: AuthLimitSettings = AUTH_LIMITS) {
    const now = settings.now ?? Date.now;
    const backoff = { baseDelayMs: SECOND, maxDelayMs: 15 * MINUTE, forgetAfterMs: HOUR, now };
    this.clients = new BackoffLimiter({
      ...backoff,
      freeFailures: settings.clientFreeFailures,
      maxKeys: 20_000,
    });
    this.accounts = new BackoffLimiter({
      ...backoff,
      freeFailures: settings.accountFreeFailures,
      maxKeys: 20_000,
    });
    this.pairs = new BackoffLimiter({
      ...backoff,
      freeFailures: Number.POSITIVE_INFINITY,
      maxKeys: 50_000,
    });
  }

  /** Keys remembered by all the limiters (sign-ins in flight aside). */
  get size(): number {
    return this.clients.size + this.accounts.size + this.pairs.size;
  }

  /** Milliseconds `client` must wait before trying to sign in as `account`; 0 when it may now. */
  signInWait(account: string, client: string): number {
    const own = this.clients.waitMs(client);
    const shared = this.pairs.hasFailed(pairKey(account, client))
      ? this.accounts.waitMs(account)
      : 0;
    return Math.max(own, shared);
  }

  /** Records a wrong username or password from `client`. */
  signInFailed(account: string, client: string): void {
    this.clients.fail(client);
    this.accounts.fail(account);
    this.pairs.fail(pairKey(account, client));
  }

  /** Records a sign-in that succeeded: this client proved it knows the password. */
  signInSucceeded(account: string, client: string): void {
    this.pairs.reset(pairKey(account, client));
  }

  /** Marks a sign-in of `client` as started; false (nothing marked) when it has too many already. */
  startSignIn(client: string): boolean {
    const running = this.inFlight.get(client) ?? 0;
    if (running >= this.settings.clientConcurrency) return false;
    this.inFlight.set(client, running + 1);
    return true;
  }

  /** Marks a sign-in of `client` as ended. */
  endSignIn(client: string): void {
    const running = (this.inFlight.get(client) ?? 1) - 1;
    if (running > 0) this.inFlight.set(client, running);
    else this.inFlight.delete(client);
  }
}

function pairKey(account: string, client: string): string {
  return `${account}\n${client}`;
}

/**
 * Password reset requests, counted in Postgres like sign-ups: per client (any addresses) and per
 * email address (so nobody can fill a merchant's inbox with reset mails).
 */
export function forgotPasswordRateLimits(): { client: RateLimit; email: RateLimit } {
  return {
    client: { bucket: 'forgot-password:client', max: 10, windowMs: HOUR },
    email: { bucket: 'forgot-password:email', max: 5, windowMs: HOUR },
  };
}
