// Refunds of an order: the merchant's view (what arrived, is missing, extra, held, refunded), the
// merchant's decisions on an underpaid order whose window closed (accept as paid: forward what
// arrived; or refund it from the deposit address), and the payer's claim by its link's token.
// The worker sends what is ready (api/src/payments/refund-store.ts).
import {
  formatOrderNumber,
  formatUsdcFull,
  isRevenueStatus,
  type OrderRefunds,
  parseUsdc,
  paymentPhase,
  REFUND_MESSAGES,
  type Refund,
  type RefundClaim,
  type RefundReason,
  type Usdc,
} from '@store/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { orders, paymentWallets, refunds, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { isBuyerToken } from '../../http/buyer-token.ts';
import { AppError } from '../../http/errors.ts';
import {
  CLAIM_TOKEN_PATTERN,
  claimPathOf,
  claimTokenHash,
  isPageClaimMac,
  PAGE_CLAIM_TOKEN_PATTERN,
} from '../../keys/claim-tokens.ts';
import { isForwarded, walletForwarded } from '../../payments/forwarded.ts';
import { recordAcceptedUnderpaid } from '../../payments/record.ts';
import { x402SignerOfWallet } from '../../payments/refund-payer.ts';
import {
  lockWallet,
  openDepositRefund,
  type RefundRow,
  refundFigures,
} from '../../payments/refund-store.ts';
import { type AuditActor, changed, recordAudit } from '../audit/record.ts';
import { getOwnOrderOrThrow } from '../orders/service.ts';
import { authorizeStore, type Caller, requireRefund } from '../team/access.ts';

/** Texts of the refund errors. */
export const REFUND_ERRORS = {
  notFound: 'Order not found',
  claimNotFound: 'This refund link is not valid',
  noWallet: 'This order has no deposit address',
  notUnderpaid: 'Only an underpaid order can be accepted as paid',
  notConfirmed:
    'What arrived for this order is not confirmed yet; decide once it has the confirmations it needs',
  alreadyDecided: 'A refund of this order is already under way',
  inFlight: 'A transaction of this order is on its way; try again in a minute',
  nothingToRefund: 'Nothing of this order is left on its deposit address to refund',
  paidOrder:
    'This order is paid: its money was forwarded to your payout wallet; refund it from there',
  notForwarded:
    'This order is not forwarded to your payout wallet yet; refund it once forwarding is complete',
  tooMuch: (refundable: string) => `At most ${refundable} USDC of this order is left to refund`,
  refundNotFound: 'Refund not found',
  notSendable: 'Only a merchant refund whose address the payer confirmed can be sent',
  claimed: 'This refund already has its address',
} as const;

function usdc(amount: Usdc): string {
  return formatUsdcFull(amount > 0n ? amount : 0n);
}

