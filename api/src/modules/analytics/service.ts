// Per-store dashboard figures over the last 30 days: revenue is what the analytics views count as
// received (series.ts), the same figure as the charts' "Received" and the export's payments.
import { ANALYTICS_WINDOW_DAYS, formatUsdc, parseUsdc, type StoreAnalytics } from '@store/shared';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, products } from '../../db/schema.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';
import { seriesOf } from './series.ts';

/**
 * The store's 30-day series; none received before the indexer has made its table (a fresh
 * deployment): no payment can have been detected then either, as detection reads that table.
 */
async function receivedSeries(db: Database, storeId: string) {
  try {
    return await seriesOf(db, [storeId], ANALYTICS_WINDOW_DAYS);
  } catch (error) {
    // undefined_table: the indexer's transfer table does not exist yet.
    if ((error as { code?: string }).code !== '42P01') throw error;
    return { totals: { grossUsdc: '0' } };
  }
}

/**
 * Published products; revenue: USDC received by the store's orders in the last 30 UTC days (the
 * charts' "Received", analytics.daily_volume); orders: orders placed in the last 30 days.
 */
export async function getStoreAnalytics(
  db: Database,
  caller: Caller,
  storeId: string,
): Promise<StoreAnalytics> {
  await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const since = sql`now() - make_interval(days => ${ANALYTICS_WINDOW_DAYS})`;
  const [[active], [placed], series] = await Promise.all([
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(products)
      .where(and(eq(products.storeId, storeId), eq(products.isPublished, true))),
    db
      .select({ orders: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.storeId, storeId), gte(orders.createdAt, since))),
    receivedSeries(db, storeId),
  ]);
  return {
    activeProducts: active?.count ?? 0,
    totalRevenue30Days: formatUsdc(parseUsdc(series.totals.grossUsdc)),
    totalOrders30Days: placed?.orders ?? 0,
  };
}
