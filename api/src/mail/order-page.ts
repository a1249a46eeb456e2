// Where a shopper's mails send them to see their order: the store's thank-you page, or the
// universal one for an order without a store.

/** Where the shopper reads the order: the store's thank-you page, or the universal one. */
export function orderPageUrl(origin: string, storeSlug: string | null, orderId: string): string {
  const id = encodeURIComponent(orderId);
  return storeSlug
    ? `${origin}/store/${encodeURIComponent(storeSlug)}/thank-you/${id}`
    : `${origin}/thank-you/${id}`;
}
