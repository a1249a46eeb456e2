// The one answer to "may this caller do permission P on store S": a session's user acts with
// their role in the store's team; an API key with the lesser of its member's role and its own
// (shared/src/team.ts), and only on its store when it names one. Not a member: the store's 404,
// as for a store that does not exist; a member whose role does not allow it: 403.
import {
  effectiveRole,
  mayRefund,
  roleAllows,
  type StorePermission,
  type StoreRole,
  TEAM_MESSAGES,
} from '@store/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { storeMembers, stores } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import type { SessionUser } from '../../http/session.ts';
import { STORE_NOT_FOUND } from '../stores/model.ts';

/** Who asks: a signed-in user, and the API key of the request when it came with one. */
export type Caller = Pick<SessionUser, 'id' | 'apiKeyId' | 'apiKeyRole' | 'apiKeyStoreId'>;

/** The caller's standing in one store: the role it acts with and a staff member's refund limit. */
export interface Membership {
  role: StoreRole;
  refundLimitUsdc: string | null;
  /** The store's owner: the account its audit entries and notices concern. */
  storeOwnerId: string;
}

/** The caller's membership of `storeId` (its key's role applied), or null when it has none. */
export async function membershipOf(
  db: Executor,
  caller: Caller,
  storeId: string,
): Promise<Membership | null> {
  if (!isUuid(storeId) || !isUuid(caller.id)) return null;
  if (caller.apiKeyStoreId && caller.apiKeyStoreId !== storeId) return null;
  const [member] = await db
    .select({
      role: storeMembers.role,
      refundLimitUsdc: storeMembers.refundLimitUsdc,
      storeOwnerId: stores.ownerId,
    })
    .from(storeMembers)
    .innerJoin(stores, eq(stores.id, storeMembers.storeId))
    .where(and(eq(storeMembers.storeId, storeId), eq(storeMembers.userId, caller.id)))
    .limit(1);
  if (!member) return null;
  return { ...member, role: effectiveRole(member.role, caller.apiKeyRole) };
}

/** 403 unless `membership` allows `permission`. */
export function requirePermission(
  membership: Pick<Membership, 'role'>,
  permission: StorePermission,
): void {
  if (!roleAllows(membership.role, permission))
    throw new AppError('forbidden', TEAM_MESSAGES.forbidden);
}

/**
 * The caller's membership of `storeId` when it may do `permission` there: 404 (the store's) for
 * a non-member, 403 for a member whose role does not allow it.
 */
export async function authorizeStore(
  db: Executor,
  caller: Caller,
  storeId: string,
  permission: StorePermission,
): Promise<Membership> {
  const membership = await membershipOf(db, caller, storeId);
  if (!membership) throw new AppError('not_found', STORE_NOT_FOUND);
  requirePermission(membership, permission);
  return membership;
}

/** 403 unless `membership` may refund `amount` (USDC): staff up to their limit. */
export function requireRefund(membership: Membership, amount: string): void {
  requirePermission(membership, 'refund');
  if (!mayRefund(membership.role, amount, membership.refundLimitUsdc))
    throw new AppError('forbidden', TEAM_MESSAGES.refundAboveLimit);
}

/**
 * SQL true when `storeColumn` is a store the caller is a member of (its key's store only, when
 * the key names one): the filter of lists across the caller's stores.
 */
export function memberStore(caller: Caller, storeColumn: SQL): SQL {
  const column = storeColumn;
  const keyStore = caller.apiKeyStoreId
    ? sql` and m.store_id = ${caller.apiKeyStoreId}::uuid`
    : sql``;
  return sql`${column} in (select m.store_id from ${storeMembers} m where m.user_id = ${caller.id}::uuid${keyStore})`;
}
