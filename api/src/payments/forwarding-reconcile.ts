// Reconciliation of forwarding with the chain: every leg recorded as confirmed in the last while
// is looked up again on the chain. A leg whose transaction a reorg deeper than the depth took away,
// and whose authorization is unused again, is reopened: the wallet's forwarded amount goes back
// down and the forwarding loop sends the leg again under the same EIP-3009 nonce (so it can still
// pay only once). What the database says was forwarded is then what left the address on chain.
import { formatUsdcFull, parseUsdc } from '@store/shared';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Hash, Hex } from 'viem';
import type { Database } from '../db/client.ts';
import { forwardingTransfers, paymentEvents, paymentWallets } from '../db/schema.ts';
import { paidLeg } from './forwarding-batch.ts';
import { isAuthorizationUsed, receiptOf } from './forwarding-chain.ts';
import type { ForwardingContext } from './forwarding-context.ts';
import type { LegRow } from './forwarding-store.ts';

/** How far back confirmed legs are checked again (far beyond any reorg Base has seen). */
export const RECONCILE_WINDOW_MS = 30 * 60 * 1000;

/** Legs checked at once. */
const CONCURRENCY = 8;

/**
 * Checks the recently confirmed legs; returns how many were reopened. Note: a leg is reopened
 * only when it was already seen gone by an earlier pass (`suspects`, kept by the caller between
 * passes): one answer of a lagging or load-balanced node must not take a paid leg back.
 */
export async function reconcileForwarding(
  ctx: Pick<ForwardingContext, 'db' | 'chain'>,
  now: Date,
  suspects: Set<string> = new Set(),
): Promise<number> {
  const since = new Date(now.getTime() - RECONCILE_WINDOW_MS);
  const legs = await ctx.db
    .select()
    .from(forwardingTransfers)
    .where(
      and(
        eq(forwardingTransfers.status, 'confirmed'),
        eq(forwardingTransfers.mode, 'eip3009'),
        gt(forwardingTransfers.confirmedAt, since),
      ),
    );
  let reopened = 0;
  for (let i = 0; i < legs.length; i += CONCURRENCY) {
    const batch = legs.slice(i, i + CONCURRENCY);
    const gone = await Promise.all(batch.map((leg) => leftTheChain(ctx, leg)));
    for (const [j, leg] of batch.entries()) {
      if (!gone[j]) {
        suspects.delete(leg.id);
        continue;
      }
      if (!suspects.has(leg.id)) {
        suspects.add(leg.id);
        continue;
      }
      suspects.delete(leg.id);
      if (await reopenLeg(ctx.db, leg, now)) reopened += 1;
    }
  }
  return reopened;
}

/** True when the leg's transaction is no longer on chain and its authorization is unused. */
async function leftTheChain(ctx: Pick<ForwardingContext, 'chain'>, leg: LegRow): Promise<boolean> {
  if (!leg.txHash || !leg.authorizationNonce) return false;
  const receipt = await receiptOf(ctx.chain.client, leg.txHash as Hash);
  // Note: a batch's receipt counts for this leg only if it holds the leg's event.
  if (receipt && paidLeg(receipt, ctx.chain.token, leg)) return false;
  // Note: another transaction may carry the same authorization (a resubmission): still paid.
  const used = await isAuthorizationUsed(
    ctx.chain,
    leg.fromAddress as `0x${string}`,
    leg.authorizationNonce as Hex,
  );
  return !used;
}

/**
 * Reopens a confirmed leg in one transaction: the leg back to `sent` (its signed transaction is
 * broadcast again, or re-signed, by the next forwarding pass), the wallet's forwarded amount less
 * its value, and an event for the record. False when another worker reopened it first.
 */
async function reopenLeg(db: Database, leg: LegRow, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const legs = await tx
      .update(forwardingTransfers)
      .set({ status: 'sent', confirmedAt: null, blockNumber: null })
      .where(and(eq(forwardingTransfers.id, leg.id), eq(forwardingTransfers.status, 'confirmed')))
      .returning({ id: forwardingTransfers.id });
    if (legs.length === 0) return false;
    const [wallet] = await tx
      .update(paymentWallets)
      .set({
        forwardedAmountUsdc: sql`${paymentWallets.forwardedAmountUsdc} - ${formatUsdcFull(BigInt(leg.value))}::numeric`,
        forwardingStatus: 'forwarding',
      })
      .where(eq(paymentWallets.id, leg.walletId))
      .returning({
        orderId: paymentWallets.orderId,
        status: paymentWallets.status,
        exception: paymentWallets.exception,
        received: paymentWallets.receivedAmountUsdc,
      });
    if (wallet) {
      await tx.insert(paymentEvents).values({
        walletId: leg.walletId,
        orderId: wallet.orderId,
        fromStatus: wallet.status,
        toStatus: wallet.status,
        exception: wallet.exception,
        receivedAmountUsdc: formatUsdcFull(parseUsdc(wallet.received)),
        details: {
          forwardingReopened: true,
          leg: leg.leg,
          round: String(leg.round),
          droppedTxHash: leg.txHash,
          value: leg.value,
        },
        createdAt: now,
      });
    }
    return true;
  });
}
