// The buyer's tokens (one per order, `reviewToken` in the answer that created it): the proof of
// purchase the review form sends, and what opens the order's refund links and the shopper's own
// details on its pages (sent as X-Buyer-Token). Kept in this browser only (the receipt mail
// carries it too); the merchant never sees it. Note: localStorage, synchronous and tiny; a browser
// that cannot store it (private mode, quota) leaves the mails' links as the way in.
const PREFIX = 'review-token:';

/** Remembers the review token of an order this browser placed. */
export function rememberReviewToken(orderId: string, token: string): void {
  try {
    localStorage.setItem(PREFIX + orderId, token);
  } catch {
    // Note: storage refused: the receipt's review links still work.
  }
}

/** The review token of an order placed in this browser, if it kept one. */
export function reviewTokenOf(orderId: string): string | undefined {
  try {
    return localStorage.getItem(PREFIX + orderId) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The request options that send an order's buyer token: `token` (a mail's link gave it), else the
 * one this browser holds; none when neither.
 */
export function buyerHeaders(
  orderId: string,
  token?: string,
): { headers?: Record<string, string> } {
  const known = token ?? reviewTokenOf(orderId);
  return known ? { headers: { 'x-buyer-token': known } } : {};
}

/** The token a review link carries in its fragment (`#token=…`), if any. */
export function reviewTokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token || undefined;
}
