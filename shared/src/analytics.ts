// Merchants' analytics: the accounting export's query and rows (money movements of a store: each
// payment in, each forwarding leg out, each refund the merchant sent from the payout wallet) and the daily series of the dashboard's charts. Amounts are
// USDC decimal strings with 6 decimals (every base unit), times ISO 8601 UTC.
import * as v from 'valibot';
import type { Usdc } from './money.ts';

/** Longest date range of one accounting export (two years; it is streamed, not held). */
export const MONEY_MOVEMENTS_MAX_DAYS = 731;
/** The range of an export without dates: the last 30 days. */
export const MONEY_MOVEMENTS_DEFAULT_DAYS = 30;
/** Longest daily series of a chart. */
export const DAILY_SERIES_MAX_DAYS = 366;

/**
 * Kinds of money movement: a payment in, the legs out of the deposit address (merchant's share,
 * fee, refund) and a refund the merchant sent from the payout wallet (merchant_refund).
 */
export const MONEY_MOVEMENT_TYPES = [
  'payment',
  'merchant',
  'fee',
  'refund',
  'merchant_refund',
] as const;
/** One kind of money movement. */
export type MoneyMovementType = (typeof MONEY_MOVEMENT_TYPES)[number];

/** How a payment compares with what its order expected (analytics.payments.classification). */
export const PAYMENT_CLASSIFICATIONS = ['exact', 'under', 'over', 'late'] as const;

const DAY_MS = 86_400_000;

