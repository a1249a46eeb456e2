// The worker's detection loop: a pass every `intervalMs` and at once when the indexer commits a
// block, a full reconciliation every `reconcileMs`; the same function runs in the worker process,
// the tests and the benchmark.
import { formatUsdcFull } from '@store/shared';
import type { Database } from '../db/client.ts';
import {
  type DetectionCursor,
  type DetectionResult,
  type DetectionSettings,
  runDetectionPass,
} from './detection.ts';
import { INDEXER_BLOCK_CHANNEL, noticeIndexedHead } from './payment-notices.ts';
import type { WalletChange } from './record.ts';

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
  let stopped = false;
  let cursor: DetectionCursor = { lastTransferId: null };
  let lastFullPass = 0;
  let lastError = '';
  let lastHead: bigint | null = null;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  /** Sleeps `ms`, or less when woken (then the next pass starts at once). */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  // Note: a notification lost while the connection is down costs at most one interval.
  const listening =
    options.wakeOnIndexedBlocks === false
      ? undefined
      : db.$client.listen(INDEXER_BLOCK_CHANNEL, wake).catch((error: unknown) => {
          log(`detection: no wake-up on indexed blocks (${(error as Error).message})`);
          return undefined;
        });

  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      woken = false;
      try {
        const full = cursor.lastTransferId === null || Date.now() - lastFullPass >= reconcileMs;
        const result = await runDetectionPass(db, settings, cursor, new Date(), full);
        if (full && result.headBlock !== null) lastFullPass = Date.now();
        cursor = result.cursor;
        for (const change of result.changes) log(describeChange(change));
        // Note: one notification per new indexed block, so the payment pages see confirmations grow.
        if (result.headBlock !== null && (lastHead === null || result.headBlock > lastHead)) {
          lastHead = result.headBlock;
          await noticeIndexedHead(db, result.headBlock);
        }
        options.onPass?.(result, performance.now() - started);
        lastError = '';
      } catch (error) {
        // Note: logged once per distinct error, so a missing indexer does not flood the log.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== lastError) log(`detection pass failed (will retry): ${message}`);
        lastError = message;
      }
      await sleep(Math.max(0, intervalMs - (performance.now() - started)));
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      wakeUp?.();
      await loop;
      await (await listening)?.unlisten();
    },
  };
}
