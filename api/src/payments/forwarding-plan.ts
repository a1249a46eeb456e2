// Pure rules of forwarding: which wallets forward, how much, to whom, under which EIP-3009 nonce,
// and when a failed attempt is tried again. No database, no chain.
import { isPaidPhase, type PaymentPhase, splitFee, type Usdc } from '@store/shared';
import { encodeAbiParameters, type Hex, keccak256 } from 'viem';

/**
 * The transactions of a round: the merchant share, the fee and (gas-funded mode) the ETH; or,
 * alone in its round, a refund to the payer of money still on the deposit address.
 */
export type ForwardingLeg = 'merchant' | 'fee' | 'gas' | 'refund';

/** The wallet fields the rules read. */
export interface ForwardableWallet {
  /** Its state and exception read together (paymentPhase). */
  phase: PaymentPhase;
  expiredAt: Date | null;
  receivedAmount: Usdc;
  /** Every confirmed round: merchant shares, fees and deposit refunds. */
  forwardedAmount: Usdc;
  /** The order's total in base units; absent: no cap (what arrives goes to the merchant). */
  expectedAmount?: Usdc;
  /** Reserved for the payer: deposit refunds not yet sent (awaiting an address, ready, sending). */
  heldAmount?: Usdc;
  /** The part of `forwardedAmount` that went to the merchant and the treasury (the rest: refunds). */
  merchantForwardedAmount?: Usdc;
  /**
   * An underpaid universal link's order past its window: what arrived goes to the merchant (no
   * merchant decides first). A store's order accepted short is received instead, held to the
   * accepted amount (`expectedAmount`).
   */
  accepted?: boolean;
  /** Its merchant refunded it as underpaid: the order is decided, all that arrives later is the payer's. */
  declined?: boolean;
}

/**
 * Whether a wallet's state lets money go to the merchant: once paid (received, overpaid, paid
 * late, or accepted short by its merchant); an underpaid universal link's order at its window's
 * end (a store's waits for its merchant's decision: accept, or refund the payer); what a reorg left of a reversed
 * payment once its window closed; and a top-up of an address already forwarded once.
 */
function mayPayMerchant(wallet: ForwardableWallet, now: Date): boolean {
  if (wallet.phase === 'underpaid') return wallet.accepted === true;
  if (wallet.forwardedAmount > 0n && wallet.phase !== 'reversed') return true;
  if (isPaidPhase(wallet.phase)) return true;
  return wallet.phase === 'reversed' && wallet.expiredAt !== null && wallet.expiredAt <= now;
}

/**
 * What the merchant (share + fee) may still get from the address: what reached depth, is not
 * forwarded and not held for a refund, and never more than the order's total over all rounds (an
 * excess is the payer's: see `excessDue`). An accepted underpaid order has no cap below what arrived.
 */
export function merchantDue(wallet: ForwardableWallet, now: Date): Usdc {
  const free = wallet.receivedAmount - wallet.forwardedAmount - (wallet.heldAmount ?? 0n);
  if (free <= 0n || !mayPayMerchant(wallet, now)) return 0n;
  if (wallet.expectedAmount === undefined || wallet.phase === 'reversed') return free;
  if (wallet.phase === 'underpaid') return free;
  const room = wallet.expectedAmount - (wallet.merchantForwardedAmount ?? wallet.forwardedAmount);
  if (room <= 0n) return 0n;
  return free < room ? free : room;
}

/**
 * Whether a wallet's funds at depth leave now for the merchant (see `merchantDue`). Note: nothing
 * is ever left on a deposit address unaccounted: what the merchant does not get is held for a
 * refund to the payer.
 */
export function isForwardable(wallet: ForwardableWallet, now: Date): boolean {
  return merchantDue(wallet, now) > 0n;
}

/**
 * The excess of a paid order not yet reserved for the payer: what arrived beyond the total, less
 * every deposit refund already held or sent; for an order its merchant refunded as underpaid,
 * everything that arrived since. A positive amount becomes a refund to the payer.
 */
export function excessDue(wallet: ForwardableWallet): Usdc {
  if (wallet.declined) {
    const free = wallet.receivedAmount - wallet.forwardedAmount - (wallet.heldAmount ?? 0n);
    return free > 0n ? free : 0n;
  }
  if (!isPaidPhase(wallet.phase)) return 0n;
  if (wallet.expectedAmount === undefined) return 0n;
  const refunded =
    wallet.forwardedAmount - (wallet.merchantForwardedAmount ?? wallet.forwardedAmount);
  const excess =
    wallet.receivedAmount - wallet.expectedAmount - (wallet.heldAmount ?? 0n) - refunded;
  return excess > 0n ? excess : 0n;
}

/**
 * What the next round forwards: the address's on-chain balance, but never more than the merchant
 * may get now (a transfer still below depth waits for its round).
 */
export function roundAmount(balance: Usdc, wallet: ForwardableWallet, now = new Date()): Usdc {
  const owed = merchantDue(wallet, now);
  const amount = balance < owed ? balance : owed;
  return amount > 0n ? amount : 0n;
}

/** One planned USDC transfer of a round. */
export interface PlannedLeg {
  leg: 'merchant' | 'fee' | 'refund';
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
