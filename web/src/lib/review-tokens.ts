// The buyer's review tokens: POST /api/orders answers one per order, the proof of purchase that the
// review form sends. Kept in this browser only (the receipt mail carries it too); the order's page
// and the merchant never see it. Note: localStorage, synchronous and tiny; a browser that cannot
// store it (private mode, quota) leaves the receipt's links as the way to review.
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

/** The token a review link carries in its fragment (`#token=…`), if any. */
export function reviewTokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token || undefined;
}
