// Per-store dashboard figures over the last 30 days.
import {
  ANALYTICS_WINDOW_DAYS,
  formatUsdc,
  parseUsdc,
  REVENUE_STATUSES,
  type StoreAnalytics,
} from '@store/shared';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { orders, products } from '../../db/schema.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';

/** Published products, revenue (paid and later statuses) and orders of the last 30 days. */
export async function getStoreAnalytics(
  db: Database,
  ownerId: string,
  storeId: string,
): Promise<StoreAnalytics> {
  await getOwnStoreOrThrow(db, ownerId, storeId);
  const since = sql`now() - make_interval(days => ${ANALYTICS_WINDOW_DAYS})`;
  const revenueStatuses = sql.join(
    REVENUE_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const [[active], [window]] = await Promise.all([
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(products)
      .where(and(eq(products.storeId, storeId), eq(products.isPublished, true))),
    db
      .select({
        // Note: summed as numeric in Postgres and read as a string: no float touches money.
        revenue: sql<string>`coalesce(sum(${orders.totalUsdc}) filter (where ${orders.status} in (${revenueStatuses})), 0)::text`,
        orders: sql<number>`count(*)::int`,
      })
      .from(orders)
      .where(and(eq(orders.storeId, storeId), gte(orders.createdAt, since))),
  ]);
  return {
    activeProducts: active?.count ?? 0,
    totalRevenue30Days: formatUsdc(parseUsdc(window?.revenue ?? '0')),
    totalOrders30Days: window?.orders ?? 0,
  };
}
