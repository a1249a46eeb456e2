// What the limits on strangers share: `hashKey` (every limit stores its keys hashed, so a key
// takes the same room however long the input) and the 429 with Retry-After. The counts live in
// Postgres, shared by every API process (http/rate-limit.ts, the sign-in backoff in
// modules/auth/shared-backoff.ts, wrong second-factor codes in modules/account/second-factor.ts).
import { AppError } from './errors.ts';

/** SHA-256 hex of a key: what the limits store instead of the key itself. */
export function hashKey(key: string): string {
  return new Bun.CryptoHasher('sha256').update(key).digest('hex');
}

/**
 * How every count of failures slows its key down: after the free ones, 1 s, doubled by each
 * further failure, at most 15 minutes; forgotten an hour after the last failure.
 */
export const FAILURE_BACKOFF = {
  baseMs: 1000,
  maxMs: 15 * 60 * 1000,
  forgetMs: 60 * 60 * 1000,
} as const;

/**
 * SQL: the milliseconds still to wait (0 or less: none) after `failures` failures of which `free`
 * are free, the last at `lastFailure` (SQL expressions of the counting row), by Postgres's clock.
 */
export function backoffWaitSql(failures: string, lastFailure: string, free: number): string {
  if (!Number.isSafeInteger(free) || free < 0) throw new Error('free failures: a whole number');
  const { baseMs, maxMs } = FAILURE_BACKOFF;
  return `(case when ${failures} > ${free} then extract(epoch from ${lastFailure}
    + least(${baseMs} * power(2, least(${failures} - ${free} - 1, 30)), ${maxMs})
      * interval '1 millisecond' - now()) * 1000 else 0 end)`;
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
