// A store's team: its members' roles and what each may do, one table for the API's access check
// and the admin's pages. Roles, most to least: owner (everything), admin (everything but the team
// and the payout address; the audit log too), staff (orders, fulfilment, products, refunds up to a limit the owner
// sets) and viewer (reads only: the accountant). An API key carries its member's role or less.
import { parseUsdc } from './money.ts';

/** The roles of a store's members, most powerful first. */
export const STORE_ROLES = ['owner', 'admin', 'staff', 'viewer'] as const;
/** One role. */
export type StoreRole = (typeof STORE_ROLES)[number];

/** What a merchant route does to a store, as the role check sees it. */
export const STORE_PERMISSIONS = [
  /** Read the store, its orders, customers, payouts and books. */
  'read',
  /** Orders: status, shipments; products and stock; reviews. */
  'operate',
  /** Refunds and accepting an underpaid order (staff: up to their limit). */
  'refund',
  /** The store's settings, webhook, link signing, slug and closing it; API keys. */
  'manage',
  /** The payout address (where the money goes). */
  'payout',
  /** Members, their roles and invitations. */
  'team',
  /** The audit log: who changed money or access (owners and admins). */
  'audit',
] as const;
/** One permission. */
export type StorePermission = (typeof STORE_PERMISSIONS)[number];

const GRANTS: Record<StoreRole, readonly StorePermission[]> = {
  owner: STORE_PERMISSIONS,
  admin: ['read', 'operate', 'refund', 'manage', 'audit'],
  staff: ['read', 'operate', 'refund'],
  viewer: ['read'],
};

/** True when `role` may do `permission`. */
export function roleAllows(role: StoreRole, permission: StorePermission): boolean {
  return GRANTS[role].includes(permission);
}

/** True when `role` is `than` or less powerful (an API key's role against its member's). */
export function roleAtMost(role: StoreRole, than: StoreRole): boolean {
  return STORE_ROLES.indexOf(role) >= STORE_ROLES.indexOf(than);
}

/** The role a request acts with: the lesser of its member's and its API key's (when it has one). */
export function effectiveRole(member: StoreRole, key?: StoreRole | null): StoreRole {
  return key && roleAtMost(key, member) ? key : member;
}

/**
 * Whether `role` may refund `amount` (USDC) of an order: owners and admins any amount, staff up
 * to `staffLimit` (none set: nothing), viewers never.
 */
export function mayRefund(role: StoreRole, amount: string, staffLimit: string | null): boolean {
  if (!roleAllows(role, 'refund')) return false;
  if (role !== 'staff') return true;
  if (staffLimit === null) return false;
  return parseUsdc(amount) <= parseUsdc(staffLimit);
}
