// The payment state machine: one pure function from what the chain shows for a deposit address
// to the state of its wallet. No clock, no database: the caller passes both in.
import { confirmationsOf } from './confirmations.ts';
import type { Usdc } from './money.ts';
import type { ApiPaymentStatus } from './status.ts';

/**
 * Where a deposit wallet's payment is, stored as it is (`payment_wallets.status`): waiting (not all
 * of the amount has arrived; a top-up still completes it, even after the window), detected (all of
 * it seen, below the confirmation depth), received (all of it at depth: the order is paid),
 * expired (the window closed with nothing) or reversed (a reorg deeper than the depth took a
 * payment). What went wrong is its exception, stored beside it (PAYMENT_EXCEPTIONS).
 */
export const PAYMENT_STATES = ['waiting', 'detected', 'received', 'expired', 'reversed'] as const;
/** A deposit wallet's state. */
export type PaymentState = (typeof PAYMENT_STATES)[number];

/**
 * A payment's state with the exception folded in where it decides what happens next (underpaid
 * while waiting; overpaid or paid late once received): what the state machine steps on, what the
 * webhooks' events and the timeline's titles follow, and what the payment status API reports.
 * Derived only by `paymentPhase` from the stored pair, never stored.
 */
export const PAYMENT_PHASES = [
  'waiting',
  'detected',
  'underpaid',
  'received',
  'overpaid',
  'paid_late',
  'expired',
  'reversed',
] as const;
/** A payment's phase. */
export type PaymentPhase = (typeof PAYMENT_PHASES)[number];

/** One indexed USDC transfer to a deposit address. */
export interface DepositTransfer {
  value: Usdc;
  blockNumber: bigint;
  /** Unix seconds of the transfer's block. */
  blockTimestamp: bigint;
  txHash: string;
}

/** What the chain shows for one address: its transfers in chain order (block, log) and the indexed head. */
export interface DepositObservation {
  transfers: readonly DepositTransfer[];
  headBlock: bigint;
}

/** A wallet as the state machine sees it. */
export interface PaymentWalletState {
  state: PaymentState;
  exception: PaymentException;
  /** Amount the order asks for, in base units. */
  expected: Usdc;
  /** End of the payment window, in epoch milliseconds. */
  expiresAt: number;
}

/** A wallet after one observation. */
export interface PaymentSnapshot {
  state: PaymentState;
  exception: PaymentException;
  /** Σ of every transfer seen, at any depth. */
  detected: Usdc;
  /** Σ of the transfers at the confirmation depth. */
  received: Usdc;
  /** The shopper's transfer that brought the sum to the expected amount (null before that). */
  paymentTxHash: string | null;
}

/** True once the order counts as paid: the full amount reached the confirmation depth. */
export function isPaidState(state: PaymentState): boolean {
  return state === 'received';
}

/** True once the full amount has been seen (detected or paid): `paymentDetected` of the status API. */
export function isPaymentDetected(state: PaymentState): boolean {
  return state === 'detected' || isPaidState(state);
}

/** The phase of a stored state and exception: the one place the two are read together. */
export function paymentPhase(state: PaymentState, exception: PaymentException): PaymentPhase {
  if (state === 'waiting' && exception === 'underpaid') return 'underpaid';
  if (state === 'received' && (exception === 'overpaid' || exception === 'paid_late'))
    return exception;
  return state;
}

/**
 * What a wallet reaching `phase` stores, having seen `detected` (and held `previous`): its state
 * and its exception (paymentExceptionOf).
 */
export function storedPayment(
  phase: PaymentPhase,
  detected: Usdc,
  previous: PaymentException = 'none',
): { state: PaymentState; exception: PaymentException } {
  return { state: stateOfPhase(phase), exception: paymentExceptionOf(phase, detected, previous) };
}

/** The state a phase is stored as. */
function stateOfPhase(phase: PaymentPhase): PaymentState {
  switch (phase) {
    case 'underpaid':
      return 'waiting';
    case 'overpaid':
    case 'paid_late':
      return 'received';
    default:
      return phase;
  }
}

/** True for the phases of a paid order (received, overpaid, paid late). */
export function isPaidPhase(phase: PaymentPhase): boolean {
  return isPaidState(stateOfPhase(phase));
}

/**
 * The next state and exception of a wallet. Rules, in order:
 * - the full amount at `confirmations` depth: received; overpaid when more arrived, or paid late
 *   when the transfer that completed it was mined after the window closed (chain time, so a
 *   slow worker never makes a punctual shopper late); a paid wallet stays paid, and a received
 *   one becomes overpaid if more arrives later;
 * - the full amount seen below that depth: detected;
 * - some but not all seen: waiting, underpaid (a top-up can still complete it, even after expiry);
 * - nothing by `expiresAt`: expired; otherwise waiting.
 * Note: a detected transfer that a reorg removes before depth sends the wallet back. A paid
 * wallet whose payment a reorg deeper than the depth removed (less than the expected amount is
 * seen at all) is `reversed`, loudly, never silently paid with nothing; it is paid again only
 * when the full amount reaches depth again.
 */
