// What the signed-in merchant may do in a store, from the role the store's answer carries
// (GET /api/stores?mine=true, GET /api/stores/{id}) and the one permission table of
// shared/src/team.ts that the API checks too: the admin shows a member only what their role allows.
import {
  formatUsdcFull,
  mayRefund,
  roleAllows,
  type StorePermission,
  type StoreRole,
  tryParseUsdc,
} from '@store/shared';

/** A store as the admin holds it: its role is missing on one made on this device (its creator's). */
export interface StoreWithRole {
  role?: StoreRole;
  /** A staff member's limit per refund (USDC); null when none is set. */
  refundLimitUsdc?: string | null;
}

/** The role the merchant acts with in `store`: a store made on this device is theirs. */
export function roleIn(store: StoreWithRole): StoreRole {
  return store.role ?? 'owner';
}

/** True when the merchant's role in `store` allows `permission` (false for no store). */
export function may(store: StoreWithRole | undefined, permission: StorePermission): boolean {
  return store !== undefined && roleAllows(roleIn(store), permission);
}

/** True when the merchant may refund something in `store` (staff: only with a limit above 0). */
export function mayRefundIn(store: StoreWithRole | undefined): boolean {
  return store !== undefined && mayRefund(roleIn(store), '0.01', store.refundLimitUsdc ?? null);
}

/** The most the merchant may refund at once in `store`: a staff member's limit, else null (no cap). */
export function refundCapIn(store: StoreWithRole | undefined): string | null {
  return store !== undefined && roleIn(store) === 'staff' ? (store.refundLimitUsdc ?? null) : null;
}

/**
 * True when `amount` (USDC, as typed or as the API gives it) is above `cap` (what `refundCapIn`
 * gives; null: no cap), so the API would refuse it; an amount that is not one is not above.
 */
export function aboveRefundCap(cap: string | null, amount: string): boolean {
  const wanted = tryParseUsdc(amount.trim());
  if (cap === null || wanted === undefined || tryParseUsdc(cap) === undefined) return false;
  return !mayRefund('staff', formatUsdcFull(wanted), cap);
}

/**
 * True when a page about `permission` is worth showing: some store allows it, or there is no store
 * yet (whoever creates one owns it).
 */
export function mayInSome(stores: readonly StoreWithRole[], permission: StorePermission): boolean {
  return stores.length === 0 || stores.some((store) => may(store, permission));
}

/** The entries of `stores` (as `useMerchantStores` gives them) whose role allows `permission`. */
export function storesAllowing<T extends { item: StoreWithRole }>(
  stores: readonly T[],
  permission: StorePermission,
): T[] {
  return stores.filter((entry) => may(entry.item, permission));
}
