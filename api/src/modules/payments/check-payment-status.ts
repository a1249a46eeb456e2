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
  isPaymentException,
  isPaymentState,
  nextPaymentState,
  type PaymentException,
  type PaymentState,
  parseUsdc,
  reportedPaymentException,
} from '@store/shared';
import { inArray, sql } from 'drizzle-orm';
import { indexedHeadSql, indexedTransfer } from '../../chain/indexer.ts';
import { paymentWallets } from '../../db/schema.ts';
import {
  forwardedFiguresOf,
  forwardedFiguresSql,
  isForwarded,
  walletForwarded,
} from '../../payments/forwarded.ts';
import {
  observeDepositAddress,
  type TransferRow,
  toDepositTransfer,
} from '../../payments/indexed-transfers.ts';
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
  observe: () => Promise<DepositObservation | null>,
): Promise<{
  state: string;
  exception: PaymentException;
  detected: string;
  confirmations: number | null;
}> {
  const paid = isPaymentState(wallet.status) && isPaidState(wallet.status);
  const storedException = isPaymentException(wallet.exception) ? wallet.exception : 'none';
  const stored = {
    state: wallet.status,
    exception: isPaymentState(wallet.status)
      ? reportedPaymentException(
          wallet.status,
          storedException,
          parseUsdc(wallet.detectedAmountUsdc),
          parseUsdc(wallet.expectedAmountUsdc),
        )
      : storedException,
    detected: wallet.detectedAmountUsdc,
    // Note: the stored state alone says nothing of blocks, except that a paid one reached depth.
    confirmations: paid ? deps.confirmations : wallet.status === 'waiting' ? 0 : null,
  };
  if (!deps.statusReadsIndexer || !isPaymentState(stored.state) || isPaidState(stored.state))
    return stored;
  // Note: with the indexer unreachable the worker's last state is still a correct answer.
  const observation = await observe().catch(() => null);
  if (!observation) return stored;
  const live = nextPaymentState(
    {
      state: stored.state,
      exception: storedException,
      expected: parseUsdc(wallet.expectedAmountUsdc),
      expiresAt: wallet.expiredAt?.getTime() ?? Number.POSITIVE_INFINITY,
    },
    observation,
    Date.now(),
    deps,
  );
  // Note: "paid" is the worker's to declare (it marks the order in the same transaction); until
  // it has, a projection that reached depth reads as detected, with the exception it will store.
  const projectedPaid = isPaidState(live.state);
  const state: PaymentState = projectedPaid ? 'detected' : live.state;
  const expected = parseUsdc(wallet.expectedAmountUsdc);
  return {
    state,
    exception: projectedPaid
      ? live.exception
      : reportedPaymentException(live.state, live.exception, live.detected, expected),
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
  const forwarded = wallet ? await walletForwarded(deps.db, wallet) : false;
  return viewOf(deps, order, wallet, forwarded, () =>
    observeDepositAddress(deps.db, deps.chainId, wallet?.walletAddress ?? ''),
  );
}

/**
 * The status views of many orders already read, in one query (the pushed streams refresh every
 * order a notification concerns at once): their wallets, each with its indexed transfers, and the
 * indexed head.
 */
export async function paymentStatusesOf(
  deps: PaymentDeps,
  orders: readonly { id: string; totalUsdc: string }[],
): Promise<Map<string, PaymentStatusView>> {
  const views = new Map<string, PaymentStatusView>();
  if (orders.length === 0) return views;
  // Note: the transfer table before the checkpoint table, as readIndexerPosition explains (the
  // indexer's reorg takes them in that order).
  const reads = deps.statusReadsIndexer;
  const rows = await deps.db
    .select({
      wallet: paymentWallets,
      figures: forwardedFiguresSql,
      transfers: reads
        ? sql<TransferRow[]>`coalesce((
          select json_agg(json_build_object('value', ${indexedTransfer.value}::text,
            'block_number', ${indexedTransfer.blockNumber}::text,
            'block_timestamp', ${indexedTransfer.blockTimestamp}::text,
            'tx_hash', ${indexedTransfer.txHash})
            order by ${indexedTransfer.blockNumber}, ${indexedTransfer.logIndex})
          from ${indexedTransfer}
          where ${indexedTransfer.to} = lower(${paymentWallets.walletAddress})), '[]'::json)`
        : sql<TransferRow[]>`'[]'::json`,
      head: reads ? indexedHeadSql(deps.chainId) : sql<string | null>`null`,
    })
    .from(paymentWallets)
    .where(
      inArray(
        paymentWallets.orderId,
        orders.map((o) => o.id),
      ),
    );
  const byOrder = new Map(rows.map((row) => [row.wallet.orderId, row]));
  for (const order of orders) {
    const row = byOrder.get(order.id);
    const observation: DepositObservation | null = row?.head
      ? {
          headBlock: BigInt(row.head),
          transfers: row.transfers.map(toDepositTransfer),
        }
      : null;
    const forwarded = row ? isForwarded(row.wallet, forwardedFiguresOf(row.figures)) : false;
    views.set(order.id, await viewOf(deps, order, row?.wallet, forwarded, async () => observation));
  }
  return views;
}

/** The view of an order from its wallet (none yet: waiting) and the indexer's observation. */
async function viewOf(
  deps: PaymentDeps,
  order: { id: string; totalUsdc: string },
  wallet: Wallet | undefined,
  forwarded: boolean,
  observe: () => Promise<DepositObservation | null>,
): Promise<PaymentStatusView> {
  if (!wallet) {
    return {
      paymentDetected: false,
      status: 'waiting',
      receivedAmount: '0.000000',
      expectedAmount: order.totalUsdc,
      expiredAt: null,
      confirmations: 0,
      requiredConfirmations: deps.confirmations,
      exception: 'none',
    };
  }
  const { state, exception, detected, confirmations } = await currentState(deps, wallet, observe);
  const known = isPaymentState(state) ? state : 'waiting';
  return {
    paymentDetected: known !== 'reversed' && (isPaymentDetected(known) || forwarded),
    status: apiPaymentStatus(known, exception, forwarded),
    exception,
    receivedAmount: detected,
    expectedAmount: wallet.expectedAmountUsdc,
    expiredAt: wallet.expiredAt?.toISOString() ?? null,
    confirmations: confirmations === null ? null : Math.min(confirmations, deps.confirmations),
    requiredConfirmations: deps.confirmations,
  };
}