export function nextPaymentState(
  current: PaymentWalletState,
  observation: DepositObservation,
  now: number,
  settings: { confirmations: number },
): PaymentSnapshot {
  const depth = BigInt(settings.confirmations);
  let detected = 0n;
  let received = 0n;
  let completing: DepositTransfer | undefined;
  for (const transfer of observation.transfers) {
    detected += transfer.value;
    if (confirmationsOf(transfer, observation.headBlock) >= depth) received += transfer.value;
    if (!completing && detected >= current.expected) completing = transfer;
  }
  const paymentTxHash = completing?.txHash ?? null;
  const snapshot = (phase: PaymentPhase): PaymentSnapshot => ({
    ...storedPayment(phase, detected, current.exception),
    detected,
    received,
    paymentTxHash,
  });

  const phase = paymentPhase(current.state, current.exception);
  if (isPaidPhase(phase) || phase === 'reversed') {
    const gone = detected < current.expected;
    const back = phase === 'reversed' && received >= current.expected && completing;
    if (gone || (phase === 'reversed' && !back)) return snapshot('reversed');
  }
  if (isPaidPhase(phase)) {
    const more = phase === 'received' && received > current.expected;
    return snapshot(more ? 'overpaid' : phase);
  }
  if (received >= current.expected && completing) {
    if (Number(completing.blockTimestamp) * 1000 > current.expiresAt) return snapshot('paid_late');
    return snapshot(received > current.expected ? 'overpaid' : 'received');
  }
  if (detected >= current.expected && completing) return snapshot('detected');
  if (detected > 0n) return snapshot('underpaid');
  return snapshot(now >= current.expiresAt ? 'expired' : 'waiting');
}

/** The status the API reports for a payment (`forwarded` once the funds moved on). */
export function apiPaymentStatus(
  state: PaymentState,
  exception: PaymentException,
  forwarded = false,
): ApiPaymentStatus {
  // Note: before `forwarded`: money forwarded for a payment that no longer exists is a loss, not a payment.
  if (state === 'reversed') return 'reversed';
  if (forwarded) return 'forwarded';
  const phase = paymentPhase(state, exception);
  switch (phase) {
    case 'detected':
      return 'detected_pending_processing';
    case 'received':
    case 'overpaid':
    case 'paid_late':
      return 'received';
    default:
      return phase;
  }
}

/** True for a known wallet state (rows are text in the database). */
export function isPaymentState(value: string): value is PaymentState {
  return (PAYMENT_STATES as readonly string[]).includes(value);
}

/**
 * What went wrong with a payment, apart from where it is: none, underpaid (less than the order
 * asks arrived), overpaid (more arrived), paid_late (completed after its window) or
 * accepted_underpaid (the merchant accepted less as paid). Stored beside the wallet's state
 * (`payment_wallets.exception`), written only where the state is recorded, read as stored.
 */
export const PAYMENT_EXCEPTIONS = [
  'none',
  'underpaid',
  'overpaid',
  'paid_late',
  'accepted_underpaid',
] as const;
/** A payment's exception. */
export type PaymentException = (typeof PAYMENT_EXCEPTIONS)[number];

/**
 * The exception of a wallet reaching `phase` having seen `detected`: the one place it is computed.
 * Rules: a payment its merchant accepted short stays accepted_underpaid (it is held to the
 * accepted amount: a later top-up is the payer's excess; a reorg that takes it reverses it and
 * keeps the acceptance for when it returns); some but not all of the amount is underpaid, in
 * its window or after; any other reversed payment has none (the reversal is its state).
 */
export function paymentExceptionOf(
  phase: PaymentPhase,
  detected: Usdc,
  previous: PaymentException = 'none',
): PaymentException {
  if (previous === 'accepted_underpaid' && (isPaidPhase(phase) || phase === 'reversed'))
    return 'accepted_underpaid';
  switch (phase) {
    case 'underpaid':
      return 'underpaid';
    case 'overpaid':
      return 'overpaid';
    case 'paid_late':
      return 'paid_late';
    case 'expired':
      return detected > 0n ? 'underpaid' : 'none';
    default:
      return 'none';
  }
}

/**
 * The exception a status answer reports: the stored one, except that a payment seen in full but
 * not yet at depth (detected) with more than `expected` already reports overpaid. The exception
 * is stored only when the payment reaches depth (paymentExceptionOf), but the shopper is told of
 * the excess as soon as it is seen.
 */
export function reportedPaymentException(
  state: PaymentState,
  exception: PaymentException,
  detected: Usdc,
  expected: Usdc,
): PaymentException {
  if (state === 'detected' && exception === 'none' && detected > expected) return 'overpaid';
  return exception;
}

/** True for a known exception (rows are text in the database). */
export function isPaymentException(value: string): value is PaymentException {
  return (PAYMENT_EXCEPTIONS as readonly string[]).includes(value);
}
