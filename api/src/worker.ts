// Settlement worker entry point: the one process that holds the deposit seed and the relayer key.
// Note: detection, forwarding and webhooks arrive with the payments issues; today it checks its
// configuration and its dependencies, then waits for them.
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError, loadWorkerConfig } from './config.ts';
import { createDatabase, migrateDatabase } from './db/client.ts';
import { depositXpubFromMnemonic, isValidMnemonic } from './keys/hd.ts';

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
      `treasury ${config.treasuryAddress}, deposit xpub ${xpub.slice(0, 16)}…`,
  );
  const stop = async () => {
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Keep the process alive until it is told to stop.
  setInterval(() => {}, 1 << 30);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `worker: ${error.message}` : error);
  process.exit(1);
});
