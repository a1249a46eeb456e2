// Ponder config: USDC `Transfer` logs of one chain (local anvil, Base or Base Sepolia) into Postgres.
import { createConfig } from 'ponder';
import { usdcAbi } from './abis/usdc.ts';

// Note: kept in step with api/src/chain/networks.ts (the indexer does not import the api).
const networks = {
  31337: { name: 'anvil', usdc: undefined },
  8453: { name: 'base', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  84532: { name: 'baseSepolia', usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
} as const;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not configured`);
  return value;
}

const chainId = Number(process.env.CHAIN_ID ?? 31337);
const network = networks[chainId as keyof typeof networks];
if (!network) {
  throw new Error(`CHAIN_ID ${chainId} is not supported (use ${Object.keys(networks).join(', ')})`);
}
const usdc = (network.usdc ?? env('USDC_ADDRESS')) as `0x${string}`;
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
    },
  },
  contracts: {
    USDC: { abi: usdcAbi, chain: network.name, address: usdc, startBlock },
  },
});
