// The shopper's view of a payment: the worker's stored state, or, while the order is unpaid, the
// same state machine run on the indexer's rows right now, so a transfer shows within a block even
// between two worker passes. Nothing here writes: the worker alone records transitions.
import {
  apiPaymentStatus,
  formatUsdcFull,
  isPaidState,
  isPaymentDetected,
  isPaymentState,
  nextPaymentState,
  type PaymentState,
  parseUsdc,
} from '@store/shared';
import { observeDepositAddress } from '../../settlement/indexed-transfers.ts';
import { findWallet, getOrderOrThrow } from './assign-payment-wallet.ts';
import type { PaymentDeps, PaymentStatusView } from './model.ts';

type Wallet = NonNullable<Awaited<ReturnType<typeof findWallet>>>;

/** The state and amount seen now: stored, or projected from the indexer's rows when unpaid. */
async function currentState(
  deps: PaymentDeps,
  wallet: Wallet,
): Promise<{ state: string; detected: string }> {
  const stored = { state: wallet.status, detected: wallet.detectedAmountUsdc };
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
  return { state, detected: formatUsdcFull(live.detected) };
}

/** GET /api/check-payment-status/{orderId}: waiting until a wallet exists. */
export async function checkPaymentStatus(
  deps: PaymentDeps,
  orderId: string,
): Promise<PaymentStatusView> {
  const order = await getOrderOrThrow(deps.db, orderId);
  const wallet = await findWallet(deps.db, orderId);
  if (!wallet) {
    return {
      paymentDetected: false,
      status: 'waiting',
      receivedAmount: '0.000000',
      expectedAmount: order.totalUsdc,
      expiredAt: null,
    };
  }
  const { state, detected } = await currentState(deps, wallet);
  const known = isPaymentState(state) ? state : 'waiting';
  return {
    paymentDetected:
      known !== 'reversed' && (isPaymentDetected(known) || wallet.forwardingCompleted),
    status: apiPaymentStatus(known, wallet.forwardingCompleted),
    receivedAmount: detected,
    expectedAmount: wallet.expectedAmountUsdc,
    expiredAt: wallet.expiredAt?.toISOString() ?? null,
  };
}
