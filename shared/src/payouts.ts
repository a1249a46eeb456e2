// A store's payouts: what reached its payout wallet per UTC day. Each confirmed forwarding leg of
// the merchant's share (already net of the platform's fee) is a payout in; each refund the merchant
// sent from the payout wallet (and the worker matched on the chain) is a refund out. Read from the
// analytics views (analytics.settlements and analytics.merchant_refunds), the same rows the
// accounting export lists. Amounts are USDC decimal strings with 6 decimals, times ISO 8601 UTC.
import * as v from 'valibot';
import { daysInRange, MoneyMovementsQuerySchema } from './analytics.ts';

/** Longest range of the payouts page (its JSON holds every transaction; the CSV is streamed). */
export const PAYOUTS_MAX_DAYS = 92;

/** Query of the payouts page: a range of whole UTC days, both ends included, at most 92 days. */
export const PayoutsQuerySchema = v.pipe(
  MoneyMovementsQuerySchema,
  v.check(
    (q) => !q.from || !q.to || daysInRange(q.from, q.to) <= PAYOUTS_MAX_DAYS,
    `The payouts page covers at most ${PAYOUTS_MAX_DAYS} days; download the CSV for longer ranges`,
  ),
);
/** A validated payouts query. */
export type PayoutsQuery = v.InferOutput<typeof PayoutsQuerySchema>;

/**
 * Kinds of payout entry: payout (a forwarding leg of the merchant's share, into the payout wallet)
 * and merchant_refund (a refund the merchant sent from the payout wallet to a payer).
 */
export const PAYOUT_ENTRY_TYPES = ['payout', 'merchant_refund'] as const;
/** One kind of payout entry. */
export type PayoutEntryType = (typeof PAYOUT_ENTRY_TYPES)[number];

const usdc6 = v.pipe(v.string(), v.regex(/^\d+\.\d{6}$/));
const signedUsdc6 = v.pipe(v.string(), v.regex(/^-?\d+\.\d{6}$/));
const baseUnits = v.pipe(v.string(), v.regex(/^\d+$/));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One transfer into or out of the payout wallet, with its transaction. */
export const PayoutEntrySchema = v.object({
  /** The block time of its transfer. */
  time: v.pipe(v.string(), v.isoTimestamp()),
  type: v.picklist(PAYOUT_ENTRY_TYPES),
  orderId: v.string(),
  externalOrderId: v.nullable(v.string()),
  txHash: v.string(),
  from: v.string(),
  to: v.string(),
  amountUsdc: usdc6,
  amountBaseUnits: baseUnits,
});
/** One payout entry. */
export type PayoutEntry = v.InferOutput<typeof PayoutEntrySchema>;

/** A day's sums: received (payouts in), refunded (out), net = received - refunded, and the fees. */
export const PayoutSumsSchema = v.object({
  payouts: count,
  refunds: count,
  receivedUsdc: usdc6,
  refundedUsdc: usdc6,
  /** received - refunded; negative on a day with more refunded than received. */
  netUsdc: signedUsdc6,
  /** The platform's fee legs of the same forwarding, confirmed that day (not in received). */
  feesUsdc: usdc6,
});
/** Sums of a day or of the range. */
export type PayoutSums = v.InferOutput<typeof PayoutSumsSchema>;

/** One UTC day with any payout, refund or fee, its sums and its transfers, oldest first. */
export const PayoutDaySchema = v.object({
  day: v.pipe(v.string(), v.isoDate()),
  ...PayoutSumsSchema.entries,
  entries: v.array(PayoutEntrySchema),
});
/** One day of the payouts page. */
export type PayoutDay = v.InferOutput<typeof PayoutDaySchema>;

/** GET /api/stores/{id}/payouts: the range, the store's payout address, its days and totals. */
export const PayoutsSchema = v.object({
  from: v.pipe(v.string(), v.isoDate()),
  to: v.pipe(v.string(), v.isoDate()),
  /** The payout address set on the store now (earlier payouts may name an earlier one). */
  payoutAddress: v.nullable(v.string()),
  /** Days with activity, newest first. */
  days: v.array(PayoutDaySchema),
  totals: PayoutSumsSchema,
});
/** The payouts page. */
export type Payouts = v.InferOutput<typeof PayoutsSchema>;

/** Header of the payouts CSV, in the order of its fields. */
export const PAYOUTS_CSV_COLUMNS = [
  'Day (UTC)',
  'Time (UTC)',
  'Type',
  'Direction',
  'Order ID',
  'External Order ID',
  'Transaction',
  'From',
  'To',
  'Amount (USDC)',
  'Amount (base units)',
] as const;

/** The CSV fields of an entry: a payout comes in, a refund goes out. */
export function payoutEntryFields(entry: PayoutEntry): Array<string | number | null> {
  return [
    entry.time.slice(0, 10),
    entry.time,
    entry.type,
    entry.type === 'payout' ? 'in' : 'out',
    entry.orderId,
    entry.externalOrderId,
    entry.txHash,
    entry.from,
    entry.to,
    entry.amountUsdc,
    entry.amountBaseUnits,
  ];
}