const dateOnly = (label: string) =>
  v.pipe(
    v.string(),
    v.maxLength(10, `${label} must be a date (YYYY-MM-DD)`),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`),
    // Note: runs even after an earlier issue (valibot checks the whole pipe), so it never throws.
    v.check((day) => {
      const time = Date.parse(`${day}T00:00:00Z`);
      return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(time)
        ? new Date(time).toISOString().startsWith(day)
        : true;
    }, `${label} is not a date`),
  );

/** Whole UTC days of a range, both ends included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Query of the accounting export: a range of whole UTC days, both ends included. */
export const MoneyMovementsQuerySchema = v.pipe(
  v.object({
    from: v.optional(dateOnly('from')),
    to: v.optional(dateOnly('to')),
  }),
  v.check((q) => !q.from || !q.to || q.from <= q.to, 'from must be on or before to'),
  v.check(
    (q) => !q.from || !q.to || daysInRange(q.from, q.to) <= MONEY_MOVEMENTS_MAX_DAYS,
    `A range covers at most ${MONEY_MOVEMENTS_MAX_DAYS} days`,
  ),
);
/** A validated export query. */
export type MoneyMovementsQuery = v.InferOutput<typeof MoneyMovementsQuerySchema>;

/** The range an export covers: the given days, else the 30 days up to today (UTC). */
export function resolveRange(
  query: MoneyMovementsQuery,
  today: Date = new Date(),
): { from: string; to: string } {
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  const to =
    query.to ??
    (query.from
      ? day(Date.parse(`${query.from}T00:00:00Z`) + (MONEY_MOVEMENTS_DEFAULT_DAYS - 1) * DAY_MS)
      : day(today.getTime()));
  const from =
    query.from ?? day(Date.parse(`${to}T00:00:00Z`) - (MONEY_MOVEMENTS_DEFAULT_DAYS - 1) * DAY_MS);
  return { from, to };
}

const usdc6 = v.pipe(v.string(), v.regex(/^\d+\.\d{6}$/));
const isoTime = v.pipe(v.string(), v.isoTimestamp());

/** One money movement of a store: a payment in, a leg or a refund out, with its transaction. */
export const MoneyMovementSchema = v.object({
  time: isoTime,
  type: v.picklist(MONEY_MOVEMENT_TYPES),
  direction: v.picklist(['in', 'out']),
  orderId: v.string(),
  externalOrderId: v.nullable(v.string()),
  txHash: v.string(),
  /** The Transfer log's index in its transaction (null for a leg, whose log is not read). */
  logIndex: v.nullable(v.number()),
  from: v.string(),
  to: v.string(),
  amountUsdc: usdc6,
  amountBaseUnits: v.pipe(v.string(), v.regex(/^\d+$/)),
  /** A payment's classification (exact, under, over, late); null for a leg. */
  classification: v.nullable(v.picklist(PAYMENT_CLASSIFICATIONS)),
  /** On a payment: the discount code its order was placed with (null: none, and on a leg). */
  discountCode: v.nullable(v.string()),
  /** On a payment: what the code took off its order, 2 decimals (null on a leg). */
  discountUsdc: v.nullable(v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/))),
  /** On a payment: its order's shipping, 2 decimals, as the checkout computed it (null on a leg). */
  shippingUsdc: v.nullable(v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/))),
  /** On a payment: its order's tax, 2 decimals, as the checkout computed it (null on a leg). */
  taxUsdc: v.nullable(v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/))),
  /** On a payment: whether that tax was inside the prices (true) or added (false); null on a leg. */
  taxIncluded: v.nullable(v.boolean()),
});
/** One money movement. */
export type MoneyMovement = v.InferOutput<typeof MoneyMovementSchema>;

/** Header of the export's CSV, in the order of its fields. */
export const MONEY_MOVEMENTS_CSV_COLUMNS = [
  'Time (UTC)',
  'Type',
  'Direction',
  'Order ID',
  'External Order ID',
  'Transaction',
  'Log Index',
  'From',
  'To',
  'Amount (USDC)',
  'Amount (base units)',
  'Classification',
  'Discount Code',
  'Discount (USDC)',
  'Shipping (USDC)',
  'Tax (USDC)',
  'Tax Included',
] as const;

/** The fields of a movement in the CSV's column order. */
export function moneyMovementFields(m: MoneyMovement): Array<string | number | null> {
  return [
    m.time,
    m.type,
    m.direction,
    m.orderId,
    m.externalOrderId,
    m.txHash,
    m.logIndex,
    m.from,
    m.to,
    m.amountUsdc,
    m.amountBaseUnits,
    m.classification,
    m.discountCode,
    m.discountUsdc,
    m.shippingUsdc,
    m.taxUsdc,
    m.taxIncluded === null ? null : m.taxIncluded ? 'yes' : 'no',
  ];
}

/** Query of a daily series: how many days up to today (UTC), 30 unless given. */
export const DailySeriesQuerySchema = v.object({
  days: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(3, `days must be a whole number from 1 to ${DAILY_SERIES_MAX_DAYS}`),
      v.regex(/^\d+$/, `days must be a whole number from 1 to ${DAILY_SERIES_MAX_DAYS}`),
      v.transform(Number),
      v.minValue(1, `days must be a whole number from 1 to ${DAILY_SERIES_MAX_DAYS}`),
      v.maxValue(
        DAILY_SERIES_MAX_DAYS,
        `days must be a whole number from 1 to ${DAILY_SERIES_MAX_DAYS}`,
      ),
    ),
  ),
});
/** A validated series query. */
export type DailySeriesQuery = v.InferOutput<typeof DailySeriesQuerySchema>;

/** One UTC day of a store's (or all of a merchant's stores') money, from analytics.daily_volume. */
export const DailyVolumePointSchema = v.object({
  day: v.pipe(v.string(), v.isoDate()),
  /** Orders paid that day: payments received, counted once per order. */
  orders: v.pipe(v.number(), v.integer(), v.minValue(0)),
  payments: v.pipe(v.number(), v.integer(), v.minValue(0)),
  grossUsdc: usdc6,
  merchantNetUsdc: usdc6,
  feesUsdc: usdc6,
  /** Refunds the merchant sent from the payout wallet that day (the payouts page's "refunded"). */
  refundedUsdc: usdc6,
});
/** One day of a series. */
export type DailyVolumePoint = v.InferOutput<typeof DailyVolumePointSchema>;

/** A daily series with its totals (what the figures above the chart show). */
export const DailyVolumeSeriesSchema = v.object({
  from: v.pipe(v.string(), v.isoDate()),
  to: v.pipe(v.string(), v.isoDate()),
  days: v.array(DailyVolumePointSchema),
  totals: v.object({
    orders: v.pipe(v.number(), v.integer(), v.minValue(0)),
    payments: v.pipe(v.number(), v.integer(), v.minValue(0)),
    grossUsdc: usdc6,
    merchantNetUsdc: usdc6,
    feesUsdc: usdc6,
    refundedUsdc: usdc6,
  }),
});
/** A daily series. */
export type DailyVolumeSeries = v.InferOutput<typeof DailyVolumeSeriesSchema>;

/**
 * The money figures of the merchant's pages (dashboard, store page, payouts page), one label and
 * one meaning each:
 * - paid: what payers sent to the orders' deposit addresses (payments; the series' grossUsdc);
 * - received: the merchant's share forwarded to the payout wallet, net of the fee (the series'
 *   merchantNetUsdc, the payouts page's receivedUsdc);
 * - refunded: refunds the merchant sent from the payout wallet (refundedUsdc on both);
 * - net: received minus refunded (`netToWallet`), negative when more went back;
 * - fees: the platform's fee legs of the same forwarding (not part of received).
 */
export const MONEY_FIGURES = {
  paid: { label: 'Paid', note: "Sent by payers to your orders' payment addresses" },
  ordersPaid: { label: 'Orders paid', note: 'Orders that received their whole amount' },
  received: { label: 'Received', note: 'Your share, forwarded to your payout wallet' },
  refunded: { label: 'Refunded', note: 'Sent back to payers from your payout wallet' },
  net: { label: 'Net to your wallet', note: 'Received minus refunded' },
  fees: { label: 'Fees (2%)', note: 'Not part of received' },
} as const;

/** Net to the payout wallet: received minus refunded, in base units (negative if more went back). */
export function netToWallet(received: Usdc, refunded: Usdc): Usdc {
  return received - refunded;
}
