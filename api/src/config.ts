// Configuration from the environment, validated once at start-up with valibot.

import { resolve } from 'node:path';
import { defaultConfirmations, usdcAddressOf } from '@store/shared';
import * as v from 'valibot';

const notConfigured = (name: string) => `\`${name}\` is not configured`;
// Note: a missing key reads as '' so that its message is ours, not valibot's "Invalid key".
const required = (name: string) =>
  v.pipe(v.optional(v.string(notConfigured(name)), ''), v.trim(), v.nonEmpty(notConfigured(name)));
const address = (name: string) =>
  v.pipe(
    required(name),
    v.regex(
      /^0x[0-9a-fA-F]{40}$/,
      `\`${name}\` must be an address (0x followed by 40 hex characters)`,
    ),
  );
const wholeNumber = (name: string, min: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, `\`${name}\` must be a whole number`),
    v.transform(Number),
    v.minValue(min, `\`${name}\` must be at least ${min}`),
  );
const integer = (name: string, fallback: number, min = 0) =>
  v.optional(wholeNumber(name, min), String(fallback));
const flagWith = (fallback: 'true' | 'false') =>
  v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0', '']),
      v.transform((s) => s === 'true' || s === '1'),
    ),
    fallback,
  );
const flag = flagWith('false');
// Note: unset means "as local mode": loopback and private webhook targets only on a local stack.
const optionalFlag = v.optional(
  v.pipe(
    v.picklist(['true', 'false', '1', '0']),
    v.transform((s) => s === 'true' || s === '1'),
  ),
);
const SUPPORTED_CHAINS = ['31337', '8453', '84532'] as const;

const ChainEnv = v.object({
  RPC_URL: v.pipe(required('RPC_URL'), v.url('`RPC_URL` must be a URL')),
  CHAIN_ID: v.pipe(
    v.picklist(
      SUPPORTED_CHAINS,
      '`CHAIN_ID` must be 8453 (Base), 84532 (Base Sepolia) or 31337 (local)',
    ),
    v.transform(Number),
  ),
  USDC_ADDRESS: v.optional(address('USDC_ADDRESS')),
  // Note: no fallback here; it depends on the chain (see confirmationsFor).
  CONFIRMATIONS: v.optional(wholeNumber('CONFIRMATIONS', 0)),
  TREASURY_ADDRESS: address('TREASURY_ADDRESS'),
  LOCAL_MODE: flag,
  ALLOW_PRIVATE_WEBHOOKS: optionalFlag,
  // Alerts on the relayer and the forwarding backlog (GET /api/health and the worker's log).
  RELAYER_MIN_FORWARDS: integer('RELAYER_MIN_FORWARDS', 50, 1),
  FORWARDING_LAG_ALERT_S: integer('FORWARDING_LAG_ALERT_S', 120, 1),
});

/** A comma-separated list of origins (https://shop.example.com); empty when unset. */
function originList(name: string) {
  return v.optional(
    v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
      v.check(
        (origins) =>
          origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin),
        `\`${name}\` must be a comma-separated list of origins (https://shop.example.com)`,
      ),
    ),
    '',
  );
}

