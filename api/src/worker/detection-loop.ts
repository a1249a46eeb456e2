// The worker's detection loop: a pass every `intervalMs` and at once when the indexer commits a
// block, a full reconciliation every `reconcileMs`; the same function runs in the worker process,
// the tests and the benchmark.
import { formatUsdcFull } from '@store/shared';
import { INDEXER_BLOCK_CHANNEL } from '../chain/indexer.ts';
import type { Database } from '../db/client.ts';
import { startWakeableLoop } from '../loops/wakeable-loop.ts';
import {
  type DetectionCursor,
  type DetectionResult,
  type DetectionSettings,
  runDetectionPass,
} from '../payments/detection.ts';
import { noticeIndexedHead } from '../payments/payment-notices.ts';
import type { WalletChange } from '../payments/record.ts';
import { type ChainHeadReader, createReorgWatch } from './reorg-watch.ts';

/** How long one step of listening again may take before the next pass tries again. */
const RELISTEN_STEP_MS = 2000;

/** Options of `startDetectionLoop`. */
export interface DetectionLoopOptions extends DetectionSettings {
  db: Database;
  /** Period of the passes; a pass that takes longer is followed at once by the next. */
  intervalMs: number;
  /** Period of the full pass over every unpaid wallet (60 s by default). */
  reconcileMs?: number;
  log?: (line: string) => void;
  /**
   * Whether a pass also starts as soon as the indexer commits a block (LISTEN on its channel), not
   * only every `intervalMs`. On by default; a payment is then seen about 50 ms sooner on average.
   */
  wakeOnIndexedBlocks?: boolean;
  /**
   * The chain, read at each new indexed head to see a reorg deeper than the depth at once
   * (./reorg-watch.ts); without it, such a reorg is seen by the full pass every `reconcileMs`.
   */
  chainHead?: ChainHeadReader;
  /** Called after each re-read of the paid wallets that a reorg deeper than the depth caused. */
  onReorg?: () => void;
  /** Called after every pass (benchmarks and tests observe the loop through it). */
  onPass?: (result: DetectionResult, durationMs: number) => void;
}

/** A running loop. */
export interface DetectionLoop {
  /** Finishes the pass in progress, then stops. */
  stop(): Promise<void>;
}

/** One line for the log per transition. */
export function describeChange(change: WalletChange): string {
  const { before, after } = change;
  return (
    `order ${change.orderId}: ${before.state} -> ${after.state} ` +
    `(seen ${formatUsdcFull(after.detected)}, at depth ${formatUsdcFull(after.received)} USDC)`
  );
}

/** Starts polling; errors (database or indexer not ready) are logged and the loop goes on. */
export function startDetectionLoop(options: DetectionLoopOptions): DetectionLoop {
  const { db, intervalMs, reconcileMs = 60_000, log = console.log } = options;
  const settings = {
    chainId: options.chainId,
    confirmations: options.confirmations,
    graceMs: options.graceMs,
    paymentStillOnChain: options.paymentStillOnChain,
  };
  let cursor: DetectionCursor = { lastTransferId: null };
  let lastFullPass = 0;
  let lastChainError = '';
  let lastHead: bigint | null = null;
  const watch = options.chainHead && createReorgWatch(options.chainHead, options.confirmations);
  /** The indexed head the watch last looked at. */
  let watchedHead: bigint | null = null;
  /** A full pass is due now: a reorg deeper than the depth was seen. */
  let rereadNow = false;
  // Note: a notification lost while the connection is down costs at most one interval.
  const listen = () =>
    options.wakeOnIndexedBlocks === false
      ? undefined
      : db.$client
          .listen(INDEXER_BLOCK_CHANNEL, () => loop.wake())
          .catch((error: unknown) => {
            log(`detection: no wake-up on indexed blocks (${(error as Error).message})`);
            return undefined;
          });
  let listening = listen();
  /**
   * Listens again after the database failed passes. Note: the client listens again by itself when
   * its connection closes, but only once: when the database is still down then (a restart that
   * takes more than a moment), the subscription is gone for good and every block waits for the
   * interval.
   */
  let listenAgain = false;
  let relistening = false;
  /** `promise`, or undefined once `ms` passed (a call on a connection still coming back may hang). */
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(resolve, ms))]);
  // Note: in the background, never awaited by a pass: a subscription call on a connection that is
  // still coming back can wait for good, and the passes (the interval) must go on meanwhile.
  const relisten = async () => {
    listenAgain = false;
    if (options.wakeOnIndexedBlocks === false || relistening) return;
    relistening = true;
    try {
      const old = await within(listening ?? Promise.resolve(undefined), RELISTEN_STEP_MS);
      await within(old?.unlisten().catch(() => {}) ?? Promise.resolve(), RELISTEN_STEP_MS);
      listening = listen();
      if (await within(listening ?? Promise.resolve(undefined), RELISTEN_STEP_MS))
        log('detection: listening for indexed blocks again');
      else listenAgain = true;
    } finally {
      relistening = false;
    }
  };

  /**
   * Checks the chain when the indexed head moved; true when a re-read of the paid wallets is due.
   * Note: an RPC error is logged once and the head is not checked (the next one will be).
   */
  const seenReorg = async (head: bigint): Promise<boolean> => {
    if (!watch) return false;
    const replaced = await watch.sawIndexedHead(head).then(
      (answer) => {
        lastChainError = '';
        return answer;
      },
      (error: unknown) => {
        const message = `detection: the chain's blocks could not be read (${(error as Error).message})`;
        if (message !== lastChainError) log(message);
        lastChainError = message;
        return false;
      },
    );
    if (replaced) {
      log(
        `detection: a reorg at indexed block ${head} (a block at the depth replaced, or the ` +
          'indexer went back): reading the paid wallets again',
      );
      rereadNow = true;
    }
    return rereadNow;
  };

  /** One pass; true when a re-read of the paid wallets is due at once. */
  const pass = async (): Promise<boolean> => {
    const started = performance.now();
    try {
      const reread = rereadNow;
      const full =
        reread || cursor.lastTransferId === null || Date.now() - lastFullPass >= reconcileMs;
      const result = await runDetectionPass(db, settings, cursor, new Date(), full);
      if (full && result.headBlock !== null) lastFullPass = Date.now();
      cursor = result.cursor;
      for (const change of result.changes) log(describeChange(change));
      if (reread) {
        rereadNow = false;
        options.onReorg?.();
      }
      // Note: one notification per new indexed block, so the payment pages see confirmations grow.
      if (result.headBlock !== null && (lastHead === null || result.headBlock > lastHead)) {
        lastHead = result.headBlock;
        await noticeIndexedHead(db, result.headBlock);
      }
      options.onPass?.(result, performance.now() - started);
      if (listenAgain) void relisten();
      let due = false;
      if (result.headBlock !== null && result.headBlock !== watchedHead) {
        watchedHead = result.headBlock;
        due = await seenReorg(result.headBlock);
      }
      if (watch && result.headBlock !== null && watch.rereadDue(result.headBlock)) {
        rereadNow = due = true;
      }
      return due;
    } catch (error) {
      // Note: the loop logs it once per distinct message, so a missing indexer does not flood it.
      listenAgain = true;
      throw error;
    }
  };
  const loop = startWakeableLoop('detection', intervalMs, pass, log, { paceFromStart: true });

  return {
    stop: async () => {
      await loop.stop();
      const current = await within(listening ?? Promise.resolve(undefined), RELISTEN_STEP_MS);
      await within(current?.unlisten().catch(() => {}) ?? Promise.resolve(), RELISTEN_STEP_MS);
    },
  };
}
