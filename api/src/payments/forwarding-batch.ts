// Legs of many payments in one relayer transaction: the EIP-3009 authorizations handed to the
// relayer together go out through Multicall3's `aggregate3`, each call allowed to fail alone (a
// used, expired or unfunded authorization fails by itself; the others pay). The transaction is
// recorded on every leg it carries before it is broadcast, so a crash, a lost transaction or a
// reorg is handled for each leg as for a leg sent alone: its authorization nonce lets it pay at
// most once, whatever carries it. Since a batch succeeds when one of its calls fails, a leg counts
// as paid by a transaction only when the receipt holds the token's event for its authorization.
import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  decodeFunctionResult,
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

/**
 * Each call of a batch run once, together, on the pending state as the relayer (one `eth_call` of
 * the batch): null for a call that would pay, else why the token refuses it (an authorization a
 * mined or pooled transaction already used, expired, or more than the address holds).
 * Note: on `pending`, so a transaction the relayer already has in the pool (a lost one sent again)
 * counts: its authorization reads as used and the leg is not sent a second time.
 */
export async function simulateBatch(
  chain: ForwardingChain,
  calls: readonly Hex[],
): Promise<(string | null)[]> {
  const { data } = await chain.client.call({
    account: chain.relayer.address,
    ...batchRequest(chain.token, calls),
    blockTag: 'pending',
  });
  const results = decodeFunctionResult({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    data: data ?? '0x',
  });
  return calls.map((_, i) => {
    const result = results[i];
    if (!result) return 'the batch did not run this call';
    return result.success ? null : revertReason(result.returnData);
  });
}

/** The reason a call reverted with (`Error(string)`), or its raw bytes. */
function revertReason(returnData: Hex): string {
  if (returnData.startsWith(ERROR_STRING_SELECTOR)) {
    try {
      const [reason] = decodeAbiParameters([{ type: 'string' }], `0x${returnData.slice(10)}`);
      return reason;
    } catch {
      // Note: malformed: the raw bytes below.
    }
  }
  return returnData === '0x' ? 'reverted without a reason' : `reverted (${returnData})`;
}

const ERROR_STRING_SELECTOR = '0x08c379a0';

/**
 * Gas a batch gives each of its calls before the send's margin: at least this, or what one of
 * them costs as a transaction of its own (the 21,000 of a transaction included), whichever is more.
 * Note: a `transferWithAuthorization` of Circle's USDC to an address that held none uses about
 * 60,000 in a batch (a new balance and a new authorization slot); what is not used is not paid.
 */
export const BATCH_CALL_GAS = 100_000n;

/**
 * The gas each call of a batch gets: `BATCH_CALL_GAS`, or one of its calls estimated as a
 * transaction of its own if that is more (asked once per relayer; a failed ask is asked again).
 */
export async function batchCallGas(chain: ForwardingChain, call: Hex): Promise<bigint> {
  let known = callGasKnown.get(chain.relayerLock);
  if (!known) {
    known = chain.client
      .estimateGas({ account: chain.relayer.address, to: chain.token, data: call })
      .then((gas) => (gas > BATCH_CALL_GAS ? gas : BATCH_CALL_GAS));
    callGasKnown.set(chain.relayerLock, known);
    known.catch(() => callGasKnown.delete(chain.relayerLock));
  }
  return known.catch(() => BATCH_CALL_GAS);
}

const callGasKnown = new WeakMap<object, Promise<bigint>>();

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
