// The chains the product runs on and the USDC contract on each.
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

/** Supported chain ids. */
export const BASE_CHAIN_ID = 8453;
export const BASE_SEPOLIA_CHAIN_ID = 84532;
export const LOCAL_CHAIN_ID = 31337;

/** Networks by chain id. */
export const networks = {
  [BASE_CHAIN_ID]: {
    chain: base,
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    testMode: false,
  },
  [BASE_SEPOLIA_CHAIN_ID]: {
    chain: baseSepolia,
    usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    testMode: true,
  },
  [LOCAL_CHAIN_ID]: { chain: foundry, usdc: undefined, testMode: true },
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