const ApiEnv = v.object({
  ...ChainEnv.entries,
  PORT: integer('PORT', 3000, 1),
  DATABASE_URL: required('DATABASE_URL'),
  /** The owner's URL: the process applies the migrations at start (else it only checks them). */
  MIGRATION_DATABASE_URL: v.optional(v.string()),
  INDEXER_URL: v.optional(
    v.pipe(v.string(), v.url('`INDEXER_URL` must be a URL')),
    'http://127.0.0.1:42069',
  ),
  PAYMENT_XPUB: v.pipe(
    required('PAYMENT_XPUB'),
    v.regex(
      /^[xt]pub[1-9A-HJ-NP-Za-km-z]{100,}$/,
      '`PAYMENT_XPUB` must be an extended public key (xpub…)',
    ),
  ),
  RELAYER_ADDRESS: address('RELAYER_ADDRESS'),
  DEMO_PAYOUT_ADDRESS: v.optional(address('DEMO_PAYOUT_ADDRESS')),
  PAYMENT_WINDOW_HOURS: integer('PAYMENT_WINDOW_HOURS', 7 * 24, 1),
  STATUS_READS_INDEXER: flagWith('true'),
  TRUST_PROXY: flag,
  RECEIPTS_BY_EMAIL: flag,
  WEB_DIST: v.optional(v.string()),
  // How long a new order holds its units of tracked products (issue 18: no overselling).
  STOCK_HOLD_MINUTES: integer('STOCK_HOLD_MINUTES', 30, 1),
  // Uploaded images: this folder (default .data/uploads), or an S3-compatible bucket.
  UPLOADS_DIR: v.optional(v.string(), '.data/uploads'),
  // Each upload is decoded and drawn in a process of its own, killed beyond these.
  UPLOAD_TIME_LIMIT_MS: integer('UPLOAD_TIME_LIMIT_MS', 5000, 100),
  UPLOAD_MEMORY_LIMIT_MB: integer('UPLOAD_MEMORY_LIMIT_MB', 1024, 512),
  S3_URL: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^s3:\/\/[^:@/]+:[^@/]+@[^/]+\/[^/?]+/,
        '`S3_URL` must be s3://ACCESS_KEY:SECRET@host/bucket',
      ),
    ),
  ),
  ALLOWED_ORIGINS: originList('ALLOWED_ORIGINS'),
  PUBLIC_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (url) => URL.canParse(url) && new URL(url).origin === url.replace(/\/$/, ''),
        '`PUBLIC_URL` must be an origin (https://pay.example.com)',
      ),
      v.transform((url) => url.replace(/\/$/, '')),
    ),
  ),
  WEBHOOK_PUBLIC_KEY: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^whpk_[A-Za-z0-9+/]{43}=$/, '`WEBHOOK_PUBLIC_KEY` must be an Ed25519 key (whpk_…)'),
    ),
  ),
  // Note: no fallbacks here; they depend on LOCAL_MODE (see rateLimitsFor).
  RATE_LIMIT_ORDERS_PER_MINUTE: v.optional(wholeNumber('RATE_LIMIT_ORDERS_PER_MINUTE', 1)),
  RATE_LIMIT_STORE_ORDERS_PER_MINUTE: v.optional(
    wholeNumber('RATE_LIMIT_STORE_ORDERS_PER_MINUTE', 1),
  ),
  RATE_LIMIT_WALLETS_PER_MINUTE: v.optional(wholeNumber('RATE_LIMIT_WALLETS_PER_MINUTE', 1)),
  RATE_LIMIT_X402_OFFERS_PER_MINUTE: v.optional(
    wholeNumber('RATE_LIMIT_X402_OFFERS_PER_MINUTE', 1),
  ),
  RATE_LIMIT_X402_PAYER_PER_MINUTE: v.optional(wholeNumber('RATE_LIMIT_X402_PAYER_PER_MINUTE', 1)),
  RATE_LIMIT_PAYMENT_STREAMS_PER_MINUTE: v.optional(
    wholeNumber('RATE_LIMIT_PAYMENT_STREAMS_PER_MINUTE', 1),
  ),
  PAYMENT_STREAMS_PER_CLIENT: v.optional(wholeNumber('PAYMENT_STREAMS_PER_CLIENT', 1)),
  // Payment status streams one API process holds open; past it, 503 with Retry-After (pages poll).
  PAYMENT_STREAMS_MAX: integer('PAYMENT_STREAMS_MAX', 10_000, 1),
  STOCK_HOLDS_PER_CLIENT: v.optional(wholeNumber('STOCK_HOLDS_PER_CLIENT', 1)),
  UPLOADS_PER_HOUR: integer('UPLOADS_PER_HOUR', 120, 1),
  FRAME_ANCESTORS: originList('FRAME_ANCESTORS'),
});

