// Settlement worker entry point: the one process that holds the deposit seed and the relayer key.
// Today it detects payments (see settlement/); forwarding and webhooks join it in the next issue.
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError, loadWorkerConfig } from './config.ts';
import { createDatabase, migrateDatabase } from './db/client.ts';
import { depositXpubFromMnemonic, isValidMnemonic } from './keys/hd.ts';
import { startDetectionLoop } from './settlement/detection-loop.ts';

async function main() {
  const config = loadWorkerConfig();
  if (!isValidMnemonic(config.paymentMnemonic)) {
    throw new ConfigError('`PAYMENT_MNEMONIC` is not a valid BIP-39 mnemonic');
  }
  await migrateDatabase(config.databaseUrl);
  const database = createDatabase(config.databaseUrl, { max: 2 });
  const chain = createPublicClient({ transport: http(config.chain.rpcUrl) });
  const chainId = await chain.getChainId();
  if (chainId !== config.chain.chainId) {
    throw new ConfigError(
      `\`RPC_URL\` serves chain ${chainId}, but \`CHAIN_ID\` is ${config.chain.chainId}`,
    );
  }
  const relayer = privateKeyToAccount(config.relayerPrivateKey).address;
  const xpub = depositXpubFromMnemonic(config.paymentMnemonic);
  console.log(
    `worker: ready on chain ${chainId} (USDC ${config.chain.usdc}); relayer ${relayer}, ` +
      `treasury ${config.treasuryAddress}, deposit xpub ${xpub.slice(0, 16)}…; detecting ` +
      `payments every ${config.detectionIntervalMs} ms at ${config.confirmations} confirmations`,
  );
  const detection = startDetectionLoop({
    db: database.db,
    chainId,
    confirmations: config.confirmations,
    intervalMs: config.detectionIntervalMs,
    log: (line) => console.log(`worker: ${line}`),
  });
  const stop = async () => {
    await detection.stop();
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
