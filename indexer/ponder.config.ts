// Ponder config: USDC `Transfer` logs of one chain (local anvil, Base or Base Sepolia) into Postgres.
// Note: the chain module alone, not the package index (which loads valibot and every rule).
import { chainFacts, SUPPORTED_CHAIN_IDS } from '@store/shared/chains';
import { createConfig } from 'ponder';
import { usdcAbi } from './abis/usdc.ts';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not configured`);
  return value;
}

const chainId = Number(process.env.CHAIN_ID ?? 31337);
const facts = chainFacts(chainId);
if (!facts) {
  throw new Error(`CHAIN_ID ${chainId} is not supported (use ${SUPPORTED_CHAIN_IDS.join(', ')})`);
}
// Ponder's name of the chain: anvil, base or baseSepolia.
const network = { name: facts.key };
const usdc = (facts.usdc ?? env('USDC_ADDRESS')) as `0x${string}`;
// Note: required on every chain. On Base, block 0 would mean every USDC transfer ever made; use
// the block the product went live at. On the local chain it is the USDC deploy block.
const startBlock = Number(env('USDC_START_BLOCK'));
const ws = process.env.WS_URL || undefined;

export default createConfig({
  database: { kind: 'postgres', connectionString: env('DATABASE_URL') },
  chains: {
    [network.name]: {
      id: chainId,
      // Note: several endpoints may be listed, comma-separated; Ponder balances between them.
      rpc: env('RPC_URL').split(','),
      // Note: with `ws` Ponder learns of new blocks by `eth_subscribe newHeads` (about 20 ms
      // from mined to indexed); without it, it polls every `pollingInterval` ms.
      ws,
      pollingInterval: Number(process.env.POLLING_INTERVAL_MS ?? 500),
      // Note: Ponder's sync cache (`ponder_sync`) keeps every matched log and its whole
      // transaction once final (~1,260 bytes a USDC transfer, written in one flush every
      // finality window). The product reads only its own table, so the cache is off unless
      // INDEXER_SYNC_CACHE=true; a re-index (schema change) then fetches the logs from the RPC.
      disableCache: process.env.INDEXER_SYNC_CACHE !== 'true',
    },
  },
  contracts: {
    USDC: { abi: usdcAbi, chain: network.name, address: usdc, startBlock },
  },
});
