// The spending of each payer address at a store over HTTP 402, read from the orders themselves
// (the payer rides on each x402 order's metadata): what the admin shows agents spent.
import { REVENUE_STATUSES } from '@store/shared';
import { and, desc, eq, inArray, isNotNull, max, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Database } from '../../db/client.ts';
import { orders, paymentWallets } from '../../db/schema.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

/** Most payers listed (the biggest spenders first). */
export const MAX_PAYERS_LISTED = 100;

/** One payer's spending at a store. */
export const PayerSpendingSchema = v.object({
  payer: v.string(),
  /** The paid orders' totals, in USDC (2 places). */
  totalUsdc: v.string(),
  count: v.number(),
  /** When the last of them was paid (its transfer seen). */
  lastPaidAt: v.nullable(v.string()),
});
/** The answer of GET /api/stores/{id}/x402-payers. */
export const PayersSchema = v.object({ payers: v.array(PayerSpendingSchema) });

/** The payers of the merchant's store, the biggest spenders first (404 for another's store). */
export async function payerSummary(db: Database, caller: Caller, storeId: string) {
  await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const payer = sql<string>`${orders.metadata} -> 'x402' ->> 'payer'`;
  const rows = await db
    .select({
      payer,
      totalUsdc: sql<string>`sum(${orders.totalUsdc})::numeric(20, 2)::text`,
      count: sql<number>`count(*)::int`,
      lastPaidAt: max(paymentWallets.detectedAt),
    })
    .from(orders)
    .leftJoin(paymentWallets, eq(paymentWallets.orderId, orders.id))
    .where(
      and(
        eq(orders.storeId, storeId),
        isNotNull(payer),
        inArray(orders.status, [...REVENUE_STATUSES]),
      ),
    )
    .groupBy(payer)
    .orderBy(desc(sql`sum(${orders.totalUsdc})`), payer)
    .limit(MAX_PAYERS_LISTED);
  return {
    payers: rows.map((row) => ({
      ...row,
      lastPaidAt: row.lastPaidAt ? row.lastPaidAt.toISOString() : null,
    })),
  };
}
