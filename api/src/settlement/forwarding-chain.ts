// Chain side of forwarding: the relayer's transactions (signed, recorded, then broadcast, under
// one nonce lock), receipts and their gas cost, and EIP-3009 authorization lookups.
import {
  type Address,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  keccak256,
  type LocalAccount,
  type PublicClient,
  parseAbiItem,
  type TransactionReceipt,
} from 'viem';
import { getNetwork } from '../chain/networks.ts';
import { usdcAbi } from '../chain/usdc-abi.ts';
import type { LegRow, MinedLeg } from './forwarding-store.ts';

/** Everything forwarding needs from the chain and the keys. */
export interface ForwardingChain {
  client: PublicClient;
  rpcUrl: string;
  chainId: number;
  token: Address;
  relayer: LocalAccount;
  treasury: Address;
  /** Serialises the relayer's nonces (see `sendFromRelayer`). */
  relayerLock: NonceLock;
}

/** The relayer's next nonce, handed out one transaction at a time. */
export class NonceLock {
  private tail: Promise<unknown> = Promise.resolve();
  next: number | undefined;
  /** Runs `task` after every task queued before it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }
}

/** A signed transaction before broadcast: what a leg records first. */
export interface SignedTx {
  raw: Hex;
  hash: Hash;
  nonce: number;
}

/** Gas margin on estimates, in percent (estimates are exact for the state they ran on). */
const GAS_MARGIN_PERCENT = 20n;

/**
 * Signs a relayer transaction, hands it to `record` (which stores it in Postgres), and only then
 * broadcasts it. Note: one at a time, so two legs never take the same nonce and a failure before
 * broadcast never leaves a gap that would hold up every later transaction.
 */
export function sendFromRelayer(
  chain: ForwardingChain,
  request: { to: Address; data?: Hex; value?: bigint },
  record: (tx: SignedTx) => Promise<void>,
): Promise<SignedTx> {
  const wallet = createWalletClient({
    account: chain.relayer,
    chain: getNetwork(chain.chainId).chain,
    transport: http(chain.rpcUrl),
  });
  return chain.relayerLock.run(async () => {
    try {
      const pending = await chain.client.getTransactionCount({
        address: chain.relayer.address,
        blockTag: 'pending',
      });
      const nonce = Math.max(pending, chain.relayerLock.next ?? 0);
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
      await record(tx);
      await broadcast(chain.client, raw);
      chain.relayerLock.next = nonce + 1;
      return tx;
    } catch (error) {
      chain.relayerLock.next = undefined;
      throw error;
    }
  });
}

/** Broadcasts a signed transaction; one the node already has is not an error. */
export async function broadcast(client: PublicClient, raw: Hex): Promise<void> {
  try {
    await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    if (!/already known|already imported|known transaction/i.test(String(error))) throw error;
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

const authorizationUsed = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);

/** Blocks searched back for a consumed authorization (about 5.5 hours of Base). */
const AUTHORIZATION_LOOKBACK = 100_000n;

/**
 * The transaction that consumed an authorization, found by its event: when a resubmission
 * replaced the leg's recorded hash and the earlier transaction was the one mined.
 */
export async function findAuthorizationTx(
  chain: ForwardingChain,
  authorizer: Address,
  nonce: Hex,
): Promise<Hash | null> {
  const head = await chain.client.getBlockNumber();
  const logs = await chain.client.getLogs({
    address: chain.token,
    event: authorizationUsed,
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
