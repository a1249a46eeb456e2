// The worker's three loops wired together: detection wakes forwarding and webhooks when it records
// a change, forwarding wakes webhooks when it records a round. Used by the worker process, the
// tests and the benchmark, so they all run the same thing.
import { createPublicClient, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getNetwork } from '../chain/networks.ts';
import type { WorkerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { startWakeableLoop } from '../loops/wakeable-loop.ts';
import { startMailDispatcher } from '../mail/dispatcher.ts';
import { NonceLock, receiptOf } from '../payments/forwarding-chain.ts';
import type { ForwardingContext } from '../payments/forwarding-context.ts';
import { reconcileForwarding } from '../payments/forwarding-reconcile.ts';
import {
  pruneSignedTransactions,
  SIGNED_TRANSACTION_KEEP_DAYS,
  SIGNED_TRANSACTION_PRUNE_BATCH,
} from '../payments/forwarding-store.ts';
import { matchMerchantRefunds } from '../payments/merchant-refunds.ts';
import { type WalletClaims, walletClaims } from '../payments/wallet-claims.ts';
import { startX402Settlement } from '../payments/x402-settlement.ts';
import {
  type RetentionConfig,
  retentionConfig,
  startRetentionJob,
} from '../retention/retention-job.ts';
import { startWebhookDispatcher } from '../webhooks/dispatcher.ts';
import { startDetectionLoop } from './detection-loop.ts';
import { startForwardingLoop } from './forwarding-loop.ts';
import { chainHeadReader } from './reorg-watch.ts';

/** Options beyond the worker's configuration. */
export interface SettlementOptions {
  log?: (line: string) => void;
  /** Test hook: the forwarding step to die at. */
  crashAt?: string;
  /** Webhook request timeout (10 s, unless a test shortens it). */
  webhookTimeoutMs?: number;
  /** Token to forward, when it is not the configured USDC (the gas-funded tests). */
  token?: `0x${string}`;
  /** The indexer's retention (RETENTION_* of the environment unless given). */
  retention?: RetentionConfig;
}

/** The running loops. */
export interface Settlement {
  stop(): Promise<void>;
}

/** A public client for the configured chain (Base's receipts carry the L1 fee). */
export function chainClient(config: Pick<WorkerConfig, 'chain'>): PublicClient {
  return createPublicClient({
    chain: getNetwork(config.chain.chainId).chain,
    transport: http(config.chain.rpcUrl),
  }) as PublicClient;
}

/** What forwarding needs of the configuration: the chain, the keys, the depth and the claims. */
export function forwardingContext(
  config: WorkerConfig,
  db: Database,
  options: Pick<SettlementOptions, 'token' | 'crashAt'> = {},
): ForwardingContext & { claims: WalletClaims } {
  return {
    db,
    chain: {
      client: chainClient(config),
      rpcUrl: config.chain.rpcUrl,
      chainId: config.chain.chainId,
      token: options.token ?? config.chain.usdc,
      relayer: privateKeyToAccount(config.relayerPrivateKey),
      treasury: config.treasuryAddress,
      relayerLock: new NonceLock(),
    },
    mnemonic: config.paymentMnemonic,
    mode: config.forwardingMode,
    confirmations: config.confirmations,
    claims: walletClaims(config.databaseUrl),
    crashAt: options.crashAt,
  };
}

/** Starts detection, forwarding and webhook delivery on `db`. */
export function startSettlement(
  config: WorkerConfig,
  db: Database,
  options: SettlementOptions = {},
): Settlement {
  const log = options.log ?? console.log;
  const webhooks = startWebhookDispatcher({
    db,
    signingKey: config.webhookSigningKey,
    allowPrivate: config.allowPrivateWebhooks,
    retryBaseMs: config.webhookRetryBaseMs,
    pauseAfterMs: config.webhookPauseAfterMs,
    timeoutMs: options.webhookTimeoutMs,
    publicUrl: config.mail.publicUrl,
    log,
  });
  const mail = startMailDispatcher({
    db,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    chainId: config.chain.chainId,
    retryBaseMs: config.mail.retryBaseMs,
    publicUrl: config.mail.publicUrl,
    log,
  });
  const context = forwardingContext(config, db, options);
  const { claims } = context;
  const forwarding = startForwardingLoop({
    ...context,
    retryBaseMs: config.forwardingRetryBaseMs,
    concurrency: config.forwardingConcurrency,
    relayer: config.relayer,
    crashAt: options.crashAt,
    log,
    onRound: () => webhooks.wake(),
  });
  // Note: what a reorg deeper than the depth took back from a completed round is sent again (or,
  // if the reorg took the payment too, cancelled: see forwarding-cancel.ts).
  const suspects = new Set<string>();
  const reconcile = startWakeableLoop(
    'forwarding reconciliation',
    config.detectionReconcileMs,
    async () => {
      const reopened = await reconcileForwarding(context, new Date(), suspects);
      if (reopened > 0) {
        log(
          `forwarding: ${reopened} leg(s) left the chain after a reorg; sent again where their ` +
            'payment is still on the chain, cancelled where it is not',
        );
        forwarding.wake();
      }
      return false;
    },
    log,
  );
  // Refunds the merchants send from their payout wallets, found among the indexed transfers.
  const merchantRefunds = startWakeableLoop(
    'merchant refunds',
    Math.max(config.detectionIntervalMs, 1000),
    async () => {
      const recorded = await matchMerchantRefunds(db, config.chain.chainId, config.confirmations);
      if (recorded > 0) webhooks.wake();
      return false;
    },
    log,
  );
  const detection = startDetectionLoop({
    db,
    chainId: config.chain.chainId,
    confirmations: config.confirmations,
    intervalMs: config.detectionIntervalMs,
    reconcileMs: config.detectionReconcileMs,
    graceMs: config.detectionGraceMs,
    paymentStillOnChain: async (hash) =>
      (await receiptOf(context.chain.client, hash as `0x${string}`))?.status === 'success',
    chainHead: chainHeadReader(context.chain.client),
    // Note: forwarding's reconciliation takes back a leg seen gone twice: once at the reorg, once
    // at the re-read after the indexer passed it (a block or two later).
    onReorg: () => {
      reconcile.wake();
      forwarding.wake();
    },
    log,
    onPass: (result) => {
      if (result.changes.length === 0) return;
      forwarding.wake();
      webhooks.wake();
      mail.wake();
    },
  });
  // Payments signed over HTTP 402 (x402): the relayer settles them (same nonce lock as forwarding).
  const x402 = startX402Settlement({ db, chain: context.chain, log });
  // Old indexed transfers unrelated to our orders leave (privacy policy: 12 months).
  const retentionSettings = options.retention ?? retentionConfig(process.env);
  const retention = startRetentionJob(db, retentionSettings, log);
  // The bytes of relayer transactions long settled, kept only to send them again while they might
  // be lost, leave on the same schedule: a batch at a time with a pause between, until none is left.
  const signedPrune = startWakeableLoop(
    'signed transactions',
    retentionSettings.intervalMs,
    async () => {
      const pruned = await pruneSignedTransactions(db);
      if (pruned > 0)
        log(
          `forwarding: deleted ${pruned} signed transaction(s) settled more than ${SIGNED_TRANSACTION_KEEP_DAYS} days ago`,
        );
      if (pruned < SIGNED_TRANSACTION_PRUNE_BATCH) return false;
      await Bun.sleep(retentionSettings.pauseMs);
      return true;
    },
    log,
  );
  return {
    stop: async () => {
      await signedPrune.stop();
      await retention.stop();
      await x402.stop();
      await detection.stop();
      await reconcile.stop();
      await merchantRefunds.stop();
      await forwarding.stop();
      await claims.close();
      await webhooks.stop();
      await mail.stop();
    },
  };
}
