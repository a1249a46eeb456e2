// The USDC transfer from a browser wallet, loaded on demand (viem's wallet code stays out of the
// pages' initial JS): ask for an account, switch the wallet to the settlement chain (adding it
// when the wallet does not know it), send `transfer(deposit, amount)` and wait for its receipt.
import { BASE_CHAIN_ID, BASE_SEPOLIA_CHAIN_ID, chainFacts } from '@store/shared';
import { type Chain, createClient, custom, erc20Abi, type Hash } from 'viem';
import {
  addChain,
  getChainId,
  requestAddresses,
  switchChain,
  waitForTransactionReceipt,
  writeContract,
} from 'viem/actions';
import { base, baseSepolia, foundry } from 'viem/chains';
import type { Eip1193Provider } from '../../lib/injected-wallets.ts';

/** Default wait for a sent transaction's receipt. */
const RECEIPT_TIMEOUT_MS = 180_000;

/** What one payment sends. */
export interface WalletTransfer {
  provider: Eip1193Provider;
  chainId: number;
  usdc: `0x${string}`;
  to: `0x${string}`;
  /** USDC base units. */
  amount: bigint;
  /** Called as soon as the wallet has sent the transaction. */
  onSent: (hash: Hash) => void;
  /** How long to wait for the transaction's receipt from the wallet's node (3 minutes). */
  receiptTimeoutMs?: number;
}

/** Why a wallet payment stopped. */
export type WalletFailure = 'rejected' | 'reverted' | 'no-account' | 'failed';

/** A wallet payment that did not go through, with the reason the page shows. */
export class WalletPaymentError extends Error {
  constructor(
    readonly reason: WalletFailure,
    cause?: unknown,
  ) {
    super(`Wallet payment ${reason}`, { cause });
    this.name = 'WalletPaymentError';
  }
}

/** EIP-1193 / EIP-1474 codes: the user rejected the request; the chain is not in the wallet. */
const USER_REJECTED = 4001;
const UNKNOWN_CHAIN = 4902;

/** The first provider error code in an error's cause chain (and MetaMask's `data.originalError`). */
export function providerErrorCode(error: unknown): number | undefined {
  for (let at = error, depth = 0; at && depth < 8; depth++) {
    const value = at as { code?: unknown; data?: { originalError?: { code?: unknown } } };
    if (typeof value.code === 'number' && value.code !== -32603) return value.code;
    if (typeof value.data?.originalError?.code === 'number') return value.data.originalError.code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/** viem's description of the settlement chain (the wallet adds it from this when it must). */
function chainOf(chainId: number): Chain {
  if (chainId === BASE_CHAIN_ID) return base;
  if (chainId === BASE_SEPOLIA_CHAIN_ID) return baseSepolia;
  // Note: the local chain (development) is anvil on its default port.
  return { ...foundry, id: chainId, name: chainFacts(chainId)?.name ?? foundry.name };
}

/** Sends the transfer and resolves once it is in a block; throws a `WalletPaymentError`. */
export async function payFromWallet(transfer: WalletTransfer): Promise<Hash> {
  const chain = chainOf(transfer.chainId);
  // Note: a bare client with the actions imported one by one keeps the loaded code small.
  const client = createClient({ chain, transport: custom(transfer.provider) });
  const fail = (error: unknown): never => {
    if (error instanceof WalletPaymentError) throw error;
    const code = providerErrorCode(error);
    throw new WalletPaymentError(code === USER_REJECTED ? 'rejected' : 'failed', error);
  };
  try {
    const [account] = await requestAddresses(client);
    if (!account) throw new WalletPaymentError('no-account');
    if ((await getChainId(client)) !== chain.id) {
      try {
        await switchChain(client, { id: chain.id });
      } catch (error) {
        if (providerErrorCode(error) !== UNKNOWN_CHAIN) throw error;
        // wallet_addEthereumChain also switches to the chain it adds.
        await addChain(client, { chain });
        if ((await getChainId(client)) !== chain.id) await switchChain(client, { id: chain.id });
      }
    }
    const hash = await writeContract(client, {
      account,
      address: transfer.usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [transfer.to, transfer.amount],
    });
    transfer.onSent(hash);
    const receipt = await waitForTransactionReceipt(client, {
      hash,
      pollingInterval: 1_000,
      timeout: transfer.receiptTimeoutMs ?? RECEIPT_TIMEOUT_MS,
    });
    if (receipt.status !== 'success') throw new WalletPaymentError('reverted');
    return hash;
  } catch (error) {
    return fail(error);
  }
}