const WorkerEnv = v.object({
  ...ChainEnv.entries,
  DATABASE_URL: required('DATABASE_URL'),
  /** The owner's URL: the process applies the migrations at start (else it only checks them). */
  MIGRATION_DATABASE_URL: v.optional(v.string()),
  PAYMENT_MNEMONIC: required('PAYMENT_MNEMONIC'),
  RELAYER_PRIVATE_KEY: v.pipe(
    required('RELAYER_PRIVATE_KEY'),
    v.regex(
      /^0x[0-9a-fA-F]{64}$/,
      '`RELAYER_PRIVATE_KEY` must be 0x followed by 64 hex characters',
    ),
  ),
  DETECTION_INTERVAL_MS: integer('DETECTION_INTERVAL_MS', 100, 10),
  DETECTION_RECONCILE_MS: integer('DETECTION_RECONCILE_MS', 60_000, 100),
  WEBHOOK_SIGNING_KEY: v.pipe(
    required('WEBHOOK_SIGNING_KEY'),
    v.regex(
      /^whsk_[A-Za-z0-9+/]{43}=$/,
      '`WEBHOOK_SIGNING_KEY` must be an Ed25519 secret key (whsk_…)',
    ),
  ),
  FORWARDING_MODE: v.optional(
    v.picklist(['eip3009', 'gas-funded'], '`FORWARDING_MODE` must be eip3009 or gas-funded'),
    'eip3009',
  ),
  FORWARDING_RETRY_BASE_MS: integer('FORWARDING_RETRY_BASE_MS', 2000, 10),
  FORWARDING_CONCURRENCY: integer('FORWARDING_CONCURRENCY', 128, 1),
  WEBHOOK_RETRY_BASE_MS: integer('WEBHOOK_RETRY_BASE_MS', 5000, 10),
  // A webhook URL failing without a break this long is paused and its owner told (3 days).
  WEBHOOK_PAUSE_AFTER_MS: integer('WEBHOOK_PAUSE_AFTER_MS', 3 * 24 * 60 * 60 * 1000, 0),
  DETECTION_GRACE_DAYS: integer('DETECTION_GRACE_DAYS', 7, 0),
  RELAYER_STUCK_AFTER_MS: integer('RELAYER_STUCK_AFTER_MS', 30_000, 100),
  RELAYER_GAP_AFTER_MS: integer('RELAYER_GAP_AFTER_MS', 5000, 100),
  SMTP_URL: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^smtps?:\/\/\S+$/, '`SMTP_URL` must be an smtp:// or smtps:// URL'),
    ),
  ),
  MAIL_FROM: v.optional(v.string(), 'Storefront receipts <receipts@localhost>'),
  MAIL_RETRY_BASE_MS: integer('MAIL_RETRY_BASE_MS', 30_000, 10),
  // The web app's public origin, for the links in receipts (review forms); unset: no such links.
  PUBLIC_URL: ApiEnv.entries.PUBLIC_URL,
});

export type ApiConfig = ReturnType<typeof loadApiConfig>;
export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;

/** Thrown when the environment does not describe a runnable configuration. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function parseEnv<S extends v.GenericSchema>(schema: S, env: Record<string, string | undefined>) {
  const clean = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = v.safeParse(schema, clean);
  if (!result.success)
    throw new ConfigError(result.issues.map((issue) => issue.message).join('\n'));
  return result.output as v.InferOutput<S>;
}

/** The USDC contract for a chain: the configured one, or Circle's on Base and Base Sepolia. */
function usdcAddressFor(chainId: number, configured: string | undefined): `0x${string}` {
  if (configured) return configured as `0x${string}`;
  const circle = usdcAddressOf(chainId);
  if (circle) return circle;
  throw new ConfigError(notConfigured('USDC_ADDRESS'));
}

/**
 * Blocks a payment needs (its own included) before it counts as received: the setting, else 2 on
 * the local chain and 10 on Base (2 s of 200 ms blocks). Note: a risk choice for shop orders, not
 * finality: Base's sequencer rarely reorganises its unsafe head, while the L1-safe head lags by
 * minutes; high-value merchants can raise it and still settle "in minutes".
 */
function confirmationsFor(chainId: number, configured: number | undefined): number {
  return configured ?? defaultConfirmations(chainId);
}

/**
 * Public writes allowed per minute (orders and deposit addresses): the settings, else the
 * production figures, or in local mode (one machine, where every test, e2e run and benchmark
 * comes from 127.0.0.1, the API benchmark at 2,000 orders a second) figures still counted but
 * never reached there.
 */
function rateLimitsFor(
  localMode: boolean,
  configured: {
    orders?: number;
    storeOrders?: number;
    wallets?: number;
    paymentStreams?: number;
    streamsPerClient?: number;
    holdsPerClient?: number;
    x402Offers?: number;
    x402Payer?: number;
  },
) {
  const fallback = localMode ? 1_000_000 : undefined;
  return {
    /** Orders (store and universal) one client may create. */
    ordersPerMinute: configured.orders ?? fallback ?? 30,
    /** Orders of one store, or of one universal payout address. */
    storeOrdersPerMinute: configured.storeOrders ?? fallback ?? 600,
    /** Deposit address requests of one client (the payment page asks once per visit). */
    walletsPerMinute: configured.wallets ?? fallback ?? 60,
    /** Payment status streams one client may open (a page reconnects every few seconds at most). */
    paymentStreamsPerMinute: configured.paymentStreams ?? fallback ?? 120,
    /** Payment status streams one client may hold open at once (one per shopper's tab). */
    paymentStreamsPerClient: configured.streamsPerClient ?? fallback ?? 4,
    /**
     * Orders holding stock one client may place within a hold's time (STOCK_HOLD_MINUTES): a
     * stranger cannot keep a store's stock reserved for free.
     */
    stockHoldsPerClient: configured.holdsPerClient ?? fallback ?? 30,
    /**
     * x402 answers one client may get per minute that open an order and a deposit address (a 402
     * without payment, or one refusing a payment): a stranger cannot fill the database.
     */
    x402OffersPerMinute: configured.x402Offers ?? fallback ?? 60,
    /** Signed x402 payments one payer address may send per minute. */
    x402PayerPerMinute: configured.x402Payer ?? fallback ?? 120,
  };
}