/** A refund row as the API answers it. */
function refundView(row: RefundRow): Refund {
  return {
    id: row.id,
    orderId: row.orderId,
    source: row.source,
    reason: row.reason as RefundReason,
    amount: formatUsdcFull(BigInt(row.amount)),
    status: row.status,
    suggestedAddress: row.suggestedAddress,
    toAddress: row.toAddress,
    txHash: row.txHash,
    blockNumber: row.blockNumber,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    claimedAt: row.claimedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

async function walletOfOrder(db: Database, orderId: string) {
  const [wallet] = await db
    .select()
    .from(paymentWallets)
    .where(eq(paymentWallets.orderId, orderId))
    .limit(1);
  return wallet;
}

/** Whether the wallet has a transaction on its way (an open round): nothing is decided meanwhile. */
async function hasOpenRound(db: Executor, walletId: string) {
  const [row] = await db.execute<{ open: boolean }>(
    sql`select exists (select 1 from forwarding_transfers where wallet_id = ${walletId}
      and status not in ('confirmed', 'canceled')) as open`,
  );
  return row?.open === true;
}

/** The merchant's view of an order's money and refunds (owner only: 404 otherwise). */
export async function listOrderRefunds(
  db: Database,
  caller: Caller,
  orderId: string,
): Promise<OrderRefunds> {
  const order = await getOwnOrderOrThrow(db, caller, orderId, 'read');
  const wallet = await walletOfOrder(db, order.id);
  const rows = await db
    .select()
    .from(refunds)
    .where(eq(refunds.orderId, order.id))
    .orderBy(asc(refunds.createdAt));
  const expected = parseUsdc(order.totalUsdc);
  if (!wallet)
    return {
      orderId: order.id,
      paymentStatus: null,
      paymentException: null,
      expectedAmount: usdc(expected),
      receivedAmount: usdc(0n),
      missingAmount: usdc(expected),
      extraAmount: usdc(0n),
      forwardedAmount: usdc(0n),
      onDepositAmount: usdc(0n),
      canAcceptUnderpaid: false,
      canRefundDeposit: false,
      refundableFromPayout: usdc(0n),
      payoutAddress: null,
      refunds: rows.map(refundView),
    };
  const figures = await refundFigures(db, wallet.id);
  const received = parseUsdc(wallet.receivedAmountUsdc);
  const forwarded = parseUsdc(wallet.forwardedAmountUsdc);
  const free = received - forwarded - figures.held;
  // Note: an underpaid order is decided the day it happens (deciding closes its window), once
  // what arrived is confirmed; refunding it decides it for good.
  const decidable =
    wallet.exception === 'underpaid' &&
    !isRevenueStatus(order.status) &&
    !figures.declined &&
    wallet.detectedAmountUsdc === wallet.receivedAmountUsdc;
  return {
    orderId: order.id,
    paymentStatus: wallet.status,
    paymentException: wallet.exception,
    expectedAmount: usdc(expected),
    receivedAmount: usdc(received),
    missingAmount: usdc(expected - received),
    extraAmount: usdc(received - expected),
    forwardedAmount: usdc(forwarded),
    onDepositAmount: usdc(free),
    canAcceptUnderpaid: decidable && free > 0n,
    canRefundDeposit: free > 0n && (decidable || isRefundableFromDeposit(wallet, order.status)),
    refundableFromPayout: usdc(
      isForwarded(wallet, figures) && isRevenueStatus(order.status)
        ? figures.merchantForwarded -
            rows
              .filter((r) => r.source === 'merchant' && r.status !== 'canceled')
              .reduce((sum, r) => sum + BigInt(r.amount), 0n)
        : 0n,
    ),
    payoutAddress: wallet.storePaymentAddress,
    refunds: rows.map(refundView),
  };
}

/** An order whose money is not the merchant's: underpaid, or expired with something on its address. */
function isRefundableFromDeposit(
  wallet: typeof paymentWallets.$inferSelect,
  orderStatus: string,
): boolean {
  if (isRevenueStatus(orderStatus)) return false;
  return wallet.status === 'expired' || wallet.exception === 'underpaid';
}

/**
 * Accepts an underpaid order as paid, the day it happens: its window closes now, the order becomes
 * paid (with its receipt, the merchant's notice and `order.paid`, the shortfall in the payment
 * event) and the worker forwards what arrived (payments/record.ts recordAcceptedUnderpaid).
 * 409 for an order that is not underpaid, or once a refund is under way.
 */
export async function acceptUnderpaid(
  db: Database,
  caller: Caller,
  orderId: string,
  actor: AuditActor,
  now = new Date(),
): Promise<OrderRefunds> {
  const { order, member } = await orderToRefund(db, caller, orderId);
  const listed = await walletOfOrder(db, order.id);
  if (!listed) throw new AppError('invalid_state', REFUND_ERRORS.noWallet);
  await db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, listed.id);
    if (!wallet || paymentPhase(wallet.status, wallet.exception) !== 'underpaid')
      throw new AppError('invalid_state', REFUND_ERRORS.notUnderpaid);
    const figures = await refundFigures(tx, wallet.id);
    if (figures.held > 0n || figures.declined)
      throw new AppError('invalid_state', REFUND_ERRORS.alreadyDecided);
    const received = parseUsdc(wallet.receivedAmountUsdc);
    if (received <= 0n || parseUsdc(wallet.detectedAmountUsdc) !== received)
      throw new AppError('invalid_state', REFUND_ERRORS.notConfirmed);
    // Note: what the store forgoes (the shortfall) is what a staff member's limit caps.
    const shortfall = parseUsdc(order.totalUsdc) - received;
    requireRefund(member, formatUsdcFull(shortfall > 0n ? shortfall : 0n));
    await recordAcceptedUnderpaid(tx, wallet, now);
    await recordAudit(tx, actor, {
      action: 'order.underpaid_accepted',
      accountId: member.storeOwnerId,
      storeId: order.storeId,
      subjectId: order.id,
      changes: {
        ...changed('status', order.status, 'paid'),
        ...changed('paymentException', wallet.exception, 'accepted_underpaid'),
        ...changed('receivedUsdc', null, formatUsdcFull(received)),
      },
    });
  });
  return listOrderRefunds(db, caller, order.id);
}

