// Writes one wallet's new state: the wallet row, an event per transition, when the full amount
// reaches depth the order, and the webhooks the transition sends (the outbox), all in one
// transaction: a webhook exists if and only if the change it reports was committed.
import {
  formatUsdcFull,
  isPaidState,
  isPaymentDetected,
  type PaymentSnapshot,
  parseUsdc,
  paymentPhase,
  type Usdc,
} from '@store/shared';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client.ts';
import { orders, paymentEvents, paymentWallets } from '../db/schema.ts';
import { enqueuePaidMails, enqueueShortfall } from '../mail/outbox.ts';
import { eventsForTransition } from '../webhooks/events.ts';
import { enqueueOrderEvents } from '../webhooks/outbox.ts';
import { noticePaymentChange } from './payment-notices.ts';
import { cancelUnsentDepositRefunds } from './refund-store.ts';
import { decrementInventoryForPaidOrder } from './stock.ts';

/** A wallet as stored before a pass and as the state machine sees it after. */
export interface WalletChange {
  walletId: string;
  orderId: string;
  before: PaymentSnapshot;
  after: PaymentSnapshot;
  headBlock: bigint;
}

/** True when the change moves the state, the exception or any amount (a write is needed). */
export function isChange(change: WalletChange): boolean {
  const { before, after } = change;
  return (
    isTransition(change) ||
    before.detected !== after.detected ||
    before.received !== after.received ||
    before.paymentTxHash !== after.paymentTxHash
  );
}

/** True when the change moves the state or the exception (an event in the payment's history). */
function isTransition({ before, after }: WalletChange): boolean {
  return before.state !== after.state || before.exception !== after.exception;
}

/**
 * Stores the change; false when there is none or another pass already stored one.
 * Note: the update is conditional on the row still being what the pass read, so two workers
 * (a restart overlapping the old process) never record a transition or pay an order twice.
 */
export async function recordWalletChange(
  db: Database,
  change: WalletChange,
  now: Date,
): Promise<boolean> {
  if (!isChange(change)) return false;
  const { before, after } = change;
  const newlyPaid = isPaidState(after.state) && !isPaidState(before.state);
  const newlyDetected = isPaymentDetected(after.state) && !isPaymentDetected(before.state);
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(paymentWallets)
      .set({
        status: after.state,
        exception: after.exception,
        detectedAmountUsdc: formatUsdcFull(after.detected),
        receivedAmountUsdc: formatUsdcFull(after.received),
        depositTxHash: after.paymentTxHash,
        ...(newlyPaid ? { paymentReceivedAt: now } : {}),
        ...(newlyDetected ? { detectedAt: now } : {}),
      })
      .where(
        and(
          eq(paymentWallets.id, change.walletId),
          eq(paymentWallets.status, before.state),
          eq(paymentWallets.exception, before.exception),
          eq(paymentWallets.detectedAmountUsdc, formatUsdcFull(before.detected)),
          eq(paymentWallets.receivedAmountUsdc, formatUsdcFull(before.received)),
        ),
      )
      .returning({ id: paymentWallets.id, forwarded: paymentWallets.forwardedAmountUsdc });
    const [row] = updated;
    if (!row) return false;
    const reversed = after.state === 'reversed' && before.state !== 'reversed';
    const underpaid = (s: PaymentSnapshot) => paymentPhase(s.state, s.exception) === 'underpaid';
    // Note: the writes below depend on none of each other's results, so they go to Postgres
    // together (one round trip, in the order asked, all in this transaction); an error in one
    // still rolls back the whole change.
    await Promise.all([
      isTransition(change)
        ? appendEvent(tx, change, now, reversed ? { forwardedAmountUsdc: row.forwarded } : {})
        : undefined,
      newlyPaid ? markOrderPaid(tx, change.orderId, after.paymentTxHash, now) : undefined,
      // Note: the receipt is queued with the payment it confirms (sent by the mail dispatcher).
      newlyPaid ? enqueuePaidMails(tx, change.orderId, now) : undefined,
      reversed ? markOrderReversed(tx, change.orderId, now) : undefined,
      // Note: a shortfall is told the moment it is seen, so it is settled the same day.
      underpaid(after) && !underpaid(before)
        ? enqueueShortfall(tx, change.orderId, now)
        : undefined,
      // Note: delivered at commit, so the payment page is pushed exactly what was stored.
      noticePaymentChange(tx, change.orderId),
    ]);
    // Note: an excess held for the payer that went with the payment: nobody is asked to claim it.
    if (reversed) {
      const left = after.detected - parseUsdc(row.forwarded);
      await cancelUnsentDepositRefunds(tx, change.walletId, left > 0n ? left : 0n, now);
    }
    // Note: after the order's update, whose state the webhooks' payloads carry.
    await enqueueOrderEvents(tx, change.walletId, eventsForTransition(before, after), now);
    return true;
  });
}

