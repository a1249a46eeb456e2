// The reorg watch on a chain held in memory: blocks replaced at the depth or the indexer going
// back are seen, a chain that only grows is not, and the re-reads come when the indexer shows it
// reverted and when it is past the chain's head at the time.
import { describe, expect, test } from 'bun:test';
import { type ChainHeadReader, createReorgWatch, type WatchedBlock } from './reorg-watch.ts';

/** A chain of `length` blocks whose hashes carry `fork` from block `from` on. */
function chain() {
  let blocks: WatchedBlock[] = [];
  const hash = (n: number, fork: string) => `0x${fork}${n}`;
  const build = (length: number, fork = 'a', from = 0, keep: WatchedBlock[] = []) => {
    blocks = keep.slice(0, from);
    for (let n = blocks.length; n < length; n++) {
      const parentHash = n === 0 ? '0x' : (blocks[n - 1]?.hash ?? '0x');
      blocks.push({ number: BigInt(n), hash: hash(n, fork), parentHash });
    }
  };
  build(1);
  const reads: bigint[] = [];
  const reader: ChainHeadReader = {
    blockAt: async (number) => {
      reads.push(number);
      return blocks[Number(number)] ?? null;
    },
    headNumber: async () => BigInt(blocks.length - 1),
  };
  return {
    reader,
    reads,
    grow: (length: number) => build(length, 'a', blocks.length, blocks),
    reorg: (from: number, length: number, fork: string) => build(length, fork, from, blocks),
  };
}

describe('the reorg watch', () => {
  test('a chain that only grows: nothing seen, one block read a head', async () => {
    const c = chain();
    const watch = createReorgWatch(c.reader, 3);
    for (let head = 3; head <= 20; head++) {
      c.grow(head + 1);
      expect(await watch.sawIndexedHead(BigInt(head))).toBe(false);
      expect(watch.rereadDue(BigInt(head))).toBe(false);
    }
    expect(c.reads).toHaveLength(18);
  });

  test('a block at the depth replaced: seen, then re-reads when the indexer reverts and is past', async () => {
    const c = chain();
    const watch = createReorgWatch(c.reader, 3);
    c.grow(21);
    expect(await watch.sawIndexedHead(20n)).toBe(false);
    // Blocks 15.. replaced (deeper than 3); the indexer still shows 20 (its old chain).
    c.reorg(15, 22, 'b');
    expect(await watch.sawIndexedHead(21n)).toBe(true);
    expect(watch.rereadDue(21n)).toBe(false);
    // The indexer reverts to the fork and indexes the new chain from there.
    expect(await watch.sawIndexedHead(16n)).toBe(false);
    expect(watch.rereadDue(16n)).toBe(true);
    expect(watch.rereadDue(17n)).toBe(false);
    // Past the chain's head when the reorg was seen (21): the last re-read.
    expect(watch.rereadDue(21n)).toBe(false);
    expect(watch.rereadDue(22n)).toBe(true);
    expect(watch.rereadDue(23n)).toBe(false);
  });

  test('a reorg within the depth is not a reorg at the depth', async () => {
    const c = chain();
    const watch = createReorgWatch(c.reader, 5);
    c.grow(21);
    expect(await watch.sawIndexedHead(20n)).toBe(false);
    c.reorg(18, 22, 'b');
    expect(await watch.sawIndexedHead(21n)).toBe(false);
  });

  test('the indexer going back is seen even when the chain was read after the reorg', async () => {
    const c = chain();
    const watch = createReorgWatch(c.reader, 3);
    c.grow(21);
    c.reorg(15, 21, 'b');
    // The watch first reads the chain after the reorg: the new chain is all it knows.
    expect(await watch.sawIndexedHead(20n)).toBe(false);
    // The indexer reverts: its head goes back.
    expect(await watch.sawIndexedHead(15n)).toBe(true);
    // It has reverted already: the next re-read is when it is past the chain's head.
    expect(watch.rereadDue(15n)).toBe(false);
    expect(watch.rereadDue(21n)).toBe(true);
  });

  test('skipped heads compare the block read before', async () => {
    const c = chain();
    const watch = createReorgWatch(c.reader, 3);
    c.grow(11);
    expect(await watch.sawIndexedHead(10n)).toBe(false);
    c.grow(16);
    expect(await watch.sawIndexedHead(15n)).toBe(false);
    c.reorg(5, 21, 'b');
    expect(await watch.sawIndexedHead(20n)).toBe(true);
  });
});
