import { describe, expect, test } from 'vitest';
import { confirmationsOf, deepestConfirmedBlock } from './confirmations.ts';

describe('confirmation depth', () => {
  test('counts the block of the transaction itself, and 0 above the head', () => {
    expect(confirmationsOf({ blockNumber: 100n }, 100n)).toBe(1n);
    expect(confirmationsOf({ blockNumber: 100n }, 104n)).toBe(5n);
    expect(confirmationsOf({ blockNumber: 101n }, 100n)).toBe(0n);
  });

  test('the deepest confirmed block is the one that has exactly the depth', () => {
    for (const depth of [1, 3, 12]) {
      const block = deepestConfirmedBlock(1000n, depth);
      expect(confirmationsOf({ blockNumber: block }, 1000n)).toBe(BigInt(depth));
      expect(confirmationsOf({ blockNumber: block + 1n }, 1000n)).toBe(BigInt(depth - 1));
    }
  });
});