/**
 * The order `orderId` of the caller's stores and its membership there, when its role may refund
 * (404 for anyone else's order, 403 for a role without refunds).
 */
async function orderToRefund(db: Database, caller: Caller, orderId: string) {
  const order = await getOwnOrderOrThrow(db, caller, orderId, 'refund');
  const member = await authorizeStore(db, caller, order.storeId ?? '', 'refund');
  return { order, member };
}

/**
 * The merchant's refund of an order: a paid order from the payout wallet (`amount`, or all that is
 * left), an unpaid one (underpaid once its window closed, or expired) from its deposit address.
 */
export async function createRefund(
  db: Database,
  caller: Caller,
  orderId: string,
  amount: string | undefined,
  actor: AuditActor,
  now = new Date(),
): Promise<OrderRefunds> {
  const order = await getOwnOrderOrThrow(db, caller, orderId, 'refund');
  if (isRevenueStatus(order.status))
    return refundFromPayout(db, caller, orderId, amount, actor, now);
  return refundFromDeposit(db, caller, orderId, actor, now);
}

/**
 * Refunds, from its deposit address, everything an unpaid order holds there (underpaid once its
 * window closed, or expired): a deposit refund awaiting the payer's address, with its claim mail
 * and `order.refund_requested`. 409 for a paid order (refund it from the payout wallet).
 */
export async function refundFromDeposit(
  db: Database,
  caller: Caller,
  orderId: string,
  actor: AuditActor,
  now = new Date(),
): Promise<OrderRefunds> {
  const { order, member } = await orderToRefund(db, caller, orderId);
  const listed = await walletOfOrder(db, order.id);
  if (!listed) throw new AppError('invalid_state', REFUND_ERRORS.noWallet);
  await db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, listed.id);
    const [current] = await tx
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, order.id));
    if (!wallet || !current) throw new AppError('not_found', REFUND_ERRORS.notFound);
    if (isRevenueStatus(current.status))
      throw new AppError('invalid_state', REFUND_ERRORS.paidOrder);
    if (wallet.exception === 'underpaid' && wallet.detectedAmountUsdc !== wallet.receivedAmountUsdc)
      throw new AppError('invalid_state', REFUND_ERRORS.notConfirmed);
    if (!isRefundableFromDeposit(wallet, current.status))
      throw new AppError('invalid_state', REFUND_ERRORS.nothingToRefund);
    if (await hasOpenRound(tx, wallet.id))
      throw new AppError('invalid_state', REFUND_ERRORS.inFlight);
    const figures = await refundFigures(tx, wallet.id);
    const free =
      parseUsdc(wallet.receivedAmountUsdc) - parseUsdc(wallet.forwardedAmountUsdc) - figures.held;
    if (free <= 0n) throw new AppError('invalid_state', REFUND_ERRORS.nothingToRefund);
    requireRefund(member, formatUsdcFull(free));
    const reason = wallet.exception === 'underpaid' ? 'underpaid' : 'expired';
    // Note: refunded the day it happens: the window closes first, so a later top-up is not taken
    // as this order's payment (it stays on the address for the payer).
    if (wallet.exception === 'underpaid') await closeWindow(tx, wallet.id, now);
    const refund = await openDepositRefund(tx, wallet, { reason, amount: free }, now);
    await recordAudit(
      tx,
      actor,
      refundCreated(member.storeOwnerId, order, refund.id, reason, free),
    );
  });
  return listOrderRefunds(db, caller, order.id);
}

/** The audit entry of a refund the merchant started. */
function refundCreated(
  ownerId: string,
  order: { id: string; storeId: string | null },
  refundId: string,
  reason: string,
  amount: Usdc,
) {
  return {
    action: 'order.refund_created' as const,
    accountId: ownerId,
    storeId: order.storeId,
    subjectId: order.id,
    changes: {
      ...changed('refundId', null, refundId),
      ...changed('reason', null, reason),
      ...changed('amountUsdc', null, formatUsdcFull(amount)),
    },
  };
}

