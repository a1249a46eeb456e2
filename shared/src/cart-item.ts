// Cart line rules that need no schema (the storefront's first paint loads no validation code for
// them).

/** True for a line saved before carts were per store (no storeId): shown with a remove option. */
export function isOutdatedCartItem(item: { storeId?: string | null | undefined }): boolean {
  return !item.storeId;
}
