// The README's example queries of the analytics schema (README "Analytics"), run by
// `bun bench/analytics/readme.ts` on a local chain to print their output.

/** One example: what it answers and its SQL. */
export interface ExampleQuery {
  question: string;
  sql: string;
}

export const EXAMPLE_QUERIES: ExampleQuery[] = [
  {
    question: 'Daily volume per store (universal orders are their own row)',
    sql: `select day, coalesce(store_name, 'universal') as store, orders, payments,
  distinct_payers, gross_usdc, merchant_net_usdc, fees_usdc, median_settlement_seconds
from analytics.daily_volume
where day > current_date - 7
order by day, store;`,
  },
  {
    question: 'Fees collected this month',
    sql: `select count(*) as fee_legs, sum(amount_usdc) as fees_usdc
from analytics.settlements
where leg = 'fee' and mined_at >= date_trunc('month', now());`,
  },
  {
    question: 'Payers per store',
    sql: `select coalesce(store_name, 'universal') as store, count(distinct payer) as payers,
  count(*) as payments, sum(amount_usdc) as received_usdc
from analytics.payments
group by 1
order by payers desc, store;`,
  },
  {
    question: "How long from payment to the merchant's wallet",
    sql: `with per_order as (
  select p.order_id, extract(epoch from min(s.mined_at) - max(p.block_time)) as seconds
  from analytics.payments p
  join analytics.settlements s on s.order_id = p.order_id and s.leg = 'merchant'
  where s.mined_at is not null
  group by p.order_id
)
select count(*) as orders,
  percentile_cont(0.5) within group (order by seconds) as median_s,
  percentile_cont(0.95) within group (order by seconds) as p95_s, max(seconds) as max_s
from per_order;`,
  },
  {
    question: 'Payments that were not exact (under, over, late), with what the order expected',
    sql: `select block_time, left(order_id::text, 8) as order_id,
  coalesce(store_name, 'universal') as store, amount_usdc, order_received_usdc,
  expected_amount_usdc, classification, left(payer, 10) as payer
from analytics.payments
where classification <> 'exact'
order by block_time;`,
  },
];

/** Rows as psql prints them: a header, a rule, aligned cells and the row count. */
export function psqlTable(rows: Record<string, unknown>[], columns: string[]): string {
  const text = (value: unknown) =>
    value === null || value === undefined
      ? ''
      : value instanceof Date
        ? value.toISOString().replace('T', ' ').replace('.000Z', '+00')
        : String(value);
  const cells = rows.map((row) => columns.map((c) => text(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (values: string[], pad: (v: string, w: number) => string) =>
    ` ${values.map((v, i) => pad(v, widths[i] ?? 0)).join(' | ')}`.trimEnd();
  return [
    line(columns, (v, w) => v.padStart(Math.floor((w + v.length) / 2)).padEnd(w)),
    widths.map((w) => '-'.repeat(w + 2)).join('+'),
    ...cells.map((r) => line(r, (v, w) => (/^-?[\d.]+$/.test(v) ? v.padStart(w) : v.padEnd(w)))),
    `(${rows.length} row${rows.length === 1 ? '' : 's'})`,
  ].join('\n');
}
