// The retry delay of every loop that tries again after a failure or a wait (webhook and email
// deliveries, forwarding, the relayer's queue): exponential, from a base, capped.

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), at most `maxMs` (base at first). */
export function backoffDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), maxMs);
}
