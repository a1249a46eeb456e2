// Postgres side of refunds from a deposit address: what a wallet holds for the payer, the excess of
// an overpaid order reserved for them (with its claim mail and `order.refund_requested`), a ready
// refund planned as a round with one leg 'refund' (written before anything is signed), and the
// round recorded with the refund and its `order.refunded` webhook in ONE transaction.
import {
  formatUsdcFull,
  isLinkOrder,
  type OrderSource,
  parseUsdc,
  paymentPhase,
  type Usdc,
  type WebhookRefund,
} from '@store/shared';
import { and, desc, eq, inArray, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Address, formatEther } from 'viem';
import type { Database, Executor } from '../db/client.ts';
import { forwardingTransfers, orders, paymentWallets, refunds } from '../db/schema.ts';
import { claimTokenHash, newClaimToken } from '../keys/claim-tokens.ts';
import { enqueueRefundClaimMail } from '../mail/outbox.ts';
import { enqueueOrderEvents } from '../webhooks/outbox.ts';
import type { ForwardableWallet } from './forwarding-plan.ts';
import { excessDue } from './forwarding-plan.ts';
import type { LegRow, MinedLeg, WalletRow } from './forwarding-store.ts';
import { oversoldRefundAmount } from './oversold.ts';
import { payerOfWallet } from './refund-payer.ts';

/** Refund statuses whose money is still on the deposit address, reserved for the payer. */
export const HELD_REFUND_STATUSES = ['awaiting_address', 'ready', 'sending', 'failed'] as const;

/** A refund row. */
export type RefundRow = typeof refunds.$inferSelect;

/** What the rules need besides the wallet row: held, sent to the merchant, accepted. */
export interface RefundFigures {
  held: Usdc;
  merchantForwarded: Usdc;
  /** A universal link's order (no merchant decides on an underpaid one). */
  linkOrder: boolean;
  /** The merchant refunded this underpaid order from its deposit address: it is decided. */
  declined: boolean;
  /** The order was paid for units out of stock (their refund may be due, `reserveOversold`). */
  oversold: boolean;
  /** A deposit refund waits, its address known, for its round (`planRefundRound`). */
  refundReady: boolean;
}

/** SQL: the base units deposit refunds hold for the payer on the wallet `walletId` (HELD_REFUND_STATUSES). */
export function heldSql(walletId: string | SQLWrapper): SQL<string> {
  return sql`coalesce((select sum(amount) from refunds where wallet_id = ${walletId}
    and source = 'deposit' and status in ('awaiting_address', 'ready', 'sending', 'failed')), 0)`;
}

/** SQL: the base units the wallet's confirmed rounds sent to the merchant and the treasury. */
export function merchantForwardedSql(walletId: string | SQLWrapper): SQL<string> {
  return sql`coalesce((select sum(value) from forwarding_transfers where wallet_id = ${walletId}
    and leg in ('merchant', 'fee') and status = 'confirmed'), 0)`;
}

/** The wallet's figures, read through `tx` (inside a transaction that locked the wallet, or not). */
export async function refundFigures(db: Executor, walletId: string): Promise<RefundFigures> {
  const [row] = await db.execute<{
    held: string;
    merchant: string;
    order_source: OrderSource | null;
    declined: boolean;
    oversold: boolean;
    refund_ready: boolean;
  }>(
    sql`select
      ${heldSql(walletId)}::text as held,
      ${merchantForwardedSql(walletId)}::text as merchant,
      o.source as order_source,
      exists (select 1 from refunds where wallet_id = ${walletId} and source = 'deposit'
        and reason = 'underpaid' and status <> 'canceled') as declined,
      coalesce(jsonb_array_length(o.stock_shortfall) > 0, false) as oversold,
      exists (select 1 from refunds where wallet_id = ${walletId} and source = 'deposit'
        and status = 'ready') as refund_ready
    from payment_wallets w join orders o on o.id = w.order_id where w.id = ${walletId}`,
  );
  return {
    held: BigInt(row?.held ?? '0'),
    merchantForwarded: BigInt(row?.merchant ?? '0'),
    // Note: a universal link's order waits for no merchant's decision: what arrived goes on at
    // the window's end, as it always did.
    linkOrder: row?.order_source ? isLinkOrder(row.order_source) : false,
    declined: row?.declined === true,
    oversold: row?.oversold === true,
    refundReady: row?.refund_ready === true,
  };
}

