// How the worker learns of a reorg deeper than the confirmation depth at the next block instead
// of at the next full reconciliation, from two signals. The chain: at each new indexed head it
// reads the newest block at the depth and checks that it descends from the one it read at the
// previous head (one `eth_getBlockByNumber` a block; two when blocks were skipped). The indexer:
// its head goes back when it reverts a reorg's blocks (it then indexes the new chain from the
// fork). Note: each covers the other's blind spot: the chain may change between the indexer's
// commit and the read (then the watched block is already the new chain's), and the indexer may
// index the new chain back past its old head between two passes. A block at the depth
// replaced means that transfers which counted may be gone: the detection loop then re-reads every
// paid wallet against the indexer's rows at once, again as soon as the indexer shows it reverted
// (its head goes back to the fork while it indexes the new chain), and once more when it has
// indexed past the chain's head at the time, and wakes forwarding's reconciliation each time.
// Note: a reorg shallower than the depth needs none of this: wallets below the depth are read at
// every pass anyway.
import { deepestConfirmedBlock } from '@store/shared';
import { BlockNotFoundError, type PublicClient } from 'viem';

/** A block as the watch needs it. */
export interface WatchedBlock {
  number: bigint;
  hash: string;
  parentHash: string;
}

/** What the watch reads of the chain (the worker's RPC client). */
export interface ChainHeadReader {
  /** The block at `number`, or null when the chain has none there (yet, or any more). */
  blockAt(number: bigint): Promise<WatchedBlock | null>;
  /** The chain's head block number. */
  headNumber(): Promise<bigint>;
}

/** The watch of one detection loop. */
export interface ReorgWatch {
  /**
   * Called whenever the indexed head changes; true when a block at the depth was replaced since
   * the previous call, or the indexer went back below its highest head (it reverted a reorg). Note: RPC errors propagate (the pass that called it fails and is retried).
   */
  sawIndexedHead(indexedHead: bigint): Promise<boolean>;
  /**
   * Called at every pass while a reorg is being caught up: true when the paid wallets are to be
   * read again now. Twice per reorg: when the indexer's head goes back below where it was when the
   * reorg was seen (it reverted the removed rows and indexes the new chain from the fork), and
   * when it has indexed past the chain's head at that moment (whatever it missed is in by then).
   */
  rereadDue(indexedHead: bigint): boolean;
}

/** A watch of the block at `confirmations` below each indexed head. */
export function createReorgWatch(reader: ChainHeadReader, confirmations: number): ReorgWatch {
  let watched: WatchedBlock | null = null;
  /** A reorg being caught up: the indexed head and the chain's head when it was seen. */
  let caughtUp: { seenAt: bigint; chainHead: bigint } | null = null;
  let reverted = false;
  /** The highest indexed head seen. */
  let highest: bigint | null = null;
  const depth = Math.max(confirmations, 1);

  return {
    async sawIndexedHead(indexedHead) {
      // The indexer's own signal: its head goes back only when it reverts a reorg's blocks.
      const wentBack = highest !== null && indexedHead < highest;
      if (highest === null || indexedHead > highest) highest = indexedHead;
      const number = deepestConfirmedBlock(indexedHead, depth);
      const previous = watched;
      const current = number < 0n ? null : await reader.blockAt(number);
      let replaced = false;
      if (previous && current) {
        if (number === previous.number) replaced = current.hash !== previous.hash;
        else if (number === previous.number + 1n) replaced = current.parentHash !== previous.hash;
        else replaced = (await reader.blockAt(previous.number))?.hash !== previous.hash;
      } else if (previous) {
        replaced = true;
      }
      const seen = replaced || (wentBack && caughtUp === null);
      // Note: the head is read before the watched block moves, so a failed read is checked again.
      if (seen) {
        caughtUp = { seenAt: indexedHead, chainHead: await reader.headNumber() };
        // Note: seen by the indexer going back: it has reverted already.
        reverted = !replaced;
      }
      watched = current;
      return seen;
    },
    rereadDue(indexedHead) {
      if (!caughtUp) return false;
      if (reverted === false && indexedHead < caughtUp.seenAt) {
        reverted = true;
        return true;
      }
      if (indexedHead <= caughtUp.chainHead) return false;
      caughtUp = null;
      return true;
    },
  };
}

/** The reader over a viem client (a block the node does not have reads as null). */
export function chainHeadReader(client: PublicClient): ChainHeadReader {
  return {
    blockAt: async (number) => {
      const block = await client.getBlock({ blockNumber: number }).catch((error: unknown) => {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      });
      if (!block?.hash) return null;
      return { number, hash: block.hash, parentHash: block.parentHash };
    },
    headNumber: () => client.getBlockNumber({ cacheTime: 0 }),
  };
}
