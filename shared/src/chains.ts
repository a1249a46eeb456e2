// Facts about the chains the product runs on, in one place: ids, names, Circle's USDC contract,
// block explorer, default confirmation depth and block time. The api, the indexer and the web app
// read them from here.

/** Base mainnet chain id. */
export const BASE_CHAIN_ID = 8453;
/** Base Sepolia (test mode) chain id. */
export const BASE_SEPOLIA_CHAIN_ID = 84532;
/** The local chain (anvil) chain id. */
export const LOCAL_CHAIN_ID = 31337;

/** Chain ids the product runs on. */
export const CHAIN_IDS = {
  base: BASE_CHAIN_ID,
  baseSepolia: BASE_SEPOLIA_CHAIN_ID,
  local: LOCAL_CHAIN_ID,
} as const;

/** Circle's USDC contract on Base mainnet. */
export const BASE_USDC_ADDRESS = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/** Circle's USDC contract on Base Sepolia. */
export const BASE_SEPOLIA_USDC_ADDRESS = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
/** Circle's USDC contract by chain id (the local chain deploys its own at start-up). */
export const USDC_ADDRESSES = {
  [BASE_CHAIN_ID]: BASE_USDC_ADDRESS,
  [BASE_SEPOLIA_CHAIN_ID]: BASE_SEPOLIA_USDC_ADDRESS,
} as const;

/** What the product knows of one chain. */
export interface ChainFacts {
  id: number;
  /** Short name (Ponder's chain name and viem's: base, baseSepolia, anvil). */
  key: string;
  /** Name shown to people. */
  name: string;
  /** Circle's USDC; undefined on the local chain, where the contract is deployed at start-up. */
  usdc: `0x${string}` | undefined;
  /**
   * The name in USDC's EIP-712 domain (version "2"), which gasless EIP-3009 authorizations sign:
   * "USD Coin" on Base and on our local deployment, but "USDC" on Base Sepolia.
   */
  usdcDomainName: string;
  /** The block explorer's origin; undefined on the local chain. */
  explorerUrl: string | undefined;
  /**
   * Blocks a payment needs (its own included) before it counts as received, unless configured:
   * 10 on Base (2 s of 200 ms blocks), 2 on the local chain. Note: a risk choice for shop orders,
   * not finality.
   */
  confirmations: number;
  /** Milliseconds between blocks (Base: 200 ms since Denim; local: the stack's default). */
  blockTimeMs: number;
  /** False for Base mainnet, where payments are real. */
  testMode: boolean;
  /**
   * The card on-ramp's name of this network; undefined where it sells no USDC (test and local
   * chains), so no page offers to buy with a card there.
   */
  onrampNetwork: string | undefined;
}

/** The chains the product runs on, by chain id. */
export const CHAINS = {
  [BASE_CHAIN_ID]: {
    id: BASE_CHAIN_ID,
    key: 'base',
    name: 'Base',
    usdc: BASE_USDC_ADDRESS,
    usdcDomainName: 'USD Coin',
    explorerUrl: 'https://basescan.org',
    confirmations: 10,
    blockTimeMs: 200,
    testMode: false,
    onrampNetwork: 'base',
  },
  [BASE_SEPOLIA_CHAIN_ID]: {
    id: BASE_SEPOLIA_CHAIN_ID,
    key: 'baseSepolia',
    name: 'Base Sepolia',
    usdc: BASE_SEPOLIA_USDC_ADDRESS,
    usdcDomainName: 'USDC',
    explorerUrl: 'https://sepolia.basescan.org',
    confirmations: 10,
    blockTimeMs: 200,
    testMode: true,
    onrampNetwork: undefined,
  },
  [LOCAL_CHAIN_ID]: {
    id: LOCAL_CHAIN_ID,
    key: 'anvil',
    name: `Local chain ${LOCAL_CHAIN_ID}`,
    usdc: undefined,
    usdcDomainName: 'USD Coin',
    explorerUrl: undefined,
    confirmations: 2,
    blockTimeMs: 1000,
    testMode: true,
    onrampNetwork: undefined,
  },
} as const satisfies Record<number, ChainFacts>;

/** A chain id the product runs on. */
export type SupportedChainId = keyof typeof CHAINS;

/** The supported chain ids, in the order of `CHAINS`. */
export const SUPPORTED_CHAIN_IDS = Object.keys(CHAINS).map(Number) as SupportedChainId[];

/** True when the product runs on `chainId`. */
export function isSupportedChainId(chainId: number): chainId is SupportedChainId {
  return Object.hasOwn(CHAINS, chainId);
}

/** The facts of `chainId`, or undefined for a chain the product does not run on. */
export function chainFacts(chainId: number): ChainFacts | undefined {
  return isSupportedChainId(chainId) ? CHAINS[chainId] : undefined;
}

/** Circle's USDC on `chainId`; undefined on the local chain and unknown chains. */
export function usdcAddressOf(chainId: number): `0x${string}` | undefined {
  return chainFacts(chainId)?.usdc;
}

/** The default confirmation depth of `chainId` (unknown chains: Base's 10). */
export function defaultConfirmations(chainId: number): number {
  return chainFacts(chainId)?.confirmations ?? CHAINS[BASE_CHAIN_ID].confirmations;
}

/** The name of USDC's EIP-712 domain on `chainId` ("USD Coin" where unknown). */
export function usdcDomainNameOf(chainId: number): string {
  return chainFacts(chainId)?.usdcDomainName ?? 'USD Coin';
}