/** Who the local stack's demo link pays when DEMO_PAYOUT_ADDRESS is unset: anvil's account 9. */
export const LOCAL_DEMO_PAYOUT_ADDRESS = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/** Reads and validates the API process's configuration. */
export function loadApiConfig(env: Record<string, string | undefined> = process.env) {
  const e = parseEnv(ApiEnv, env);
  return {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    indexerUrl: e.INDEXER_URL,
    chain: {
      rpcUrl: e.RPC_URL,
      chainId: e.CHAIN_ID,
      usdc: usdcAddressFor(e.CHAIN_ID, e.USDC_ADDRESS),
    },
    confirmations: confirmationsFor(e.CHAIN_ID, e.CONFIRMATIONS),
    paymentXpub: e.PAYMENT_XPUB,
    /** Hours a shopper has to pay (fractions allowed when built by tests). */
    paymentWindowHours: e.PAYMENT_WINDOW_HOURS as number,
    /** Whether the status API also sums the indexer's rows itself (not only the worker's state). */
    statusReadsIndexer: e.STATUS_READS_INDEXER,
    /** Payment status streams this process holds open at most (then 503, and the page polls). */
    paymentStreamsMax: e.PAYMENT_STREAMS_MAX,
    relayerAddress: e.RELAYER_ADDRESS as `0x${string}`,
    treasuryAddress: e.TREASURY_ADDRESS as `0x${string}`,
    /**
     * Who the landing page's 'Try Live Demo' link pays (GET /api/health `demo`): an address the
     * platform controls, not the treasury (a payout address may not be a platform account). Unset:
     * anvil's account 9 in local mode, else no live demo.
     */
    demoPayoutAddress: e.DEMO_PAYOUT_ADDRESS ?? (e.LOCAL_MODE ? LOCAL_DEMO_PAYOUT_ADDRESS : null),
    localMode: e.LOCAL_MODE,
    /**
     * Whether shoppers are told a receipt is emailed: true only when the worker has a mail server
     * (SMTP_URL, which the API itself never gets).
     */
    receiptsByEmail: e.RECEIPTS_BY_EMAIL,
    webDist: e.WEB_DIST,
    /** How long a new order holds its units of tracked products (STOCK_HOLD_MINUTES). */
    stockHoldMinutes: e.STOCK_HOLD_MINUTES,
    /** Where uploaded images are kept: S3_URL's bucket when set, else the UPLOADS_DIR folder. */
    uploadsDir: resolve(e.UPLOADS_DIR),
    s3Url: e.S3_URL ?? null,
    /**
     * What one upload's image process may take: wall-clock milliseconds and megabytes of memory
     * (see uploads/render-process.ts).
     */
    uploadLimits: { timeMs: e.UPLOAD_TIME_LIMIT_MS, memoryMb: e.UPLOAD_MEMORY_LIMIT_MB },
    /**
     * Uploads one merchant account may make in an hour. Note: per account, not per address, so the
     * same in local mode.
     */
    uploadsPerHour: e.UPLOADS_PER_HOUR,
    /**
     * Origins besides the API's own from which browsers may change state (a web app served from
     * another host). Every other cross-origin or same-site request that changes state is refused.
     */
    allowedOrigins: e.ALLOWED_ORIGINS,
    /**
     * The web app's public origin, where checkout session URLs point (https://pay.example.com).
     * Unset: the origin the request addressed (the API serves the web app on its own origin).
     */
    publicUrl: e.PUBLIC_URL,
    /** Whether webhook URLs may point at loopback and private addresses (local mode). */
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS ?? e.LOCAL_MODE,
    /** Public half of the platform's Ed25519 key that signs universal orders' webhooks. */
    webhookPublicKey: e.WEBHOOK_PUBLIC_KEY,
    /** Whether a proxy in front sets X-Forwarded-For (its first address is then the client's). */
    trustProxy: e.TRUST_PROXY,
    /** The relayer alerts below this many forwards' worth of ETH at the current gas price. */
    relayerMinForwards: e.RELAYER_MIN_FORWARDS,
    /** Seconds the oldest paid order may wait to be forwarded before it alerts. */
    forwardingLagAlertS: e.FORWARDING_LAG_ALERT_S,
    /** Public writes per minute, per client and per store (see http/rate-limit.ts). */
    rateLimits: rateLimitsFor(e.LOCAL_MODE, {
      orders: e.RATE_LIMIT_ORDERS_PER_MINUTE,
      storeOrders: e.RATE_LIMIT_STORE_ORDERS_PER_MINUTE,
      wallets: e.RATE_LIMIT_WALLETS_PER_MINUTE,
      paymentStreams: e.RATE_LIMIT_PAYMENT_STREAMS_PER_MINUTE,
      streamsPerClient: e.PAYMENT_STREAMS_PER_CLIENT,
      holdsPerClient: e.STOCK_HOLDS_PER_CLIENT,
      x402Offers: e.RATE_LIMIT_X402_OFFERS_PER_MINUTE,
      x402Payer: e.RATE_LIMIT_X402_PAYER_PER_MINUTE,
    }),
    /**
     * Origins whose pages may frame the web app (a store embedding the checkout); none by default.
     */
    frameAncestors: e.FRAME_ANCESTORS,
  };
}

