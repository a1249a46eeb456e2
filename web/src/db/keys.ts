// Keys of IndexedDB rows, in a module of their own so the storefront can compute them without
// loading the database module (Dexie) itself.

/** The key of a cart line. */
export function cartKey(storeId: string | undefined | null, productId: string): string {
  return `${storeId || '-'}/${productId}`;
}
