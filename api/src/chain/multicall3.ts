// Multicall3: one contract at the same address on Base, Base Sepolia and most EVM chains
// (deployed there from a presigned transaction). Forwarding batches many legs' EIP-3009
// authorizations into one relayer transaction through its `aggregate3`, each call allowed to fail
// on its own.
import { multicall3Abi } from 'viem';

/** Multicall3's canonical address. */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

export { multicall3Abi };