/** The wallet of an underpaid order its merchant accepts as paid, as the caller locked it. */
export interface AcceptedWallet {
  id: string;
  orderId: string;
  expectedAmountUsdc: string;
  receivedAmountUsdc: string;
  depositTxHash: string | null;
}

/**
 * Records a merchant's acceptance of an underpaid payment, through the same steps as a payment
 * that reached its amount: the wallet is received with the exception accepted_underpaid, held
 * from now on to what arrived (a later top-up is the payer's excess, refunded to them), and its
 * window closes now; the order is paid (stock committed), the shortfall is in the payment event,
 * the receipt, the merchant's notice and `order.paid` are queued, and the forwarding of what
 * arrived is due at once. False when the order was not pending (nothing is
 * written). The caller holds the wallet's lock and has checked that it is underpaid.
 */
export async function recordAcceptedUnderpaid(
  tx: Transaction,
  wallet: AcceptedWallet,
  now: Date,
): Promise<boolean> {
  const paid = await tx
    .update(orders)
    .set({ status: 'paid', paymentTxHash: wallet.depositTxHash, updatedAt: now })
    .where(and(eq(orders.id, wallet.orderId), eq(orders.status, 'pending')))
    .returning({ id: orders.id });
  if (paid.length === 0) return false;
  await decrementInventoryForPaidOrder(tx, wallet.orderId);
  const received: Usdc = parseUsdc(wallet.receivedAmountUsdc);
  await tx
    .update(paymentWallets)
    .set({
      status: 'received',
      exception: 'accepted_underpaid',
      acceptedAmountUsdc: formatUsdcFull(received),
      paymentReceivedAt: now,
      expiredAt: sql`least(${paymentWallets.expiredAt}, ${now.toISOString()}::timestamptz)`,
      // Note: due now, even if an earlier failure had scheduled it later.
      forwardingNextAttemptAt: null,
    })
    .where(eq(paymentWallets.id, wallet.id));
  await tx.insert(paymentEvents).values({
    walletId: wallet.id,
    orderId: wallet.orderId,
    fromStatus: 'waiting',
    toStatus: 'received',
    exception: 'accepted_underpaid',
    receivedAmountUsdc: formatUsdcFull(received),
    details: {
      acceptedUnderpaid: true,
      shortfall: formatUsdcFull(parseUsdc(wallet.expectedAmountUsdc) - received),
    },
    createdAt: now,
  });
  await enqueuePaidMails(tx, wallet.orderId, now);
  await enqueueOrderEvents(tx, wallet.id, ['order.paid'], now);
  await noticePaymentChange(tx, wallet.orderId);
  return true;
}

async function appendEvent(
  tx: Transaction,
  change: WalletChange,
  now: Date,
  extra: Record<string, string> = {},
): Promise<void> {
  const { before, after } = change;
  await tx.insert(paymentEvents).values({
    walletId: change.walletId,
    orderId: change.orderId,
    fromStatus: before.state,
    toStatus: after.state,
    exception: after.exception,
    receivedAmountUsdc: formatUsdcFull(after.received),
    details: {
      detectedAmountUsdc: formatUsdcFull(after.detected),
      receivedAmountUsdc: formatUsdcFull(after.received),
      paymentTxHash: after.paymentTxHash,
      headBlock: String(change.headBlock),
      // Note: on a reversal, what had already been forwarded for it is the platform's loss.
      ...extra,
    },
    createdAt: now,
  });
}

/**
 * pending → paid with the shopper's deposit transaction (or reversed → paid when a reversed payment
 * reached depth again); a no-op for an order already moved on.
 */
async function markOrderPaid(
  tx: Transaction,
  orderId: string,
  paymentTxHash: string | null,
  now: Date,
): Promise<void> {
  const paid = await tx
    .update(orders)
    .set({ status: 'paid', paymentTxHash, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning({ id: orders.id });
  // Note: an order that was pending is not reversed: nothing more to look at.
  if (paid.length > 0) {
    await decrementInventoryForPaidOrder(tx, orderId);
    return;
  }
  // Note: a reversed order paid again gets back the status the merchant had moved it to
  // (processing, shipped…), so it is never shipped twice.
  await tx
    .update(orders)
    .set({
      status: sql`coalesce(${orders.statusBeforeReversal}, 'paid')`,
      statusBeforeReversal: null,
      paymentTxHash,
      updatedAt: now,
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'reversed')));
}

/** Any paid status → reversed: the payment is gone, the merchant must not ship. */
async function markOrderReversed(tx: Transaction, orderId: string, now: Date): Promise<void> {
  // Note: the status it had (paid, processing, shipped…) is kept for when the payment returns.
  await tx
    .update(orders)
    .set({
      status: 'reversed',
      statusBeforeReversal: sql`${orders.status}`,
      updatedAt: now,
    })
    .where(and(eq(orders.id, orderId), notInArray(orders.status, ['pending', 'reversed'])));
}
