// Configuration from the environment, validated once at start-up with valibot.
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
});

const ApiEnv = v.object({
  ...ChainEnv.entries,
  PORT: integer('PORT', 3000, 1),
  DATABASE_URL: required('DATABASE_URL'),
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
  PAYMENT_WINDOW_HOURS: integer('PAYMENT_WINDOW_HOURS', 7 * 24, 1),
  STATUS_READS_INDEXER: flagWith('true'),
  WEB_DIST: v.optional(v.string()),
});

const WorkerEnv = v.object({
  ...ChainEnv.entries,
  DATABASE_URL: required('DATABASE_URL'),
  PAYMENT_MNEMONIC: required('PAYMENT_MNEMONIC'),
  RELAYER_PRIVATE_KEY: v.pipe(
    required('RELAYER_PRIVATE_KEY'),
    v.regex(
      /^0x[0-9a-fA-F]{64}$/,
      '`RELAYER_PRIVATE_KEY` must be 0x followed by 64 hex characters',
    ),
  ),
  DETECTION_INTERVAL_MS: integer('DETECTION_INTERVAL_MS', 100, 10),
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
  if (chainId === 8453) return '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
  if (chainId === 84532) return '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
  throw new ConfigError(notConfigured('USDC_ADDRESS'));
}

/**
 * Blocks a payment needs (its own included) before it counts as received: the setting, else 2 on
 * the local chain and 10 on Base (2 s of 200 ms blocks). Note: a risk choice for shop orders, not
 * finality: Base's sequencer rarely reorganises its unsafe head, while the L1-safe head lags by
 * minutes; high-value merchants can raise it and still settle "in minutes".
 */
function confirmationsFor(chainId: number, configured: number | undefined): number {
  return configured ?? (chainId === 31337 ? 2 : 10);
}

/** Reads and validates the API process's configuration. */
export function loadApiConfig(env: Record<string, string | undefined> = process.env) {
  const e = parseEnv(ApiEnv, env);
  return {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
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
    relayerAddress: e.RELAYER_ADDRESS as `0x${string}`,
    treasuryAddress: e.TREASURY_ADDRESS as `0x${string}`,
    localMode: e.LOCAL_MODE,
    webDist: e.WEB_DIST,
  };
}

/** Reads and validates the settlement worker's configuration (it alone holds keys). */
export function loadWorkerConfig(env: Record<string, string | undefined> = process.env) {
  const e = parseEnv(WorkerEnv, env);
  return {
    databaseUrl: e.DATABASE_URL,
    chain: {
      rpcUrl: e.RPC_URL,
      chainId: e.CHAIN_ID,
      usdc: usdcAddressFor(e.CHAIN_ID, e.USDC_ADDRESS),
    },
    confirmations: confirmationsFor(e.CHAIN_ID, e.CONFIRMATIONS),
    paymentMnemonic: e.PAYMENT_MNEMONIC,
    /** Milliseconds between two detection passes. */
    detectionIntervalMs: e.DETECTION_INTERVAL_MS,
    relayerPrivateKey: e.RELAYER_PRIVATE_KEY as `0x${string}`,
    treasuryAddress: e.TREASURY_ADDRESS as `0x${string}`,
    localMode: e.LOCAL_MODE,
  };
}
