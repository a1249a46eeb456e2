// Which forwarding failures stop an order (a person must look) and which are retried for ever.
import { describe, expect, test } from 'bun:test';
import { isConnectionError, isRelayerError } from './forwarding-loop.ts';

describe('forwarding failures', () => {
  test("the relayer's own trouble never stops an order's forwarding", () => {
    for (const message of [
      'insufficient funds for gas * price + value',
      'nonce too low',
      'replacement transaction underpriced',
    ]) {
      expect(isRelayerError(new Error(message))).toBe(true);
    }
    expect(isRelayerError(new Error('FiatToken: account is blacklisted'))).toBe(false);
  });

  test('an unreachable node is a connection error', () => {
    expect(isConnectionError(new Error('connect ECONNREFUSED 127.0.0.1:8545'))).toBe(true);
    expect(isConnectionError(new Error('execution reverted'))).toBe(false);
  });
});
