// Pure rules of forwarding: which wallets forward, how much, to whom, under which EIP-3009 nonce,
// and when a failed attempt is tried again. No database, no chain.
import { isPaidState, isPaymentState, splitFee, type Usdc } from '@store/shared';
import { encodeAbiParameters, type Hex, keccak256 } from 'viem';

/** The transactions of a round: the merchant share, the fee and (gas-funded mode) the ETH. */
export type ForwardingLeg = 'merchant' | 'fee' | 'gas';

/** The wallet fields the rules read. */
export interface ForwardableWallet {
  status: string;
  expiredAt: Date | null;
  receivedAmount: Usdc;
  forwardedAmount: Usdc;
}

/**
 * Whether a wallet's funds at depth leave now: once paid (received, overpaid, paid late), when an
 * underpaid window has closed (what arrived goes to the merchant), and anything that arrives on an
 * address already forwarded once: nothing is ever left on a deposit address.
 */
export function isForwardable(wallet: ForwardableWallet, now: Date): boolean {
  if (wallet.receivedAmount <= wallet.forwardedAmount) return false;
  if (wallet.forwardedAmount > 0n && wallet.status !== 'reversed') return true;
  if (!isPaymentState(wallet.status)) return false;
  if (isPaidState(wallet.status)) return true;
  // Note: what is left of a reversed payment (a first part the reorg kept) waits like an
  // underpaid one: a top-up can still complete it, and at the window's end it goes on.
  const partial = wallet.status === 'underpaid' || wallet.status === 'reversed';
  return partial && wallet.expiredAt !== null && wallet.expiredAt <= now;
}

/**
 * What the next round forwards: the address's on-chain balance, but never more than what
 * reached depth and was not forwarded yet (a transfer still below depth waits for its round).
 */
export function roundAmount(balance: Usdc, wallet: ForwardableWallet): Usdc {
  const owed = wallet.receivedAmount - wallet.forwardedAmount;
  const amount = balance < owed ? balance : owed;
  return amount > 0n ? amount : 0n;
}

/** One planned USDC transfer of a round. */
export interface PlannedLeg {
  leg: 'merchant' | 'fee';
  to: `0x${string}`;
  value: Usdc;
}

/** The round's transfers: 98% (or more, by rounding) to the merchant, 2% to the treasury. */
export function planLegs(
  amount: Usdc,
  merchant: `0x${string}`,
  treasury: `0x${string}`,
): PlannedLeg[] {
  const { merchant: share, fee } = splitFee(amount);
  const legs: PlannedLeg[] = [{ leg: 'merchant', to: merchant, value: share }];
  // Note: below 50 base units the fee rounds to 0 and no fee transaction is sent.
  if (fee > 0n) legs.push({ leg: 'fee', to: treasury, value: fee });
  return legs;
}

/**
 * The EIP-3009 nonce of a leg: a hash of (wallet, round, leg). Note: deterministic, so every
 * signature the worker ever makes for this leg, before or after a crash, carries the same nonce,
 * and the token accepts at most one of them.
 */
export function forwardingNonce(walletId: string, round: number, leg: ForwardingLeg): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'uint256' }, { type: 'string' }],
      ['storefront-forwarding', walletId, BigInt(round), leg],
    ),
  );
}

/** Longest wait between two forwarding attempts. */
export const MAX_FORWARDING_DELAY_MS = 5 * 60 * 1000;
/** Failures (other than an unreachable chain) after which forwarding stops and waits for a person. */
export const MAX_FORWARDING_ATTEMPTS = 6;

/** Delay before the next attempt after `failures` failures: base × 2^(failures − 1), capped. */
export function forwardingRetryDelayMs(failures: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failures - 1), MAX_FORWARDING_DELAY_MS);
}