/** The wallet as the forwarding rules read it, with its refund figures. */
export function forwardableOf(
  wallet: Pick<
    WalletRow,
    | 'status'
    | 'exception'
    | 'expiredAt'
    | 'receivedAmountUsdc'
    | 'forwardedAmountUsdc'
    | 'acceptedAmountUsdc'
    | 'expectedAmountUsdc'
  >,
  figures: Pick<RefundFigures, 'held' | 'merchantForwarded' | 'linkOrder' | 'declined'>,
): ForwardableWallet {
  const phase = paymentPhase(wallet.status, wallet.exception);
  return {
    phase,
    expiredAt: wallet.expiredAt,
    receivedAmount: parseUsdc(wallet.receivedAmountUsdc),
    forwardedAmount: parseUsdc(wallet.forwardedAmountUsdc),
    // Note: a payment its merchant accepted short is held to what was accepted: beyond it is the
    // payer's excess.
    expectedAmount: parseUsdc(wallet.acceptedAmountUsdc ?? wallet.expectedAmountUsdc),
    heldAmount: figures.held,
    merchantForwardedAmount: figures.merchantForwarded,
    // Note: a universal link's underpaid order waits for no merchant: what arrived goes on at
    // its window's end.
    accepted: phase === 'underpaid' && figures.linkOrder,
    declined: figures.declined,
  };
}

/** A refund as the webhooks and the API report it. */
export function refundSummary(refund: RefundRow): WebhookRefund {
  return {
    id: refund.id,
    source: refund.source,
    reason: refund.reason as WebhookRefund['reason'],
    amount: formatUsdcFull(BigInt(refund.amount)),
    status: refund.status,
    toAddress: refund.toAddress,
    txHash: refund.txHash,
  };
}

/** Locks a wallet row for the rest of the transaction; undefined when it is gone. */
export async function lockWallet(tx: Executor, walletId: string): Promise<WalletRow | undefined> {
  const [wallet] = await tx
    .select()
    .from(paymentWallets)
    .where(eq(paymentWallets.id, walletId))
    .for('update');
  return wallet;
}

/**
 * Withdraws refunds from a deposit address whose payment a reorg took away (its wallet is
 * reversed), as far as the address no longer covers them: what they were to return is gone, and a
 * payer must not be asked to claim it. `available` is what is still there for refunds (seen on the
 * chain less what was forwarded). Only refunds with nothing on its way are withdrawn, newest
 * first: awaiting an address, or ready but in no forwarding round yet (a leg once planned follows
 * the forwarding's own reorg path). Returns how many were withdrawn. Note: if the payment is mined
 * again, the wallet is paid again and its excess (or oversold units) is reserved anew.
 */
export async function cancelUnsentDepositRefunds(
  tx: Executor,
  walletId: string,
  available: Usdc,
  now: Date,
): Promise<number> {
  const open = await tx
    .select({
      id: refunds.id,
      amount: refunds.amount,
      status: refunds.status,
      round: refunds.round,
    })
    .from(refunds)
    .where(
      and(
        eq(refunds.walletId, walletId),
        eq(refunds.source, 'deposit'),
        inArray(refunds.status, ['awaiting_address', 'ready', 'sending', 'failed']),
      ),
    )
    .orderBy(desc(refunds.createdAt), desc(refunds.id))
    .for('update');
  let held = open.reduce((sum, refund) => sum + BigInt(refund.amount), 0n);
  const withdrawn: string[] = [];
  for (const refund of open) {
    if (held <= available) break;
    const unsent =
      refund.status === 'awaiting_address' || (refund.status === 'ready' && refund.round === null);
    if (!unsent) continue;
    withdrawn.push(refund.id);
    held -= BigInt(refund.amount);
  }
  if (withdrawn.length === 0) return 0;
  await tx
    .update(refunds)
    .set({
      status: 'canceled',
      lastError: 'A chain reorganization took the payment away',
      completedAt: now,
    })
    .where(inArray(refunds.id, withdrawn));
  return withdrawn.length;
}

/**
 * Opens a refund for the payer (from the deposit address, or `source` 'merchant': from the payout
 * wallet) in one transaction with its claim mail (every refund mails the payer) and
 * `order.refund_requested`: prefilled with the address that paid (refund-payer.ts). With `payer`
 * (known for certain: the signer of the authorization that paid) the refund is ready for it at
 * once, with no claim link or mail.
 */