/** Reads and validates the settlement worker's configuration (it alone holds keys). */
export function loadWorkerConfig(env: Record<string, string | undefined> = process.env) {
  const e = parseEnv(WorkerEnv, env);
  return {
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.MIGRATION_DATABASE_URL,
    chain: {
      rpcUrl: e.RPC_URL,
      chainId: e.CHAIN_ID,
      usdc: usdcAddressFor(e.CHAIN_ID, e.USDC_ADDRESS),
    },
    confirmations: confirmationsFor(e.CHAIN_ID, e.CONFIRMATIONS),
    paymentMnemonic: e.PAYMENT_MNEMONIC,
    /** Milliseconds between two detection passes. */
    detectionIntervalMs: e.DETECTION_INTERVAL_MS,
    /**
     * Milliseconds between two full passes, which also see what a reorg removed behind the cursor
     * (a payment reversed after it counted).
     */
    detectionReconcileMs: e.DETECTION_RECONCILE_MS,
    relayerPrivateKey: e.RELAYER_PRIVATE_KEY as `0x${string}`,
    treasuryAddress: e.TREASURY_ADDRESS as `0x${string}`,
    localMode: e.LOCAL_MODE,
    allowPrivateWebhooks: e.ALLOW_PRIVATE_WEBHOOKS ?? e.LOCAL_MODE,
    /** The platform's Ed25519 key (whsk_…) that signs universal orders' webhooks (v1a). */
    webhookSigningKey: e.WEBHOOK_SIGNING_KEY,
    /** eip3009: gasless (the relayer submits signed authorizations); gas-funded: ETH, then transfer. */
    forwardingMode: e.FORWARDING_MODE,
    /** First retry delay of a failed forwarding (doubles each time, at most 5 minutes). */
    forwardingRetryBaseMs: e.FORWARDING_RETRY_BASE_MS,
    /** Wallets the forwarding loop works on at the same time. */
    forwardingConcurrency: e.FORWARDING_CONCURRENCY,
    /** First retry delay of a failed webhook delivery (doubles each time, for up to 3 days). */
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    /** How long a webhook URL fails without a break before it is paused (its owner told). */
    webhookPauseAfterMs: e.WEBHOOK_PAUSE_AFTER_MS,
    /**
     * The full detection pass keeps unpaid wallets until this long after their window closed (a
     * late payment to an older address is still found by the pass over new transfers).
     */
    detectionGraceMs: e.DETECTION_GRACE_DAYS * 24 * 60 * 60 * 1000,
    /** How the relayer is looked after (see payments/relayer.ts). */
    relayer: {
      /** A relayer transaction in the pool this long is replaced with higher fees. */
      stuckAfterMs: e.RELAYER_STUCK_AFTER_MS,
      /** A missing relayer nonce with later transactions behind it is filled after this long. */
      gapAfterMs: e.RELAYER_GAP_AFTER_MS,
      minForwards: e.RELAYER_MIN_FORWARDS,
      lagAlertS: e.FORWARDING_LAG_ALERT_S,
    },
    /** Shoppers' receipts: sent over SMTP_URL from MAIL_FROM; without it none is sent. */
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM,
      retryBaseMs: e.MAIL_RETRY_BASE_MS,
      /** Origin of the links in mails (PUBLIC_URL); null: receipts carry no review links. */
      publicUrl: e.PUBLIC_URL ?? null,
    },
  };
}
