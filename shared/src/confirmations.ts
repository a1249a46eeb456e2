// Confirmation depth: how many blocks a mined transaction has on a head, counting its own block,
// and its inverse, the deepest block that has a given depth. The one place `head − block + 1` is
// written.

/**
 * Blocks a transaction mined in `mined.blockNumber` has on `headBlock`, counting its own (1 = just
 * mined). Note: a transaction whose block is above the head (indexed before the head checkpoint
 * moved) counts as 0.
 */
export function confirmationsOf(mined: { blockNumber: bigint }, headBlock: bigint): bigint {
  return headBlock >= mined.blockNumber ? headBlock - mined.blockNumber + 1n : 0n;
}

/** The highest block whose transactions have `confirmations` blocks on `headBlock`. */
export function deepestConfirmedBlock(headBlock: bigint, confirmations: number): bigint {
  return headBlock - BigInt(confirmations) + 1n;
}
