// The shopper's view of a payment: the worker's stored state, or, while the order is unpaid, the
// same state machine run on the indexer's rows right now, so a transfer shows within a block even
// between two worker passes. Nothing here writes: the worker alone records transitions.
import {
  apiPaymentStatus,
  confirmationsOf,
  type DepositObservation,
  formatUsdcFull,
  isPaidState,
  isPaymentDetected,
  isPaymentState,
  nextPaymentState,
  type PaymentState,
  parseUsdc,
} from '@store/shared';
import { observeDepositAddress } from '../../payments/indexed-transfers.ts';
import { findWallet, getOrderOrThrow } from './assign-payment-wallet.ts';
import type { PaymentDeps, PaymentStatusView } from './model.ts';

type Wallet = NonNullable<Awaited<ReturnType<typeof findWallet>>>;

/**
 * Blocks the payment has on `observation`'s head: the transfer that brought the sum to `expected`
 * (the one the order waits on), else the latest; 0 when nothing arrived.
 */
export function paymentConfirmations(observation: DepositObservation, expected: bigint): number {
  let sum = 0n;
  let last: DepositObservation['transfers'][number] | undefined;
  for (const transfer of observation.transfers) {
    sum += transfer.value;
    last = transfer;
    if (sum >= expected) break;
  }
  return last ? Number(confirmationsOf(last, observation.headBlock)) : 0;
}

/** The state and amount seen now: stored, or projected from the indexer's rows when unpaid. */
async function currentState(
  deps: PaymentDeps,
  wallet: Wallet,
): Promise<{ state: string; detected: string; confirmations: number | null }> {
  const paid = isPaymentState(wallet.status) && isPaidState(wallet.status);
  const stored = {
    state: wallet.status,
    detected: wallet.detectedAmountUsdc,
    // Note: the stored state alone says nothing of blocks, except that a paid one reached depth.
    confirmations: paid ? deps.confirmations : wallet.status === 'waiting' ? 0 : null,
  };
  if (!deps.statusReadsIndexer || !isPaymentState(stored.state) || isPaidState(stored.state))
    return stored;
  // Note: with the indexer unreachable the worker's last state is still a correct answer.
  const observation = await observeDepositAddress(
    deps.db,
    deps.chainId,
    wallet.walletAddress,
  ).catch(() => null);
  if (!observation) return stored;
  const live = nextPaymentState(
    {
      state: stored.state,
      expected: parseUsdc(wallet.expectedAmountUsdc),
      expiresAt: wallet.expiredAt?.getTime() ?? Number.POSITIVE_INFINITY,
    },
    observation,
    Date.now(),
    deps,
  );
  // Note: "paid" is the worker's to declare (it marks the order in the same transaction); until
  // it has, a projection that reached depth reads as detected.
  const state: PaymentState = isPaidState(live.state) ? 'detected' : live.state;
  const expected = parseUsdc(wallet.expectedAmountUsdc);
  return {
    state,
    detected: formatUsdcFull(live.detected),
    confirmations: paymentConfirmations(observation, expected),
  };
}

/** GET /api/check-payment-status/{orderId}: waiting until a wallet exists. */
export async function checkPaymentStatus(
  deps: PaymentDeps,
  orderId: string,
): Promise<PaymentStatusView> {
  return paymentStatusOf(deps, await getOrderOrThrow(deps.db, orderId));
}

/** The status view of an order already read (the pushed stream reads it once). */
export async function paymentStatusOf(
  deps: PaymentDeps,
  order: { id: string; totalUsdc: string },
): Promise<PaymentStatusView> {
  const wallet = await findWallet(deps.db, order.id);
  if (!wallet) {
    return {
      paymentDetected: false,
      status: 'waiting',
      receivedAmount: '0.000000',
      expectedAmount: order.totalUsdc,
      expiredAt: null,
      confirmations: 0,
      requiredConfirmations: deps.confirmations,
    };
  }
  const { state, detected, confirmations } = await currentState(deps, wallet);
  const known = isPaymentState(state) ? state : 'waiting';
  return {
    paymentDetected:
      known !== 'reversed' && (isPaymentDetected(known) || wallet.forwardingCompleted),
    status: apiPaymentStatus(known, wallet.forwardingCompleted),
    receivedAmount: detected,
    expectedAmount: wallet.expectedAmountUsdc,
    expiredAt: wallet.expiredAt?.toISOString() ?? null,
    confirmations: confirmations === null ? null : Math.min(confirmations, deps.confirmations),
    requiredConfirmations: deps.confirmations,
  };
}
