// A store's customers: the people who ordered from it, one per email address (case-insensitive),
// with their name (from their latest order), how many orders they placed and paid, what they paid
// (the totals of their orders with a paid or later status, as the dashboard's revenue counts them),
// and their first and last order. Searched by email or name, in cursor pages like the orders list.
import * as v from 'valibot';
import { cursorParam, maxChars, pageLimitParam } from './limits.ts';

/** Longest search text; largest page and the default one; longest cursor. */
export const CUSTOMER_LIST_LIMITS = {
  search: 200,
  maxPage: 500,
  defaultPage: 100,
  cursor: 600,
} as const;

/**
 * Query of GET /api/stores/{id}/customers: `q` (part of an email or a name), a page size and the
 * cursor of the page after (the previous page's `X-Next-Cursor`).
 */
export const CustomerListQuerySchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), maxChars('Search', CUSTOMER_LIST_LIMITS.search))),
  cursor: cursorParam(CUSTOMER_LIST_LIMITS.cursor),
  limit: pageLimitParam(CUSTOMER_LIST_LIMITS.maxPage),
});
/** A validated customer list query. */
export type CustomerListQuery = v.InferOutput<typeof CustomerListQuerySchema>;

const isoTime = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One customer of a store. */
export const CustomerSchema = v.object({
  /** The email address, lower-cased: the customer's identity in the store. */
  email: v.string(),
  /** First and last name from the latest order's address ('' when it had none). */
  name: v.string(),
  /** Orders placed, whatever their status. */
  orders: count,
  /** Orders paid (paid, processing, shipped or completed). */
  paidOrders: count,
  /** The totals of the paid orders (USDC, 2 decimals). */
  totalPaidUsdc: v.pipe(v.string(), v.regex(/^\d+\.\d{2}$/)),
  firstOrderAt: isoTime,
  lastOrderAt: isoTime,
});
/** One customer. */
export type Customer = v.InferOutput<typeof CustomerSchema>;
