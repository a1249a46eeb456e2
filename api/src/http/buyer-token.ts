// The buyer token: a random secret of each order (`orders.review_token`) that the checkout gives
// the shopper's browser alone (and the shopper's own mails carry). It opens what the order's id
// alone must not: the shopper's refund claim links and their personal data on the order's pages.
// The order's id is no secret (its merchant, its webhook receiver, a page's referrer know it).
import { timingSafeEqual } from 'node:crypto';

/** The request header the shopper's pages send it in. */
export const BUYER_TOKEN_HEADER = 'x-buyer-token';

/** Whether `given` is the order's buyer token (compared in constant time). */
export function isBuyerToken(stored: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
