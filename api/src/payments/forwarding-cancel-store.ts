// Postgres side of legs that did not pay: a leg transaction mined and reverted (its hash and gas
// kept, with an event), and legs cancelled (closed for good, with their cancellation's
// transaction and an event each), the wallet's forwarding then saying what happened.
import { formatUsdcFull, parseUsdc } from '@store/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { formatEther, type PublicClient, type TransactionReceipt } from 'viem';
import type { Database, Transaction } from '../db/client.ts';
import { forwardingTransfers, paymentEvents, paymentWallets, refunds } from '../db/schema.ts';
import { legGasCost } from './forwarding-batch.ts';
import { gasCostOf } from './forwarding-chain.ts';
import { type LegRow, openLeg, type WalletRow } from './forwarding-store.ts';

/** What the merchant and the operator read on a wallet whose legs were all cancelled. */
export const CANCELED_NOTE =
  'the payment left the chain (a reorganization took it away): its forwarding was cancelled ' +
  'on chain and nothing was forwarded; it resumes by itself if the payment is mined again';

/**
 * Records that the leg's transaction (or its call in a batch) was mined and reverted: the leg
 * reads `reverted` with that transaction, its block and gas (its share of a batch's); the gas goes
 * to the wallet's total; an event says so. Once per transaction (false when it was already
 * recorded).
 */
export async function recordRevertedLeg(
  db: Database,
  leg: LegRow,
  receipt: TransactionReceipt,
  now: Date,
  client: PublicClient,
): Promise<boolean> {
  // Note: a batch whose call for this leg failed: the leg's part of its gas.
  const gas = await legGasCost(client, leg, receipt, gasCostOf(receipt));
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(forwardingTransfers)
      .set({
        status: 'reverted',
        blockNumber: receipt.blockNumber.toString(),
        gasCostWei: gas.toString(),
      })
      .where(
        and(
          eq(forwardingTransfers.id, leg.id),
          eq(forwardingTransfers.txHash, receipt.transactionHash),
          openLeg,
          sql`${forwardingTransfers.status} <> 'reverted'`,
        ),
      )
      .returning({ id: forwardingTransfers.id });
    if (updated.length === 0) return false;
    await addGasAndEvent(tx, leg.walletId, gas, now, {
      legReverted: true,
      leg: leg.leg,
      round: String(leg.round),
      txHash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
      gasCostWei: gas.toString(),
    });
    return true;
  });
}

/** A leg to close as cancelled, with the transaction that cancelled it (none: nothing to cancel). */
export interface CanceledLeg {
  leg: LegRow;
  receipt?: TransactionReceipt;
}

/**
 * Closes legs as `canceled` in one transaction: each with its cancellation's transaction, block
 * and gas (the gas to the wallet's total) and an event; a refund among them is withdrawn. When no
 * leg of the wallet is left open, its forwarding reads `canceled` with `CANCELED_NOTE` if the
 * wallet is still reversed, else it goes on (the payment is back: the next round is planned).
 */
export async function recordCanceledLegs(
  db: Database,
  wallet: WalletRow,
  canceled: readonly CanceledLeg[],
  now: Date,
): Promise<number> {
  if (canceled.length === 0) return 0;
  return db.transaction(async (tx) => {
    let closed = 0;
    for (const { leg, receipt } of canceled) {
      const gas = receipt ? gasCostOf(receipt) : 0n;
      const updated = await tx
        .update(forwardingTransfers)
        .set({
          status: 'canceled',
          ...(receipt
            ? {
                txHash: receipt.transactionHash,
                blockNumber: receipt.blockNumber.toString(),
                gasCostWei: gas.toString(),
              }
            : {}),
        })
        .where(and(eq(forwardingTransfers.id, leg.id), openLeg))
        .returning({ id: forwardingTransfers.id });
      if (updated.length === 0) continue;
      closed += 1;
      await addGasAndEvent(tx, wallet.id, gas, now, {
        legCanceled: true,
        leg: leg.leg,
        round: String(leg.round),
        value: leg.value,
        cancelTxHash: receipt?.transactionHash ?? null,
      });
      if (leg.leg === 'refund') await withdrawRefundOfRound(tx, wallet.id, leg.round, now);
    }
    const [open] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(forwardingTransfers)
      .where(and(eq(forwardingTransfers.walletId, wallet.id), openLeg));
    if (closed > 0 && (open?.n ?? 0) === 0) {
      const reversed = eq(paymentWallets.status, 'reversed');
      await tx
        .update(paymentWallets)
        .set({
          forwardingStatus: sql`case when ${reversed} then 'canceled' else 'forwarding' end`,
          forwardingError: sql`case when ${reversed} then ${CANCELED_NOTE} else null end`,
          forwardingRetryCount: 0,
          forwardingNextAttemptAt: null,
        })
        .where(eq(paymentWallets.id, wallet.id));
    }
    return closed;
  });
}

/** The refund a cancelled refund leg was sending: withdrawn (its money left with the payment). */
async function withdrawRefundOfRound(tx: Transaction, walletId: string, round: number, now: Date) {
  await tx
    .update(refunds)
    .set({
      status: 'canceled',
      lastError: 'A chain reorganization took the payment away',
      completedAt: now,
    })
    .where(
      and(
        eq(refunds.walletId, walletId),
        eq(refunds.round, round),
        inArray(refunds.status, ['sending', 'refunded']),
      ),
    );
}

async function addGasAndEvent(
  tx: Transaction,
  walletId: string,
  gasWei: bigint,
  now: Date,
  details: Record<string, unknown>,
): Promise<void> {
  const [wallet] = await tx
    .update(paymentWallets)
    .set({ actualGasUsed: sql`${paymentWallets.actualGasUsed} + ${formatEther(gasWei)}::numeric` })
    .where(eq(paymentWallets.id, walletId))
    .returning({
      orderId: paymentWallets.orderId,
      status: paymentWallets.status,
      exception: paymentWallets.exception,
      received: paymentWallets.receivedAmountUsdc,
    });
  if (!wallet) return;
  await tx.insert(paymentEvents).values({
    walletId,
    orderId: wallet.orderId,
    fromStatus: wallet.status,
    toStatus: wallet.status,
    exception: wallet.exception,
    receivedAmountUsdc: formatUsdcFull(parseUsdc(wallet.received)),
    details,
    createdAt: now,
  });
}
