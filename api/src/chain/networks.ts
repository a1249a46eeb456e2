// The chains the product runs on and the USDC contract on each.
import { BASE_CHAIN_ID, BASE_SEPOLIA_CHAIN_ID, CHAINS, LOCAL_CHAIN_ID } from '@store/shared';
import type { Address, Chain } from 'viem';
import { base, baseSepolia, foundry } from 'viem/chains';

/** A supported chain: viem's definition and the USDC address (local: deployed at start-up). */
export type Network = {
  chain: Chain;
  /** Circle's USDC; undefined for the local chain, where `deployLocalUsdc` decides it. */
  usdc: Address | undefined;
  /** False for Base mainnet, where payments are real. */
  testMode: boolean;
};

/** Supported chain ids (the facts of each chain live in @store/shared's chains.ts). */
export { BASE_CHAIN_ID, BASE_SEPOLIA_CHAIN_ID, LOCAL_CHAIN_ID };

/** Networks by chain id. */
export const networks = {
  [BASE_CHAIN_ID]: {
    chain: base,
    usdc: CHAINS[BASE_CHAIN_ID].usdc,
    testMode: CHAINS[BASE_CHAIN_ID].testMode,
  },
  [BASE_SEPOLIA_CHAIN_ID]: {
    chain: baseSepolia,
    usdc: CHAINS[BASE_SEPOLIA_CHAIN_ID].usdc,
    testMode: CHAINS[BASE_SEPOLIA_CHAIN_ID].testMode,
  },
  [LOCAL_CHAIN_ID]: {
    chain: foundry,
    usdc: CHAINS[LOCAL_CHAIN_ID].usdc,
    testMode: CHAINS[LOCAL_CHAIN_ID].testMode,
  },
} as const satisfies Record<number, Network>;

export type SupportedChainId = keyof typeof networks;

/** The network of `chainId`, or an error naming the supported ids. */
export function getNetwork(chainId: number): Network {
  const network = (networks as Record<number, Network>)[chainId];
  if (!network) {
    throw new Error(
      `CHAIN_ID ${chainId} is not supported (use ${Object.keys(networks).join(', ')})`,
    );
  }
  return network;
}
