// How hard strangers may push on merchant accounts: failed sign-ins slow down per client and per
// account (counted in Postgres), a client has few sign-ins in flight at once, and sign-ups and
// password resets are counted per client.
import type { Database } from '../../db/client.ts';
import type { RateLimit } from '../../http/rate-limit.ts';
import { SignInBackoff } from './shared-backoff.ts';

const HOUR = 60 * 60 * 1000;

/** What the limits allow; the defaults are the production ones. */
export interface AuthLimitSettings {
  /** Failed sign-ins of one client (any usernames) before each further one costs a doubling wait. */
  clientFreeFailures: number;
  /** Failed sign-ins on one account (from any clients) before its doubling wait starts. */
  accountFreeFailures: number;
  /** Sign-ins one client may have in flight at once in each API process. */
  clientConcurrency: number;
  /** Sign-up requests (valid bodies, any outcome) per client per hour. */
  signUpTriesPerHour: number;
  /** Accounts per client per hour (sign-ups that passed the password policy). */
  signUpsPerHour: number;
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
 * The sign-in limits.
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
 * - Several API processes, each of which would count only its own share: the failures are counted
 *   in Postgres (see shared-backoff.ts), shared by every process.
 * - Parallel bursts, which would all pass the checks before any failure is recorded: each attempt
 *   is counted as a failure before its password is checked (and given back when it was not one),
 *   in one transaction per attempt serialised per client and per account; a client also has at
 *   most `clientConcurrency` sign-ins in flight in each process.
 * Sign-up is limited in Postgres too (see signUpRateLimits).
 * A client is its address's bucket (see client-address.ts); an account is its lowercased username.
 * Every key is stored hashed, whatever strangers send.
 */
export class AuthLimits {
  /** The failures, in Postgres. */
  readonly backoff: SignInBackoff;
  // Note: an entry per client with sign-ins in flight in this process, removed when they end:
  // bounded by the requests in flight, so it needs no hashing or cap.
  private readonly inFlight = new Map<string, number>();

  constructor(
    db: Database,
    private readonly settings: AuthLimitSettings = AUTH_LIMITS,
  ) {
    this.backoff = new SignInBackoff(db, settings);
  }

  /** Clients with sign-ins in flight in this process. */
  get clientsInFlight(): number {
    return this.inFlight.size;
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
