// Failed attempts counted per key in a sliding window, in memory: enough to stop password
// guessing against one API process (several processes would each count their own).
import { AppError } from './errors.ts';

/** Counts failures per key; `check` refuses a key with too many recent failures. */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 with the wait, in minutes, when `key` has used up its failures. */
  check(key: string): void {
    const recent = this.recent(key);
    if (recent.length < this.maxFailures) return;
    const waitMs = (recent[0] ?? 0) + this.windowMs - this.now();
    const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
    throw new AppError(
      'rate_limited',
      `Too many failed sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
    );
  }

  /** Records one failure of `key`. */
  fail(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.set(key, recent);
    // Note: bounded memory: an attacker cycling through keys cannot grow the map for ever.
    if (this.failures.size > 100_000) this.failures.clear();
  }

  /** Forgets the failures of `key` (after a success). */
  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }
}
