// What forwarding works with, below every forwarding module: the chain and keys it uses, the
// relayer's nonce lock, a signed transaction, and the context of one wallet's forwarding. Note:
// its own module so that the modules forwarding.ts calls (submit, cancel, gas-funded) and the
// relayer can name these types without importing the modules that call them.
import type { Address, Hash, Hex, LocalAccount, PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import type { WalletClaims } from './wallet-claims.ts';

/** Everything forwarding needs from the chain and the keys. */
export interface ForwardingChain {
  client: PublicClient;
  rpcUrl: string;
  chainId: number;
  token: Address;
  relayer: LocalAccount;
  treasury: Address;
  /** Serialises the relayer's transactions (see `sendFromRelayer` and `RelayerManager`). */
  relayerLock: NonceLock;
}

/** One relayer transaction at a time: its nonce is chosen, signed, recorded and broadcast. */
export class NonceLock {
  private tail: Promise<unknown> = Promise.resolve();
  /** Runs `task` after every task queued before it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }
}

/**
 * Most relayer sends formed into one group (their records are saved at once, on the worker's
 * pool), and so the most legs one relayer transaction carries (a batch, see forwarding-chain.ts).
 */
export const MAX_GROUP_SENDS = 64;

/** A signed transaction before broadcast: what a leg records first. */
export interface SignedTx {
  raw: Hex;
  hash: Hash;
  nonce: number;
}

/** Everything the forwarding of one wallet needs. */
export interface ForwardingContext {
  db: Database;
  chain: ForwardingChain;
  /** The deposit seed (the worker alone holds it). */
  mnemonic: string;
  mode: 'eip3009' | 'gas-funded';
  /**
   * Blocks a round's transactions must have (their own included) before the round counts as
   * done and `order.forwarded` is sent: CONFIRMATIONS, 1 by default (mined).
   */
  confirmations?: number;
  /** One owner per wallet across workers; without it, this worker assumes it is alone. */
  claims?: WalletClaims;
  /** Test hook: the step to die at (FORWARDING_CRASH_AT). */
  crashAt?: string;
  /** How long a pass waits for its transactions to be mined before leaving them to the next. */
  receiptTimeoutMs?: number;
}
