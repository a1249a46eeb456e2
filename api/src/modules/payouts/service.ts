// A store's payouts: what reached its payout wallet per UTC day. Read from the analytics views the
// accounting export reads (analytics.settlements, analytics.merchant_refunds): each merchant leg
// confirmed at depth (the merchant's share, already net of the fee) is a payout, by the block time
// of its transfer; each refund the merchant sent from the payout wallet and the worker matched is
// a refund out; the fee legs confirmed the same day are summed beside them. Day sums are added up
// here from those rows, in base units.
import { formatUsdcFull } from '@store/shared';
import { type MoneyMovementsQuery, netToWallet, resolveRange } from '@store/shared/analytics';
import {
  PAYOUTS_CSV_COLUMNS,
  type PayoutDay,
  type PayoutEntry,
  type PayoutSums,
  type Payouts,
  type PayoutsQuery,
  payoutEntryFields,
} from '@store/shared/payouts';
import type { Database } from '../../db/client.ts';
import { csvAttachment } from '../analytics/movements.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from '../team/access.ts';

/** Rows fetched from Postgres at a time by the CSV. */
const CURSOR_ROWS = 500;

interface EntryRow {
  time: string;
  type: PayoutEntry['type'];
  order_id: string;
  external_order_id: string | null;
  tx_hash: string;
  from: string;
  to: string;
  amount_base_units: string;
}

const toEntry = (row: EntryRow): PayoutEntry => ({
  time: row.time,
  type: row.type,
  orderId: row.order_id,
  externalOrderId: row.external_order_id,
  txHash: row.tx_hash,
  from: row.from,
  to: row.to,
  amountUsdc: formatUsdcFull(BigInt(row.amount_base_units)),
  amountBaseUnits: row.amount_base_units,
});

/** The range's bounds as timestamps: from midnight of `from` to midnight after `to` (UTC). */
function bounds(range: { from: string; to: string }) {
  return {
    start: `${range.from}T00:00:00Z`,
    end: new Date(Date.parse(`${range.to}T00:00:00Z`) + 86_400_000).toISOString(),
  };
}

/**
 * The payouts and payout-wallet refunds of a store in the range, oldest first. Note: the store's
 * ownership is checked before; a leg counts once confirmed at depth and indexed (its block time).
 */
function entryQuery(db: Database, storeId: string, range: { from: string; to: string }) {
  const sql = db.$client;
  const { start, end } = bounds(range);
  // Note: this pool's parameters are text; the casts say what they are.
  return sql<EntryRow[]>`
    select to_char(e.time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as time, e.type,
      e.order_id, e.external_order_id, e.tx_hash, e."from", e."to", e.amount_base_units
    from (
      select s.mined_at as time, 'payout' as type, s.order_id, s.external_order_id, s.tx_hash,
        s.from_address as "from", s.to_address as "to", s.amount_base_units::text as amount_base_units,
        s.block_number as block
      from analytics.settlements s
      where s.store_id = ${storeId}::uuid and s.leg = 'merchant' and s.status = 'confirmed'
        and s.mined_at >= ${start}::timestamptz and s.mined_at < ${end}::timestamptz
      union all
      select r.mined_at, 'merchant_refund', r.order_id, r.external_order_id, r.tx_hash,
        r.from_address, r.to_address, r.amount_base_units::text, r.block_number
      from analytics.merchant_refunds r
      where r.store_id = ${storeId}::uuid
        and r.mined_at >= ${start}::timestamptz and r.mined_at < ${end}::timestamptz
    ) e
    order by e.time, e.block, e.order_id, e.type`;
}

/** The fee legs confirmed per day in the range (base units), keyed by day. */
async function feesByDay(db: Database, storeId: string, range: { from: string; to: string }) {
  const sql = db.$client;
  const { start, end } = bounds(range);
  const rows = await sql<{ day: string; fees: string }[]>`
    select to_char(s.mined_at at time zone 'UTC', 'YYYY-MM-DD') as day,
      sum(s.amount_base_units)::text as fees
    from analytics.settlements s
    where s.store_id = ${storeId}::uuid and s.leg = 'fee' and s.status = 'confirmed'
      and s.mined_at >= ${start}::timestamptz and s.mined_at < ${end}::timestamptz
    group by 1`;
  return new Map(rows.map((row) => [row.day, BigInt(row.fees)]));
}

interface Tally {
  payouts: number;
  refunds: number;
  received: bigint;
  refunded: bigint;
  fees: bigint;
}

const emptyTally = (): Tally => ({ payouts: 0, refunds: 0, received: 0n, refunded: 0n, fees: 0n });

function add(tally: Tally, entry: PayoutEntry) {
  const amount = BigInt(entry.amountBaseUnits);
  if (entry.type === 'payout') {
    tally.payouts += 1;
    tally.received += amount;
  } else {
    tally.refunds += 1;
    tally.refunded += amount;
  }
}

const sumsOf = (tally: Tally): PayoutSums => ({
  payouts: tally.payouts,
  refunds: tally.refunds,
  receivedUsdc: formatUsdcFull(tally.received),
  refundedUsdc: formatUsdcFull(tally.refunded),
  netUsdc: formatUsdcFull(netToWallet(tally.received, tally.refunded)),
  feesUsdc: formatUsdcFull(tally.fees),
});

/** The store's payouts per day in the range (newest day first), with each day's transfers. */
export async function storePayouts(
  db: Database,
  caller: Caller,
  storeId: string,
  query: PayoutsQuery,
): Promise<Payouts> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const range = resolveRange(query);
  const [rows, fees] = await Promise.all([
    entryQuery(db, store.id, range),
    feesByDay(db, store.id, range),
  ]);
  const days = new Map<string, { tally: Tally; entries: PayoutEntry[] }>();
  const dayOf = (day: string) => {
    let found = days.get(day);
    if (!found) {
      found = { tally: emptyTally(), entries: [] };
      days.set(day, found);
    }
    return found;
  };
  const total = emptyTally();
  for (const row of rows) {
    const entry = toEntry(row);
    const day = dayOf(entry.time.slice(0, 10));
    day.entries.push(entry);
    add(day.tally, entry);
    add(total, entry);
  }
  for (const [day, amount] of fees) {
    dayOf(day).tally.fees += amount;
    total.fees += amount;
  }
  const list: PayoutDay[] = [...days]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([day, { tally, entries }]) => ({ day, ...sumsOf(tally), entries }));
  return {
    from: range.from,
    to: range.to,
    payoutAddress: store.paymentAddress ?? null,
    days: list,
    totals: sumsOf(total),
  };
}

/** The store's payout entries in the range as a streamed CSV file (RFC 4180, CRLF), oldest first. */
export async function storePayoutsCsv(
  db: Database,
  caller: Caller,
  storeId: string,
  query: MoneyMovementsQuery,
): Promise<Response> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'read');
  const range = resolveRange(query);
  return csvAttachment(
    entryQuery(db, store.id, range).cursor(CURSOR_ROWS),
    PAYOUTS_CSV_COLUMNS,
    (row) => payoutEntryFields(toEntry(row)),
    `${store.slug}-payouts-${range.from}-to-${range.to}.csv`,
  );
}