/** Ends a wallet's payment window at `now` (kept when it ended already). */
async function closeWindow(tx: Transaction, walletId: string, now: Date): Promise<void> {
  await tx
    .update(paymentWallets)
    .set({ expiredAt: sql`least(${paymentWallets.expiredAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(paymentWallets.id, walletId));
}

/** What the merchant may still refund from the payout wallet: forwarded, less merchant refunds. */
async function merchantRefundable(tx: Transaction, walletId: string): Promise<Usdc> {
  const figures = await refundFigures(tx, walletId);
  const [row] = await tx.execute<{ refunded: string }>(
    sql`select coalesce(sum(amount), 0)::text as refunded from refunds where wallet_id = ${walletId}
      and source = 'merchant' and status <> 'canceled'`,
  );
  return figures.merchantForwarded - BigInt(row?.refunded ?? '0');
}

/**
 * A full or partial refund of a paid order whose money was forwarded: a merchant refund awaiting
 * the payer's address (claim link, mail, `order.refund_requested`); once confirmed the merchant
 * sends it from the payout wallet and the worker matches the transfer. `amount` (USDC) at most
 * what is left to refund (everything forwarded, less earlier merchant refunds); all of it when absent.
 */
export async function refundFromPayout(
  db: Database,
  caller: Caller,
  orderId: string,
  amount: string | undefined,
  actor: AuditActor,
  now = new Date(),
): Promise<OrderRefunds> {
  const { order, member } = await orderToRefund(db, caller, orderId);
  const listed = await walletOfOrder(db, order.id);
  if (!listed) throw new AppError('invalid_state', REFUND_ERRORS.noWallet);
  await db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, listed.id);
    if (!wallet) throw new AppError('not_found', REFUND_ERRORS.notFound);
    if ((await hasOpenRound(tx, wallet.id)) || !(await walletForwarded(tx, wallet)))
      throw new AppError('invalid_state', REFUND_ERRORS.notForwarded);
    const refundable = await merchantRefundable(tx, wallet.id);
    const wanted = amount === undefined ? refundable : parseUsdc(amount);
    if (refundable <= 0n) throw new AppError('invalid_state', REFUND_ERRORS.nothingToRefund);
    if (wanted > refundable)
      throw new AppError('validation_failed', REFUND_ERRORS.tooMuch(formatUsdcFull(refundable)));
    requireRefund(member, formatUsdcFull(wanted));
    // Note: an agent that paid over HTTP 402 has no claim link to follow; its signer is the payer.
    const payer = await x402SignerOfWallet(tx, wallet.id);
    const refund = await openDepositRefund(
      tx,
      wallet,
      { reason: 'merchant', amount: wanted, source: 'merchant', ...(payer ? { payer } : {}) },
      now,
    );
    await recordAudit(
      tx,
      actor,
      refundCreated(member.storeOwnerId, order, refund.id, 'merchant', wanted),
    );
  });
  return listOrderRefunds(db, caller, order.id);
}

/**
 * The merchant's browser wallet sent a merchant refund: its transaction hash is noted (the refund
 * reads `sending`) and the worker records it once the indexed transfer is at depth. 409 for any
 * other refund (not the merchant's to send, or its address not confirmed yet).
 */
export async function noteRefundSent(
  db: Database,
  caller: Caller,
  orderId: string,
  refundId: string,
  txHash: string,
  actor: AuditActor,
): Promise<OrderRefunds> {
  const { order, member } = await orderToRefund(db, caller, orderId);
  if (!isUuid(refundId)) throw new AppError('not_found', REFUND_ERRORS.refundNotFound);
  const [refund] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, refundId), eq(refunds.orderId, order.id)));
  if (!refund) throw new AppError('not_found', REFUND_ERRORS.refundNotFound);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(refunds)
      .set({ status: 'sending', txHash: txHash.toLowerCase() })
      .where(
        and(
          eq(refunds.id, refund.id),
          eq(refunds.source, 'merchant'),
          sql`${refunds.status} in ('ready', 'sending')`,
        ),
      )
      .returning({ id: refunds.id });
    if (updated.length === 0) throw new AppError('invalid_state', REFUND_ERRORS.notSendable);
    await recordAudit(tx, actor, {
      action: 'order.refund_sent',
      accountId: member.storeOwnerId,
      storeId: order.storeId,
      subjectId: order.id,
      changes: {
        ...changed('refundId', refund.id, refund.id),
        ...changed('txHash', refund.txHash, txHash.toLowerCase()),
      },
    });
  });
  return listOrderRefunds(db, caller, order.id);
}

/**
 * The refund of a claim link, and whether the link may choose the address: the emailed token may,
 * the order pages' token (the refund's id and an HMAC keyed with the order's buyer token) may not.
 */
async function refundByToken(
  db: Database,
  token: string,
): Promise<{ refund: RefundRow; addressLocked: boolean }> {
  const page = PAGE_CLAIM_TOKEN_PATTERN.exec(token);
  if (page) {
    const [refundId = '', mac = ''] = [page[1], page[2]];
    const [found] = await db
      .select({ refund: refunds, buyerToken: orders.reviewToken })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(eq(refunds.id, refundId))
      .limit(1);
    const row = found?.refund;
    if (!found || !row || !isPageClaimMac(found.buyerToken, row.id, mac))
      throw new AppError('not_found', REFUND_ERRORS.claimNotFound);
    return { refund: row, addressLocked: true };
  }
  if (!CLAIM_TOKEN_PATTERN.test(token))
    throw new AppError('not_found', REFUND_ERRORS.claimNotFound);
  const [row] = await db
    .select()
    .from(refunds)
    .where(eq(refunds.claimTokenHash, claimTokenHash(token)))
    .limit(1);
  if (!row) throw new AppError('not_found', REFUND_ERRORS.claimNotFound);
  return { refund: row, addressLocked: false };
}

/** A refund as its claim page shows it (by the link's token; 404 for any other). */
export async function getRefundClaim(
  db: Database,
  token: string,
  chainId: number,
): Promise<RefundClaim> {
  const { refund, addressLocked } = await refundByToken(db, token);
  const [row] = await db
    .select({ order: orders, storeName: stores.name })
    .from(orders)
    .leftJoin(stores, eq(stores.id, orders.storeId))
    .where(eq(orders.id, refund.orderId))
    .limit(1);
  if (!row) throw new AppError('not_found', REFUND_ERRORS.claimNotFound);
  const meta = row.order.metadata;
  return {
    orderId: row.order.id,
    orderNumber: formatOrderNumber(row.order.id),
    storeName: row.storeName ?? meta?.storeName ?? meta?.externalStoreName ?? 'Your store',
    amount: formatUsdcFull(BigInt(refund.amount)),
    reason: refund.reason as RefundReason,
    status: refund.status,
    suggestedAddress: refund.suggestedAddress,
    addressLocked,
    toAddress: refund.toAddress,
    txHash: refund.txHash,
    chainId,
  };
}

/**
 * The payer confirms where the refund goes: a wallet address (checked by the schema: format,
 * checksum, not zero) that is not one of our deposit addresses; the refund is then ready and the
 * worker sends it. 409 once an address was confirmed (it may already be on its way).
 */
export async function claimRefund(
  db: Database,
  token: string,
  address: string,
  chainId: number,
  now = new Date(),
): Promise<RefundClaim> {
  const { refund, addressLocked } = await refundByToken(db, token);
  // Note: the order pages' link (which the merchant can open too) only sends the money back where
  // it came from; the payer's emailed link may send it anywhere else.
  if (
    addressLocked &&
    (!refund.suggestedAddress || refund.suggestedAddress.toLowerCase() !== address.toLowerCase())
  )
    throw new AppError('validation_failed', REFUND_MESSAGES.addressLocked);
  const [deposit] = await db
    .select({ id: paymentWallets.id })
    .from(paymentWallets)
    .where(sql`lower(${paymentWallets.walletAddress}) = ${address.toLowerCase()}`)
    .limit(1);
  if (deposit) throw new AppError('validation_failed', REFUND_MESSAGES.deposit);
  const claimed = await db
    .update(refunds)
    .set({ status: 'ready', toAddress: getAddress(address), claimedAt: now })
    .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'awaiting_address')))
    .returning({ id: refunds.id });
  if (claimed.length === 0) throw new AppError('invalid_state', REFUND_ERRORS.claimed);
  return getRefundClaim(db, token, chainId);
}

/**
 * The refunds of an order awaiting the payer's address, with their claim links: for the shopper's
 * payment and thank-you pages, which send the order's buyer token (the checkout gave it to that
 * browser alone). 404 without the right token: the order's id alone (known to its merchant, its
 * webhook receiver, a page's referrer) opens nothing.
 */
export async function orderRefundClaims(db: Database, orderId: string, buyerToken: string) {
  if (!isUuid(orderId)) throw new AppError('not_found', REFUND_ERRORS.notFound);
  const [order] = await db
    .select({ buyerToken: orders.reviewToken })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || !isBuyerToken(order.buyerToken, buyerToken))
    throw new AppError('not_found', REFUND_ERRORS.notFound);
  const rows = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'awaiting_address')))
    .orderBy(asc(refunds.createdAt));
  return rows.map((row) => ({
    amount: formatUsdcFull(BigInt(row.amount)),
    reason: row.reason as RefundReason,
    claimPath: claimPathOf(order.buyerToken, row.id),
  }));
}
