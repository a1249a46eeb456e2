// Refunds the merchant sends from the payout wallet (money already forwarded): once the payer has
// confirmed the address, the merchant's browser wallet sends one USDC transfer; this pass finds it
// among the indexed transfers (from the payout address to the confirmed address, for the refund's
// exact amount, at the confirmation depth, not before the refund existed, and not already the
// transaction of another refund) and records the refund as refunded with `order.refunded`.
import { deepestConfirmedBlock } from '@store/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { indexedTransfer, readIndexerPosition } from '../chain/indexer.ts';
import type { Database } from '../db/client.ts';
import { refunds } from '../db/schema.ts';
import { enqueueOrderEvents } from '../webhooks/outbox.ts';
import { refundSummary } from './refund-store.ts';

/** Slack for a transfer mined just before the refund row was written (clocks differ). */
const CLOCK_SLACK_S = 120;

/** Matches ready or sending merchant refunds to indexed transfers; returns how many it recorded. */
export async function matchMerchantRefunds(
  db: Database,
  chainId: number,
  confirmations: number,
  now = new Date(),
): Promise<number> {
  const { headBlock } = await readIndexerPosition(db, chainId);
  if (headBlock === null) return 0;
  const deepest = deepestConfirmedBlock(headBlock, confirmations);
  // Note: a transfer the merchant reported (tx hash) first, then any of the exact amount; one
  // transfer pays one refund (`distinct on` the transfer, and none another refund recorded).
  const found = await db.execute<{
    refund_id: string;
    tx_hash: string;
    block_number: string;
  }>(sql`
    select distinct on (t.id) r.id as refund_id, t.tx_hash, t.block_number::text as block_number
    from refunds r
    join payment_wallets w on w.id = r.wallet_id
    join ${indexedTransfer} t
      on t."from" = lower(w.store_payment_address) and t."to" = lower(r.to_address)
        and t.value = r.amount
    where r.source = 'merchant' and r.status in ('ready', 'sending')
      and t.block_number <= ${deepest.toString()}
      and t.block_timestamp >= extract(epoch from r.created_at)::bigint - ${CLOCK_SLACK_S}
      and not exists (select 1 from refunds o where o.id <> r.id and lower(o.tx_hash) = t.tx_hash
        and o.status = 'refunded')
    order by t.id, (lower(coalesce(r.tx_hash, '')) = t.tx_hash) desc, r.created_at`);
  let recorded = 0;
  const taken = new Set<string>();
  for (const row of found) {
    if (taken.has(row.refund_id)) continue;
    taken.add(row.refund_id);
    const done = await db.transaction(async (tx) => {
      const [refund] = await tx
        .update(refunds)
        .set({
          status: 'refunded',
          txHash: row.tx_hash,
          blockNumber: row.block_number,
          completedAt: now,
          lastError: null,
        })
        .where(and(eq(refunds.id, row.refund_id), inArray(refunds.status, ['ready', 'sending'])))
        .returning();
      if (!refund?.walletId) return false;
      await enqueueOrderEvents(
        tx,
        refund.walletId,
        ['order.refunded'],
        now,
        undefined,
        refundSummary(refund),
      );
      return true;
    });
    if (done) recorded += 1;
  }
  return recorded;
}
