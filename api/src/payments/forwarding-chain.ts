// Chain side of forwarding: the relayer's transactions (signed at the chain's nonce, recorded,
// then broadcast, under one lock; forgotten when the node refuses them), receipts and their gas
// cost, and EIP-3009 authorization lookups.
import {
  type Address,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbiItem,
  type TransactionReceipt,
} from 'viem';
import { getNetwork } from '../chain/networks.ts';
import { usdcAbi } from '../chain/usdc-abi.ts';
import type { ForwardingChain, SignedTx } from './forwarding-context.ts';
import type { LegRow, MinedLeg } from './forwarding-store.ts';
import { isAlreadyKnown, nodeRefused, relayerManagerOf } from './relayer.ts';

export { type ForwardingChain, NonceLock, type SignedTx } from './forwarding-context.ts';

/** Where a relayer transaction is recorded before broadcast, and forgotten if the node refuses it. */
export interface TxRecord {
  save(tx: SignedTx): Promise<void>;
  /** Only while the record still holds `tx` (compare and clear). */
  forget(tx: SignedTx): Promise<void>;
}

/** Gas margin on estimates, in percent (estimates are exact for the state they ran on). */
const GAS_MARGIN_PERCENT = 20n;

/**
 * Signs a relayer transaction at the chain's `pending` nonce (see `RelayerManager.nextNonce`),
 * records it (Postgres), and only then broadcasts it. One at a time, under the relayer's lock.
 * Note: when the node refuses it (no ETH, nonce taken, underpriced: anything but "already
 * known"), the record is cleared, so no two legs ever hold the same relayer nonce and the next
 * transaction takes the nonce this one did not use; a broadcast that got no answer keeps its
 * record (it may have reached the node; it is sent again or replaced later).
 */
export function sendFromRelayer(
  chain: ForwardingChain,
  request: { to: Address; data?: Hex; value?: bigint },
  record: TxRecord,
): Promise<SignedTx> {
  const wallet = createWalletClient({
    account: chain.relayer,
    chain: getNetwork(chain.chainId).chain,
    transport: http(chain.rpcUrl),
  });
  return chain.relayerLock.run(async () => {
    const manager = relayerManagerOf(chain);
    const nonce = manager
      ? await manager.nextNonce()
      : await chain.client.getTransactionCount({
          address: chain.relayer.address,
          blockTag: 'pending',
        });
    const estimate = await chain.client.estimateGas({ account: chain.relayer, ...request });
    const fees = await chain.client.estimateFeesPerGas();
    const raw = await wallet.signTransaction({
      ...request,
      nonce,
      gas: (estimate * (100n + GAS_MARGIN_PERCENT)) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const tx = { raw, hash: keccak256(raw), nonce };
    await record.save(tx);
    try {
      await broadcast(chain.client, raw);
    } catch (error) {
      if (nodeRefused(error)) await record.forget(tx);
      throw error;
    }
    manager?.noteSent(tx);
    return tx;
  });
}

/** Broadcasts a signed transaction; one the node already has is not an error. */
export async function broadcast(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (!isAlreadyKnown(error)) throw error;
  }
}

/** The receipt of `hash`, or null while it is not mined. */
export function receiptOf(client: PublicClient, hash: Hash): Promise<TransactionReceipt | null> {
  return client.getTransactionReceipt({ hash }).catch((error) => {
    if (/could not be found|not found/i.test(String(error))) return null;
    throw error;
  });
}

/** True while the node holds `hash` unmined. */
export async function isPending(client: PublicClient, hash: Hash): Promise<boolean> {
  const tx = await client.getTransaction({ hash }).catch(() => null);
  return tx !== null && tx.blockNumber === null;
}

/** What a mined transaction cost in wei: gasUsed × effectiveGasPrice, plus Base's L1 fee. */
export function gasCostOf(receipt: TransactionReceipt): bigint {
  const l1Fee = (receipt as { l1Fee?: bigint | null }).l1Fee ?? 0n;
  return receipt.gasUsed * receipt.effectiveGasPrice + l1Fee;
}

/** Whether the token has consumed `nonce` of `authorizer` (EIP-3009 `authorizationState`). */
export function isAuthorizationUsed(
  chain: ForwardingChain,
  authorizer: Address,
  nonce: Hex,
): Promise<boolean> {
  return chain.client.readContract({
    address: chain.token,
    abi: usdcAbi,
    functionName: 'authorizationState',
    args: [authorizer, nonce],
  });
}

const authorizationEvents = {
  used: parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)'),
  canceled: parseAbiItem(
    'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  ),
} as const;

/** Blocks searched back for a consumed authorization (about 5.5 hours of Base). */
const AUTHORIZATION_LOOKBACK = 100_000n;

/**
 * The transaction that consumed an authorization, found by its event: when a resubmission
 * replaced the leg's recorded hash and the earlier transaction was the one mined. `canceled`: the
 * transaction that cancelled it instead (`cancelAuthorization`).
 */
export async function findAuthorizationTx(
  chain: ForwardingChain,
  authorizer: Address,
  nonce: Hex,
  how: keyof typeof authorizationEvents = 'used',
): Promise<Hash | null> {
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const logs = await chain.client.getLogs({
    address: chain.token,
    event: authorizationEvents[how],
    args: { authorizer, nonce },
    fromBlock: head > AUTHORIZATION_LOOKBACK ? head - AUTHORIZATION_LOOKBACK : 0n,
    toBlock: head,
  });
  return logs[0]?.transactionHash ?? null;
}

/** The token balance of `owner` in base units. */
export function tokenBalance(chain: ForwardingChain, owner: Address): Promise<bigint> {
  return chain.client.readContract({
    address: chain.token,
    abi: usdcAbi,
    functionName: 'balanceOf',
    args: [owner],
  });
}

/** A leg with the receipt of the transaction that carried it. */
export function minedLeg(leg: LegRow, receipt: TransactionReceipt): MinedLeg {
  return {
    leg,
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    gasCostWei: gasCostOf(receipt),
  };
}
