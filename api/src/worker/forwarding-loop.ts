// The worker's forwarding loop: finds wallets holding unforwarded funds (or a round a crash left
// open), forwards several at once, and turns failures into a counted, visible, retried state;
// the relayer's own trouble is never counted against an order: the wallet waits for the relayer.
import { and, eq } from 'drizzle-orm';
import {
  BaseError,
  HttpRequestError,
  TimeoutError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { paymentWallets } from '../db/schema.ts';
import { backoffDelayMs } from '../loops/backoff.ts';
import { startWakeableLoop, type WakeableLoop } from '../loops/wakeable-loop.ts';
import {
  type ForwardingContext,
  forwardWallet,
  PaymentLeftChainError,
  PermanentForwardingError,
} from '../payments/forwarding.ts';
import { mayResendLeg } from '../payments/forwarding-cancel.ts';
import { isPending, receiptOf } from '../payments/forwarding-chain.ts';
import { MAX_FORWARDING_ATTEMPTS, MAX_FORWARDING_DELAY_MS } from '../payments/forwarding-plan.ts';
import {
  loadWalletsWithWork,
  openRoundLegs,
  recordFailure,
  recordWait,
  type WalletRow,
} from '../payments/forwarding-store.ts';
import {
  attachRelayerManager,
  messageOf,
  RELAYER_DEFAULTS,
  RelayerManager,
  type RelayerSettings,
  relayerTrouble,
  startRelayerWatch,
  WAITING_RELAYER,
  WAITING_RELAYER_PREFIX,
} from '../payments/relayer.ts';

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
  /** How the relayer is looked after (RELAYER_DEFAULTS for what is not given). */
  relayer?: Partial<RelayerSettings>;
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

/**
 * True for failures of the platform's relayer rather than of this order (out of ETH, its nonce
 * or fee race): every order would fail alike, so they never count toward the attempts that stop
 * an order (see `relayerTrouble`, which reads viem's error classes and the node's `details`).
 */
export function isRelayerError(error: unknown): boolean {
  return relayerTrouble(error) !== undefined;
}

/**
 * Why a failure that names no relayer trouble still is one: a leg's recorded relayer transaction
 * was never mined and its nonce went to another transaction (a nonce race or a lost transaction),
 * so the round failed for the relayer's sake, not the order's. Undefined otherwise.
 */
async function lostRelayerTransaction(
  ctx: ForwardingContext,
  wallet: WalletRow,
): Promise<string | undefined> {
  const { client, relayer } = ctx.chain;
  const legs = (await openRoundLegs(ctx.db, wallet.id)).filter(
    (l) => (l.mode === 'eip3009' || l.leg === 'gas') && l.txHash && l.txNonce !== null,
  );
  if (legs.length === 0) return undefined;
  const latest = await client.getTransactionCount({ address: relayer.address });
  for (const leg of legs) {
    const hash = leg.txHash as `0x${string}`;
    if ((leg.txNonce ?? 0) >= latest || (await receiptOf(client, hash))) continue;
    if (await isPending(client, hash)) continue;
    return `its transaction at nonce ${leg.txNonce} was never mined; the nonce went to another`;
  }
  return undefined;
}

/** Marks a wallet as waiting for the relayer: not counted, never failed, tried again soon. */
async function recordRelayerWait(
  options: ForwardingLoopOptions,
  wallet: WalletRow,
  reason: string,
  next: Date,
): Promise<void> {
  await options.db
    .update(paymentWallets)
    .set({
      forwardingStatus: WAITING_RELAYER,
      forwardingError: `${WAITING_RELAYER_PREFIX}${reason}`.slice(0, 1000),
      forwardingNextAttemptAt: next,
    })
    .where(
      and(
        eq(paymentWallets.id, wallet.id),
        eq(paymentWallets.forwardedAmountUsdc, wallet.forwardedAmountUsdc),
      ),
    );
}

/** How long a round whose payment left the chain waits before it is looked at again. */
const PAYMENT_WAIT_MS = 1000;

/** Per wallet: how many times in a row it waited for the relayer (its short backoff). */
type Waits = Map<string, { count: number; reason: string }>;

/** Forwards one wallet and records what happened; true when a round was recorded. */
async function forwardAndRecord(
  options: ForwardingLoopOptions,
  settings: RelayerSettings,
  waits: Waits,
  wallet: WalletRow,
): Promise<boolean> {
  const log = options.log ?? console.log;
  try {
    if (!(await forwardWallet(options, wallet))) return false;
    waits.delete(wallet.id);
    log(`order ${wallet.orderId}: forwarded from ${wallet.walletAddress}`);
    options.onRound?.(wallet.id);
    return true;
  } catch (error) {
    if (error instanceof PaymentLeftChainError) {
      // Note: detection reverses the order within a few passes; then the round is cancelled.
      await recordWait(options.db, wallet, error.message, new Date(Date.now() + PAYMENT_WAIT_MS));
      if (waits.get(wallet.id)?.reason !== error.message)
        log(`order ${wallet.orderId}: forwarding holds its round back: ${error.message}`);
      waits.set(wallet.id, { count: 0, reason: error.message });
      return false;
    }
    const trouble =
      error instanceof PermanentForwardingError
        ? undefined
        : (relayerTrouble(error) ??
          (await lostRelayerTransaction(options, wallet).catch(() => undefined)));
    if (trouble) {
      const previous = waits.get(wallet.id);
      const count = (previous?.count ?? 0) + 1;
      // Note: a wallet another worker finished leaves its entry behind; this bounds them.
      if (waits.size > 10_000) waits.clear();
      waits.set(wallet.id, { count, reason: trouble });
      const delay = backoffDelayMs(count, options.retryBaseMs, settings.maxWaitMs);
      await recordRelayerWait(options, wallet, trouble, new Date(Date.now() + delay));
      if (previous?.reason !== trouble)
        log(`order ${wallet.orderId}: forwarding waits for the relayer (not counted): ${trouble}`);
      return false;
    }
    waits.delete(wallet.id);
    const failures = wallet.forwardingRetryCount + 1;
    const unlimited = isConnectionError(error);
    const stop =
      error instanceof PermanentForwardingError ||
      (!unlimited && failures >= MAX_FORWARDING_ATTEMPTS);
    const next = new Date(
      Date.now() + backoffDelayMs(failures, options.retryBaseMs, MAX_FORWARDING_DELAY_MS),
    );
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
  const settings = { ...RELAYER_DEFAULTS, ...options.relayer };
  const waits: Waits = new Map();
  // Note: a leg transaction the node lost goes out again only while its payment is there.
  const manager = new RelayerManager(options.chain, options.db, settings, log, (legId) =>
    mayResendLeg(options, legId),
  );
  attachRelayerManager(manager);
  // Note: whether the last pass left wallets waiting for a place (all places taken, or as many
  // listed as there were places).
  let turnedAway = false;
  const loop = startWakeableLoop(
    'forwarding',
    options.intervalMs ?? 200,
    async () => {
      const free = limit - inFlight.size;
      turnedAway = free <= 0;
      if (turnedAway) return false;
      const fresh = await loadWalletsWithWork(options.db, new Date(), free, [...inFlight.keys()]);
      turnedAway = fresh.length === free;
      for (const wallet of fresh) {
        // Note: a recorded round frees a place: the next pass starts at once when wallets wait
        // for one. Otherwise the interval (or detection, at a new payment) brings it; a wallet
        // paid more during its round is listed again by then.
        const run = forwardAndRecord(options, settings, waits, wallet)
          .then((recorded) => recorded && turnedAway && loop.wake())
          .catch((error) => log(`forwarding ${wallet.id}: ${String(error)}`))
          .finally(() => inFlight.delete(wallet.id));
        inFlight.set(wallet.id, run);
      }
      return false;
    },
    log,
  );
  const watch = startRelayerWatch({ manager, log, onRecovered: () => loop.wake() });
  return {
    wake: loop.wake,
    stop: async () => {
      await loop.stop();
      // Note: the watch goes on until the last pass ends (it may be what that pass waits for).
      await Promise.all(inFlight.values());
      await watch.stop();
    },
  };
}
