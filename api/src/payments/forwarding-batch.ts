// Legs of many payments in one relayer transaction: the EIP-3009 authorizations handed to the
// relayer together go out through Multicall3's `aggregate3`, each call allowed to fail alone (a
// used, expired or unfunded authorization fails by itself; the others pay). The transaction is
// recorded on every leg it carries before it is broadcast, so a crash, a lost transaction or a
// reorg is handled for each leg as for a leg sent alone: its authorization nonce lets it pay at
// most once, whatever carries it. Since a batch succeeds when one of its calls fails, a leg counts
// as paid by a transaction only when the receipt holds the token's event for its authorization.
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  type Hash,
  type Hex,
  multicall3Abi,
  type PublicClient,
  parseAbiItem,
  type TransactionReceipt,
  toEventSelector,
} from 'viem';
import { MULTICALL3_ADDRESS } from '../chain/multicall3.ts';
import type { ForwardingChain } from './forwarding-context.ts';
import type { LegRow } from './forwarding-store.ts';

/** The one transaction that makes every call of `calls` on the token, each allowed to fail. */
export function batchRequest(token: Address, calls: readonly Hex[]): { to: Address; data: Hex } {
  return {
    to: MULTICALL3_ADDRESS,
    data: encodeFunctionData({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [calls.map((callData) => ({ target: token, allowFailure: true, callData }))],
    }),
  };
}

/** Whether Multicall3 has code on the chain, asked once per relayer (a failed ask is asked again). */
export function hasMulticall3(chain: ForwardingChain): Promise<boolean> {
  let known = multicallKnown.get(chain.relayerLock);
  if (!known) {
    known = chain.client.getCode({ address: MULTICALL3_ADDRESS }).then(
      (code) => Boolean(code && code !== '0x'),
      () => {
        multicallKnown.delete(chain.relayerLock);
        return false;
      },
    );
    multicallKnown.set(chain.relayerLock, known);
  }
  return known;
}

const multicallKnown = new WeakMap<object, Promise<boolean>>();

const authorizationUsedTopic = toEventSelector(
  parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)'),
);

/**
 * True when the receipt's transaction used the leg's authorization: it succeeded and holds the
 * token's `AuthorizationUsed` event for the leg's authorizer and nonce.
 */
export function paidLeg(
  receipt: TransactionReceipt,
  token: Address,
  leg: Pick<LegRow, 'fromAddress' | 'authorizationNonce'>,
): boolean {
  if (receipt.status !== 'success' || !leg.authorizationNonce) return false;
  const authorizer = `0x${leg.fromAddress.slice(2).toLowerCase().padStart(64, '0')}`;
  const nonce = leg.authorizationNonce.toLowerCase();
  return receipt.logs.some(
    (log) =>
      log.address.toLowerCase() === token.toLowerCase() &&
      log.topics[0] === authorizationUsedTopic &&
      log.topics[1]?.toLowerCase() === authorizer &&
      log.topics[2]?.toLowerCase() === nonce,
  );
}

/** True when the receipt is of a batch (a transaction to Multicall3). */
export function isBatch(receipt: TransactionReceipt): boolean {
  return receipt.to?.toLowerCase() === MULTICALL3_ADDRESS.toLowerCase();
}

/**
 * The leg's part of what the receipt's transaction cost in wei: all of it for a transaction of its
 * own; for a batch, an equal share per call (the remainder of the division to the first calls, so
 * the shares add up to the cost to the wei).
 */
export async function legGasCost(
  client: PublicClient,
  leg: Pick<LegRow, 'authorizationNonce'>,
  receipt: TransactionReceipt,
  cost: bigint,
): Promise<bigint> {
  if (!isBatch(receipt)) return cost;
  const calls = await batchCalls(client, receipt.transactionHash);
  const count = BigInt(Math.max(1, calls.length));
  const nonce = leg.authorizationNonce?.slice(2).toLowerCase();
  const index = nonce ? calls.findIndex((call) => call.toLowerCase().includes(nonce)) : -1;
  const extra = index >= 0 && BigInt(index) < cost % count ? 1n : 0n;
  return cost / count + extra;
}

/** The token calls of a batch, by transaction (legs of one batch ask one after another). */
const callsByTx = new Map<Hash, readonly Hex[]>();
const CALLS_KEPT = 1_000;

/** Keeps the calls of a batch this process signed, so its legs' shares need no read. */
export function rememberBatchCalls(hash: Hash, calls: readonly Hex[]): void {
  if (callsByTx.size >= CALLS_KEPT) callsByTx.delete(callsByTx.keys().next().value as Hash);
  callsByTx.set(hash, calls);
}

/** The calls a batch made: as this process signed them, else read from the node. */
async function batchCalls(client: PublicClient, hash: Hash): Promise<readonly Hex[]> {
  const known = callsByTx.get(hash);
  if (known) return known;
  const { input } = await client.getTransaction({ hash });
  const { args } = decodeFunctionData({ abi: multicall3Abi, data: input ?? '0x' });
  const calls = ((args?.[0] ?? []) as readonly { callData: Hex }[]).map((c) => c.callData);
  rememberBatchCalls(hash, calls);
  return calls;
}
