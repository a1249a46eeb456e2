// Daily series of the dashboard's charts, from analytics.daily_volume: per UTC day the orders paid,
// payments, gross received, the merchant's net, the fees and the refunds sent from the payout
// wallet, every day of the range present.
import { formatUsdcFull, parseUsdc } from '@store/shared';
import type {
  DailySeriesQuery,
  DailyVolumePoint,
  DailyVolumeSeries,
} from '@store/shared/analytics';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { stores } from '../../db/schema.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import { type Caller, memberStore } from '../team/access.ts';

/** Days of a series when none are asked: the dashboard's 30. */
const DEFAULT_DAYS = 30;

interface DayRow {
  day: string;
  orders: number;
  payments: number;
  gross: string;
  net: string;
  fees: string;
  refunded: string;
}

/**
 * The days of `storeIds` up to today (UTC), from analytics.daily_volume: the one definition of
 * received, orders paid, net and fees that the charts, the dashboard's figures and (payment by
 * payment) the accounting export share.
 */
export async function seriesOf(
  db: Database,
  storeIds: string[],
  days: number,
): Promise<DailyVolumeSeries> {
  const rows = await db.$client<DayRow[]>`
    with range as (
      select generate_series(
        (now() at time zone 'UTC')::date - (${days}::int - 1),
        (now() at time zone 'UTC')::date,
        interval '1 day'
      )::date as day
    )
    select to_char(r.day, 'YYYY-MM-DD') as day,
      coalesce(sum(v.orders), 0)::int as orders,
      coalesce(sum(v.payments), 0)::int as payments,
      coalesce(sum(v.gross_usdc), 0)::numeric(38, 6)::text as gross,
      coalesce(sum(v.merchant_net_usdc), 0)::numeric(38, 6)::text as net,
      coalesce(sum(v.fees_usdc), 0)::numeric(38, 6)::text as fees,
      coalesce(max(f.refunded), 0)::numeric(38, 6)::text as refunded
    from range r
    -- Note: filtered before the join, so the view computes only these stores' days.
    left join (
      select * from analytics.daily_volume
      where store_id = any(${storeIds}::uuid[])
        and day >= (now() at time zone 'UTC')::date - (${days}::int - 1)
    ) v on v.day = r.day
    -- The refunds the merchant sent from the payout wallet, by the day they were mined (the
    -- payouts page's and the export's merchant_refund lines).
    left join (
      select (mined_at at time zone 'UTC')::date as day,
        (sum(amount_base_units) / 1000000)::numeric(38, 6) as refunded
      from analytics.merchant_refunds
      where store_id = any(${storeIds}::uuid[]) and mined_at is not null
      group by 1
    ) f on f.day = r.day
    group by r.day order by r.day`;
  const points: DailyVolumePoint[] = rows.map((row) => ({
    day: row.day,
    orders: row.orders,
    payments: row.payments,
    grossUsdc: row.gross,
    merchantNetUsdc: row.net,
    feesUsdc: row.fees,
    refundedUsdc: row.refunded,
  }));
  // Note: totals add base units (bigint), never floats.
  const sum = (pick: (p: DailyVolumePoint) => string) =>
    formatUsdcFull(points.reduce((total, p) => total + parseUsdc(pick(p)), 0n));
  return {
    from: points[0]?.day ?? '',
    to: points.at(-1)?.day ?? '',
    days: points,
    totals: {
      orders: points.reduce((n, p) => n + p.orders, 0),
      payments: points.reduce((n, p) => n + p.payments, 0),
      grossUsdc: sum((p) => p.grossUsdc),
      merchantNetUsdc: sum((p) => p.merchantNetUsdc),
      feesUsdc: sum((p) => p.feesUsdc),
      refundedUsdc: sum((p) => p.refundedUsdc),
    },
  };
}

/** One of the merchant's stores, day by day. */
export async function storeDailySeries(
  db: Database,
  caller: Caller,
  storeId: string,
  query: DailySeriesQuery,
): Promise<DailyVolumeSeries> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  return seriesOf(db, [store.id], query.days ?? DEFAULT_DAYS);
}

/** Every store of the merchant together, day by day. */
export async function merchantDailySeries(
  db: Database,
  caller: Caller,
  query: DailySeriesQuery,
): Promise<DailyVolumeSeries> {
  const owned = await db
    .select({ id: stores.id })
    .from(stores)
    .where(memberStore(caller, sql`${stores.id}`));
  return seriesOf(
    db,
    owned.map((s) => s.id),
    query.days ?? DEFAULT_DAYS,
  );
}
