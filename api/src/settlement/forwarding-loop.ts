// The worker's forwarding loop: finds wallets holding unforwarded funds (or a round a crash left
// open), forwards several at once, and turns failures into a counted, visible, retried state.
import {
  BaseError,
  HttpRequestError,
  TimeoutError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { type ForwardingContext, forwardWallet, PermanentForwardingError } from './forwarding.ts';
import { forwardingRetryDelayMs, MAX_FORWARDING_ATTEMPTS } from './forwarding-plan.ts';
import { loadWalletsWithWork, recordFailure, type WalletRow } from './forwarding-store.ts';
import { startWakeableLoop, type WakeableLoop } from './wakeable-loop.ts';

/** Options of the loop. */
export interface ForwardingLoopOptions extends ForwardingContext {
  /** First retry delay; doubles per failure, at most 5 minutes. */
  retryBaseMs: number;
  intervalMs?: number;
  /** Wallets forwarded at the same time. */
  concurrency?: number;
  log?: (line: string) => void;
  /** Called after a round is recorded (the worker wakes the webhook dispatcher). */
  onRound?: (walletId: string) => void;
}

/** True for failures of reaching the chain or the database: retried without limit. */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof BaseError) {
    const found = error.walk(
      (e) =>
        e instanceof HttpRequestError ||
        e instanceof TimeoutError ||
        e instanceof WaitForTransactionReceiptTimeoutError,
    );
    if (found) return true;
  }
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket|CONNECT_TIMEOUT/i.test(String(error));
}

/** A failure's one-line text for the merchant and the log. */
function messageOf(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}

/**
 * True for failures of the platform's relayer rather than of this order (out of ETH, its nonce
 * or fee race): every order would fail alike, so they are retried without limit (and logged for
 * the operator) instead of stopping each order's forwarding.
 */
export function isRelayerError(error: unknown): boolean {
  return /insufficient funds|nonce too (low|high)|replacement transaction underpriced|already known|transaction underpriced/i.test(
    messageOf(error),
  );
}

/** Forwards one wallet and records what happened; true when a round was recorded. */
async function forwardAndRecord(
  options: ForwardingLoopOptions,
  wallet: WalletRow,
): Promise<boolean> {
  const log = options.log ?? console.log;
  try {
    if (!(await forwardWallet(options, wallet))) return false;
    log(`order ${wallet.orderId}: forwarded from ${wallet.walletAddress}`);
    options.onRound?.(wallet.id);
    return true;
  } catch (error) {
    const failures = wallet.forwardingRetryCount + 1;
    const unlimited = isConnectionError(error) || isRelayerError(error);
    const stop =
      error instanceof PermanentForwardingError ||
      (!unlimited && failures >= MAX_FORWARDING_ATTEMPTS);
    const next = new Date(Date.now() + forwardingRetryDelayMs(failures, options.retryBaseMs));
    const message = messageOf(error);
    await recordFailure(options.db, wallet, message, stop, next);
    log(
      `order ${wallet.orderId}: forwarding failed (attempt ${failures}, ` +
        `${stop ? 'stopped: a person must look' : `retry at ${next.toISOString()}`}): ${message}`,
    );
    return false;
  }
}

/**
 * Starts the loop: a pass every `intervalMs` (200 ms by default) or when woken. Note: a pass
 * only starts forwardings, so a wallet waiting for its block never holds up the others.
 */
export function startForwardingLoop(options: ForwardingLoopOptions): WakeableLoop {
  const log = options.log ?? console.log;
  const limit = options.concurrency ?? 8;
  const inFlight = new Map<string, Promise<unknown>>();
  const loop = startWakeableLoop(
    'forwarding',
    options.intervalMs ?? 200,
    async () => {
      if (inFlight.size >= limit) return false;
      const wallets = await loadWalletsWithWork(options.db, new Date(), limit * 2);
      const fresh = wallets.filter((w) => !inFlight.has(w.id)).slice(0, limit - inFlight.size);
      for (const wallet of fresh) {
        // Note: woken again only after a recorded round (more may have arrived meanwhile).
        const run = forwardAndRecord(options, wallet)
          .then((recorded) => recorded && loop.wake())
          .catch((error) => log(`forwarding ${wallet.id}: ${String(error)}`))
          .finally(() => inFlight.delete(wallet.id));
        inFlight.set(wallet.id, run);
      }
      return false;
    },
    log,
  );
  return {
    wake: loop.wake,
    stop: async () => {
      await loop.stop();
      await Promise.all(inFlight.values());
    },
  };
}