export async function openDepositRefund(
  tx: Executor,
  wallet: WalletRow,
  refund: { reason: string; amount: Usdc; source?: 'deposit' | 'merchant'; payer?: Address },
  now: Date,
): Promise<RefundRow> {
  const id = crypto.randomUUID();
  const known = refund.payer;
  const token = known ? undefined : newClaimToken();
  const payer = known ?? (await payerOfWallet(tx, wallet));
  const [row] = await tx
    .insert(refunds)
    .values({
      id,
      orderId: wallet.orderId,
      walletId: wallet.id,
      source: refund.source ?? 'deposit',
      reason: refund.reason,
      amount: refund.amount.toString(),
      suggestedAddress: payer,
      ...(token
        ? { status: 'awaiting_address', claimTokenHash: claimTokenHash(token) }
        : { status: 'ready', toAddress: known, claimedAt: now }),
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('the refund was not inserted');
  const [order] = token
    ? await tx
        .select({ email: orders.customerEmail })
        .from(orders)
        .where(eq(orders.id, wallet.orderId))
    : [];
  if (token && order?.email)
    await enqueueRefundClaimMail(
      tx,
      { orderId: wallet.orderId, refundId: id, to: order.email, token },
      now,
    );
  await enqueueOrderEvents(
    tx,
    wallet.id,
    ['order.refund_requested'],
    now,
    undefined,
    refundSummary(row),
  );
  return row;
}

/**
 * Reserves the excess of a paid order for the payer (an excess refund awaiting their address),
 * from the wallet as it is under its row lock; false when there is none to reserve.
 */
export async function reserveExcess(db: Database, walletId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, walletId);
    if (!wallet) return false;
    const figures = await refundFigures(tx, wallet.id);
    const excess = excessDue(forwardableOf(wallet, figures));
    if (excess <= 0n) return false;
    // Note: a top-up of an order its merchant refunded as underpaid goes back the same way.
    const reason = figures.declined ? 'underpaid' : 'excess';
    await openDepositRefund(tx, wallet, { reason, amount: excess }, now);
    return true;
  });
}

/**
 * Holds what an oversold order could not supply for its payer (a refund 'oversold' awaiting their
 * address), once per wallet, under its row lock; false when there is none (or it exists already).
 * Never more than is on the address and neither forwarded nor held.
 */
export async function reserveOversold(db: Database, walletId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, walletId);
    if (!wallet) return false;
    const [order] = await tx
      .select({
        items: orders.items,
        stockShortfall: orders.stockShortfall,
        subtotalUsdc: orders.subtotalUsdc,
        discountUsdc: orders.discountUsdc,
        shippingUsdc: orders.shippingUsdc,
        taxUsdc: orders.taxUsdc,
        totalUsdc: orders.totalUsdc,
      })
      .from(orders)
      .where(eq(orders.id, wallet.orderId));
    if (!order?.stockShortfall?.length) return false;
    const [opened] = await tx
      .select({ id: refunds.id })
      .from(refunds)
      // Note: one withdrawn by a reversal does not count: the payment mined again owes it anew.
      .where(
        and(
          eq(refunds.walletId, wallet.id),
          eq(refunds.reason, 'oversold'),
          ne(refunds.status, 'canceled'),
        ),
      )
      .limit(1);
    if (opened) return false;
    const figures = await refundFigures(tx, wallet.id);
    const free =
      parseUsdc(wallet.receivedAmountUsdc) - parseUsdc(wallet.forwardedAmountUsdc) - figures.held;
    // Note: never more than is free on the address (bigints: no Math.min).
    let amount = oversoldRefundAmount(order);
    if (free < amount) amount = free;
    if (amount <= 0n) return false;
    await openDepositRefund(tx, wallet, { reason: 'oversold', amount }, now);
    return true;
  });
}

/**
 * Plans the next ready refund of the wallet as round `max + 1` with one EIP-3009 leg, in one
 * transaction with the refund turning `sending` (its round recorded): the address the leg pays is
 * the one the refund held when it was taken. Undefined when no refund is ready.
 */
