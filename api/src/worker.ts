// Settlement worker entry point: the one process that holds the deposit seed, the relayer key and
// the webhook signing key. It detects payments, forwards them (gaslessly with EIP-3009, or
// gas-funded) and delivers webhooks from the outbox (see worker/settlement-loops.ts).
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError, loadWorkerConfig } from './config.ts';
import { createDatabase, migrateOrCheckDatabase } from './db/client.ts';
import { surviveDroppedDatabaseSockets } from './db/dropped-socket.ts';
import { depositXpubFromMnemonic, isValidMnemonic } from './keys/hd.ts';
import { chainClient, startSettlement } from './worker/settlement-loops.ts';

async function main() {
  // Note: a restart of Postgres must not end the worker (its loops retry, the pool reconnects).
  surviveDroppedDatabaseSockets((line) => console.error(`worker: ${line}`));
  const config = loadWorkerConfig();
  if (!isValidMnemonic(config.paymentMnemonic)) {
    throw new ConfigError('`PAYMENT_MNEMONIC` is not a valid BIP-39 mnemonic');
  }
  // Note: its own role cannot change the schema; only MIGRATION_DATABASE_URL (the owner's) can.
  await migrateOrCheckDatabase(config);
  const database = createDatabase(config.databaseUrl, { max: 16 });
  const chainId = await chainClient(config).getChainId();
  if (chainId !== config.chain.chainId) {
    throw new ConfigError(
      `\`RPC_URL\` serves chain ${chainId}, but \`CHAIN_ID\` is ${config.chain.chainId}`,
    );
  }
  const relayer = privateKeyToAccount(config.relayerPrivateKey).address;
  const xpub = depositXpubFromMnemonic(config.paymentMnemonic);
  const log = (line: string) => console.log(`worker: ${line}`);
  log(
    `ready on chain ${chainId} (USDC ${config.chain.usdc}); relayer ${relayer}, ` +
      `treasury ${config.treasuryAddress}, deposit xpub ${xpub.slice(0, 16)}…; detecting ` +
      `payments every ${config.detectionIntervalMs} ms at ${config.confirmations} confirmations; ` +
      `forwarding: ${config.forwardingMode}`,
  );
  const settlement = startSettlement(config, database.db, {
    log,
    // Note: a test hook (the crash tests kill the worker at a named step); never set in production.
    crashAt: process.env.FORWARDING_CRASH_AT,
  });
  const stop = async () => {
    await settlement.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `worker: ${error.message}` : error);
  process.exit(1);
});
