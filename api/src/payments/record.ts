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
import { orders, paymentEvents, paymentWallets, products } from '../db/schema.ts';
import { inParallel } from '../loops/in-parallel.ts';
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
 * Runs the stock steps of the orders paid in one transaction one after another: two of them may
 * take the same product, and each must see what the one before it took and held.
 */
type StockTurn = <T>(step: () => Promise<T>) => Promise<T>;

const eachAtOnce: StockTurn = (step) => step();

function oneAfterAnother(): StockTurn {
  let last: Promise<unknown> = Promise.resolve();
  return (step) => {
    const run = last.then(step, step);
    last = run.catch(() => {});
    return run;
  };
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
  return db.transaction(async (tx) => {
    const row = await updateWallet(tx, change, now);
    if (!row) return false;
    await writeChange(tx, change, row, now, eachAtOnce);
    return true;
  });
}

/** Wallet changes recorded in one transaction at most (a pass records more in several). */
export const MAX_CHANGES_TOGETHER = 32;

/**
 * Stores several wallets' changes in one transaction, each as `recordWalletChange` would (true for
 * each one stored). Their statements go to Postgres together, stage by stage: the wallets' guarded
 * updates, then every stored change's writes; the stock of the orders they pay is taken one order
 * after another, with the products locked first in one order. When the transaction fails (one
 * change's write, a deadlock), nothing of it is kept and each change is recorded in a transaction of
 * its own, so one bad change never holds back the others; then the first failure is thrown.
 */
export async function recordWalletChanges(
  db: Database,
  changes: readonly WalletChange[],
  now: Date,
): Promise<boolean[]> {
  const stored = changes.map(isChange);
  const todo = changes.filter((_, i) => stored[i]);
  if (todo.length <= 1)
    return Promise.all(
      changes.map((change, i) => (stored[i] ? recordWalletChange(db, change, now) : false)),
    );
  try {
    const written = await db.transaction(async (tx) => {
      // Note: in the wallets' order, so two transactions that share wallets lock them alike.
      const sorted = [...todo].sort((a, b) => a.walletId.localeCompare(b.walletId));
      const rows = await Promise.all(sorted.map((change) => updateWallet(tx, change, now)));
      const kept = sorted.flatMap((change, i) => {
        const row = rows[i];
        return row ? [{ change, row }] : [];
      });
      const paying = kept.filter(({ change }) => isNewlyPaid(change));
      const withStock =
        paying.length > 1
          ? await lockProductsOf(
              tx,
              paying.map(({ change }) => change.orderId),
            )
          : new Set<string>();
      const turn = oneAfterAnother();
      await Promise.all(
        kept.map(({ change, row }) =>
          writeChange(tx, change, row, now, withStock.has(change.orderId) ? turn : eachAtOnce),
        ),
      );
      return new Set(kept.map(({ change }) => change));
    });
    return changes.map((change) => written.has(change));
  } catch {
    return inParallel(changes, RECORD_ALONE_CONCURRENCY, (change) =>
      recordWalletChange(db, change, now),
    );
  }
}

/** Changes recorded at the same time, each in its own transaction, after a group failed. */
const RECORD_ALONE_CONCURRENCY = 8;

function isNewlyPaid({ before, after }: WalletChange): boolean {
  return isPaidState(after.state) && !isPaidState(before.state);
}

/**
 * Locks the catalogue products of the orders about to be paid together, in the products' order
 * (as one order's own lines are, see payments/stock.ts), so that the group never waits on a
 * product another transaction holds while holding one that transaction waits for; the orders that
 * have any (their stock steps then run one after another).
 */
async function lockProductsOf(tx: Transaction, orderIds: readonly string[]): Promise<Set<string>> {
  const rows = await tx.execute<{ order_id: string }>(sql`
    select o.id::text as order_id
    from ${orders} o
    cross join lateral jsonb_array_elements(o.items) as item
    join ${products} p on p.id::text = item->>'productId' and p.store_id = o.store_id
    where o.id in (${sql.join(
      orderIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and o.source = 'storefront'
    order by p.id
    for update of p`);
  return new Set([...rows].map((row) => row.order_id));
}

/** The guarded update of the wallet: its row, or undefined when it is no longer what was read. */
async function updateWallet(
  tx: Transaction,
  change: WalletChange,
  now: Date,
): Promise<{ forwarded: string } | undefined> {
  const { before, after } = change;
  const newlyDetected = isPaymentDetected(after.state) && !isPaymentDetected(before.state);
  const [row] = await tx
    .update(paymentWallets)
    .set({
      status: after.state,
      exception: after.exception,
      detectedAmountUsdc: formatUsdcFull(after.detected),
      receivedAmountUsdc: formatUsdcFull(after.received),
      depositTxHash: after.paymentTxHash,
      ...(isNewlyPaid(change) ? { paymentReceivedAt: now } : {}),
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
    .returning({ forwarded: paymentWallets.forwardedAmountUsdc });
  return row;
}

/** Everything a stored change writes besides its wallet: its event, the order, mails, webhooks. */
async function writeChange(
  tx: Transaction,
  change: WalletChange,
  row: { forwarded: string },
  now: Date,
  stockTurn: StockTurn,
): Promise<void> {
  const { before, after } = change;
  const newlyPaid = isNewlyPaid(change);
  const reversed = after.state === 'reversed' && before.state !== 'reversed';
  const underpaid = (s: PaymentSnapshot) => paymentPhase(s.state, s.exception) === 'underpaid';
  // Note: the writes below depend on none of each other's results, so they go to Postgres
  // together (one round trip, in the order asked, all in this transaction); an error in one
  // still rolls back the whole change.
  await Promise.all([
    isTransition(change)
      ? appendEvent(tx, change, now, reversed ? { forwardedAmountUsdc: row.forwarded } : {})
      : undefined,
    newlyPaid
      ? stockTurn(() => markOrderPaid(tx, change.orderId, after.paymentTxHash, now))
      : undefined,
    // Note: the receipt is queued with the payment it confirms (sent by the mail dispatcher).
    newlyPaid ? enqueuePaidMails(tx, change.orderId, now) : undefined,
    reversed ? markOrderReversed(tx, change.orderId, now) : undefined,
    // Note: a shortfall is told the moment it is seen, so it is settled the same day.
    underpaid(after) && !underpaid(before) ? enqueueShortfall(tx, change.orderId, now) : undefined,
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
