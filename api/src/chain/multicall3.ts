// Multicall3: one transaction that makes many calls, each allowed to fail alone (`aggregate3`).
// Base has it at its canonical address; the local chain gets the same code at start-up.

/** Multicall3's canonical address (the same on Base, Base Sepolia and most EVM chains). */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;