export async function planRefundRound(
  db: Database,
  wallet: WalletRow,
  from: `0x${string}`,
  nonceOf: (round: number) => `0x${string}`,
): Promise<LegRow[] | undefined> {
  return db.transaction(async (tx) => {
    const locked = await lockWallet(tx, wallet.id);
    if (!locked) return undefined;
    const [ready] = await tx
      .select()
      .from(refunds)
      .where(
        and(
          eq(refunds.walletId, wallet.id),
          eq(refunds.source, 'deposit'),
          eq(refunds.status, 'ready'),
        ),
      )
      .orderBy(refunds.createdAt)
      .limit(1)
      .for('update');
    if (!ready?.toAddress) return undefined;
    const [last] = await tx.execute<{ round: number | null }>(
      sql`select max(round)::int as round from forwarding_transfers where wallet_id = ${wallet.id}`,
    );
    const round = (last?.round ?? 0) + 1;
    await tx
      .update(refunds)
      .set({ status: 'sending', round, lastError: null })
      .where(eq(refunds.id, ready.id));
    const legs = await tx
      .insert(forwardingTransfers)
      .values({
        walletId: wallet.id,
        round,
        leg: 'refund',
        mode: 'eip3009',
        fromAddress: from,
        toAddress: ready.toAddress,
        value: ready.amount,
        authorizationNonce: nonceOf(round),
      })
      .returning();
    await tx
      .update(paymentWallets)
      .set({ forwardingStatus: 'forwarding' })
      .where(eq(paymentWallets.id, wallet.id));
    return legs;
  });
}

/**
 * Records a refund round at depth in one transaction: the leg confirmed, the wallet's forwarded
 * amount (everything that left the address), the refund `refunded` with its transaction, and
 * `order.refunded`. Note: conditional on the forwarded amount read before, so it counts once.
 */
export async function completeRefundRound(
  db: Database,
  wallet: WalletRow,
  mined: MinedLeg,
  now: Date,
): Promise<boolean> {
  const value = BigInt(mined.leg.value);
  const after = parseUsdc(wallet.forwardedAmountUsdc) + value;
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(paymentWallets)
      .set({
        forwardedAmountUsdc: formatUsdcFull(after),
        actualGasUsed: sql`${paymentWallets.actualGasUsed} + ${formatEther(mined.gasCostWei)}::numeric`,
        forwardingStatus: 'completed',
        forwardingError: null,
        forwardingNextAttemptAt: null,
      })
      .where(
        and(
          eq(paymentWallets.id, wallet.id),
          eq(paymentWallets.forwardedAmountUsdc, wallet.forwardedAmountUsdc),
        ),
      )
      .returning({ id: paymentWallets.id });
    if (updated.length === 0) return false;
    await tx
      .update(forwardingTransfers)
      .set({
        status: 'confirmed',
        txHash: mined.txHash,
        blockNumber: mined.blockNumber.toString(),
        gasCostWei: mined.gasCostWei.toString(),
        confirmedAt: now,
      })
      .where(eq(forwardingTransfers.id, mined.leg.id));
    const ofRound = and(eq(refunds.walletId, wallet.id), eq(refunds.round, mined.leg.round));
    const [refund] = await tx
      .update(refunds)
      .set({
        status: 'refunded',
        txHash: mined.txHash,
        blockNumber: mined.blockNumber.toString(),
        completedAt: now,
        lastError: null,
      })
      .where(and(ofRound, ne(refunds.status, 'refunded')))
      .returning();
    // Note: a leg a deep reorg reopened and sent again is recorded again: its refund keeps its
    // status and gets the new transaction, and the payer's `order.refunded` is not sent twice.
    if (!refund)
      await tx
        .update(refunds)
        .set({ txHash: mined.txHash, blockNumber: mined.blockNumber.toString() })
        .where(ofRound);
    else
      await enqueueOrderEvents(
        tx,
        wallet.id,
        ['order.refunded'],
        now,
        undefined,
        refundSummary(refund),
      );
    return true;
  });
}

/** Notes a refund's failure for the merchant (the wallet's forwarding keeps the count). */
export async function noteRefundError(
  db: Database,
  walletId: string,
  error: string,
): Promise<void> {
  await db
    .update(refunds)
    .set({ lastError: error.slice(0, 1000) })
    .where(and(eq(refunds.walletId, walletId), eq(refunds.status, 'sending')));
}
