// A store's team: its members and roles, invitations by email (a single-use link, only its hash
// kept), role changes and removals. Only the owner manages it ('team'); the owner is the store's
// one owner, never removed or demoted. Every change is in the audit log with its actor.
import {
  INVITATION_TTL_DAYS,
  type InviteMember,
  type StoreInvitation,
  type StoreMember,
  type StoreTeam,
  TEAM_MESSAGES,
  type UpdateMember,
} from '@store/shared';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys, storeInvitations, storeMembers, stores, users } from '../../db/schema.ts';
import { isUuid } from '../../db/uuid.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, newSessionToken } from '../../http/session.ts';
import { enqueueTeamInvitation } from '../../mail/outbox.ts';
import { type AuditActor, changed, recordAudit } from '../audit/record.ts';
import { getOwnStoreOrThrow } from '../stores/service.ts';
import type { Caller } from './access.ts';

/** The page of the web app an invitation link opens. */
export const INVITATION_PAGE = '/accept-invitation';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The refund limit a role keeps: staff only (admins and the owner refund any amount). */
function limitFor(role: string, limit: string | null | undefined): string | null {
  if (role !== 'staff' || limit == null) return null;
  const [whole = '0', cents = ''] = limit.split('.');
  return `${whole}.${cents.padEnd(2, '0')}`;
}

function statusOf(row: {
  acceptedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
}): StoreInvitation['status'] {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= Date.now() ? 'expired' : 'pending';
}

const invitationColumns = {
  id: storeInvitations.id,
  email: storeInvitations.email,
  role: storeInvitations.role,
  refundLimitUsdc: storeInvitations.refundLimitUsdc,
  expiresAt: storeInvitations.expiresAt,
  createdAt: storeInvitations.createdAt,
  acceptedAt: storeInvitations.acceptedAt,
  revokedAt: storeInvitations.revokedAt,
};

function invitationView(row: {
  id: string;
  email: string;
  role: StoreInvitation['role'];
  refundLimitUsdc: string | null;
  expiresAt: Date;
  createdAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}): StoreInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    refundLimitUsdc: row.refundLimitUsdc,
    status: statusOf(row),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The store's members (the owner first) and its invitations, newest first (owner only). */
export async function getTeam(db: Database, caller: Caller, storeId: string): Promise<StoreTeam> {
  await getOwnStoreOrThrow(db, caller, storeId, 'team');
  const members = await db
    .select({
      userId: storeMembers.userId,
      username: users.username,
      email: users.email,
      role: storeMembers.role,
      refundLimitUsdc: storeMembers.refundLimitUsdc,
      createdAt: storeMembers.createdAt,
    })
    .from(storeMembers)
    .innerJoin(users, eq(users.id, storeMembers.userId))
    .where(eq(storeMembers.storeId, storeId))
    .orderBy(
      sql`array_position(array['owner','admin','staff','viewer'], ${storeMembers.role})`,
      storeMembers.createdAt,
    );
  const invitations = await db
    .select(invitationColumns)
    .from(storeInvitations)
    .where(eq(storeInvitations.storeId, storeId))
    .orderBy(desc(storeInvitations.createdAt))
    .limit(200);
  return {
    members: members.map((m): StoreMember => ({ ...m, createdAt: m.createdAt.toISOString() })),
    invitations: invitations.map(invitationView),
  };
}

/**
 * Invites `input.email` to the store's team with `input.role`: a single-use link mailed to it
 * (valid INVITATION_TTL_DAYS). 409 when the address is a member's or has a pending invitation.
 */
export async function inviteMember(
  db: Database,
  caller: Caller & { username: string },
  storeId: string,
  input: InviteMember,
  origin: string,
  actor: AuditActor,
): Promise<StoreInvitation> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'team');
  const email = input.email.toLowerCase();
  const [member] = await db
    .select({ userId: storeMembers.userId })
    .from(storeMembers)
    .innerJoin(users, eq(users.id, storeMembers.userId))
    .where(and(eq(storeMembers.storeId, storeId), sql`lower(${users.email}) = ${email}`))
    .limit(1);
  if (member) throw new AppError('already_exists', TEAM_MESSAGES.alreadyMember);
  const token = newSessionToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS);
  const refundLimitUsdc = limitFor(input.role, input.refundLimitUsdc);
  return db.transaction(async (tx) => {
    // Note: locked per store and address, so two invitations at once cannot both be pending.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`invite:${storeId}:${email}`}))`);
    const [pending] = await tx
      .select({ id: storeInvitations.id })
      .from(storeInvitations)
      .where(
        and(
          eq(storeInvitations.storeId, storeId),
          eq(storeInvitations.email, email),
          isNull(storeInvitations.acceptedAt),
          isNull(storeInvitations.revokedAt),
          gt(storeInvitations.expiresAt, now),
        ),
      )
      .limit(1);
    if (pending) throw new AppError('already_exists', TEAM_MESSAGES.alreadyInvited);
    const [created] = await tx
      .insert(storeInvitations)
      .values({
        storeId,
        email,
        role: input.role,
        refundLimitUsdc,
        tokenHash: hashToken(token),
        invitedBy: caller.id,
        expiresAt,
        createdAt: now,
      })
      .returning(invitationColumns);
    const invitation = created as NonNullable<typeof created>;
    await enqueueTeamInvitation(
      tx,
      {
        invitedBy: { id: caller.id, username: caller.username },
        to: email,
        url: `${origin}${INVITATION_PAGE}?token=${encodeURIComponent(token)}`,
        storeName: store.name,
        role: input.role,
        expiresAt,
      },
      now,
    );
    await recordAudit(tx, actor, {
      action: 'team.member_invited',
      accountId: store.ownerId,
      storeId,
      subjectId: invitation.id,
      changes: {
        ...changed('email', null, email),
        ...changed('role', null, input.role),
        ...(refundLimitUsdc ? changed('refundLimitUsdc', null, refundLimitUsdc) : {}),
      },
    });
    return invitationView(invitation);
  });
}

/** Revokes a pending invitation of the store (again: no change); 404 for another store's. */
export async function revokeInvitation(
  db: Database,
  caller: Caller,
  storeId: string,
  invitationId: string,
  actor: AuditActor,
): Promise<StoreInvitation> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'team');
  if (!isUuid(invitationId)) throw new AppError('not_found', TEAM_MESSAGES.invitationNotFound);
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(storeInvitations)
      .set({ revokedAt: sql`now()` })
      .where(
        and(
          eq(storeInvitations.id, invitationId),
          eq(storeInvitations.storeId, storeId),
          isNull(storeInvitations.acceptedAt),
          isNull(storeInvitations.revokedAt),
        ),
      )
      .returning(invitationColumns);
    if (revoked) {
      await recordAudit(tx, actor, {
        action: 'team.invitation_revoked',
        accountId: store.ownerId,
        storeId,
        subjectId: invitationId,
        changes: {
          ...changed('email', revoked.email, revoked.email),
          ...changed('revoked', false, true),
        },
      });
      return invitationView(revoked);
    }
    const [current] = await tx
      .select(invitationColumns)
      .from(storeInvitations)
      .where(and(eq(storeInvitations.id, invitationId), eq(storeInvitations.storeId, storeId)))
      .limit(1);
    if (!current) throw new AppError('not_found', TEAM_MESSAGES.invitationNotFound);
    return invitationView(current);
  });
}

/** The member `userId` of the store, locked; 404 for anyone else. */
async function lockedMember(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  storeId: string,
  userId: string,
) {
  if (!isUuid(userId)) throw new AppError('not_found', TEAM_MESSAGES.memberNotFound);
  const [member] = await tx
    .select({
      userId: storeMembers.userId,
      role: storeMembers.role,
      refundLimitUsdc: storeMembers.refundLimitUsdc,
    })
    .from(storeMembers)
    .where(and(eq(storeMembers.storeId, storeId), eq(storeMembers.userId, userId)))
    .for('update');
  if (!member) throw new AppError('not_found', TEAM_MESSAGES.memberNotFound);
  if (member.role === 'owner') throw new AppError('forbidden', TEAM_MESSAGES.ownerFixed);
  return member;
}

/** Gives a member another role (and a staff member their refund limit); the owner's is fixed. */
export async function updateMember(
  db: Database,
  caller: Caller,
  storeId: string,
  userId: string,
  input: UpdateMember,
  actor: AuditActor,
): Promise<StoreMember> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'team');
  await db.transaction(async (tx) => {
    const before = await lockedMember(tx, storeId, userId);
    const refundLimitUsdc = limitFor(input.role, input.refundLimitUsdc);
    await tx
      .update(storeMembers)
      .set({ role: input.role, refundLimitUsdc, updatedAt: sql`now()` })
      .where(and(eq(storeMembers.storeId, storeId), eq(storeMembers.userId, userId)));
    const limitBefore = before.refundLimitUsdc;
    if (before.role !== input.role || limitBefore !== refundLimitUsdc)
      await recordAudit(tx, actor, {
        action: 'team.member_role_changed',
        accountId: store.ownerId,
        storeId,
        subjectId: userId,
        changes: {
          ...changed('role', before.role, input.role),
          ...changed('refundLimitUsdc', limitBefore, refundLimitUsdc),
        },
      });
  });
  const team = await getTeam(db, caller, storeId);
  const member = team.members.find((m) => m.userId === userId);
  if (!member) throw new AppError('not_found', TEAM_MESSAGES.memberNotFound);
  return member;
}

/**
 * Removes a member from the store's team: from the next request on, their sessions and keys reach
 * the store no more (access is checked against the team on every request), and their keys made
 * for this store are revoked.
 */
export async function removeMember(
  db: Database,
  caller: Caller,
  storeId: string,
  userId: string,
  actor: AuditActor,
): Promise<{ userId: string; removed: true }> {
  const store = await getOwnStoreOrThrow(db, caller, storeId, 'team');
  await db.transaction(async (tx) => {
    const member = await lockedMember(tx, storeId, userId);
    await tx
      .delete(storeMembers)
      .where(and(eq(storeMembers.storeId, storeId), eq(storeMembers.userId, userId)));
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(
        and(eq(apiKeys.userId, userId), eq(apiKeys.storeId, storeId), isNull(apiKeys.revokedAt)),
      )
      .returning({ id: apiKeys.id });
    await recordAudit(tx, actor, {
      action: 'team.member_removed',
      accountId: store.ownerId,
      storeId,
      subjectId: userId,
      changes: {
        ...changed('role', member.role, null),
        ...changed('apiKeysRevoked', 0, revoked.length),
      },
    });
  });
  return { userId, removed: true };
}

/**
 * Accepts an invitation by its link's token for the signed-in user, whose account email must be
 * the invited one: they join the store with its role. The token works once (the update is the
 * claim); used, revoked, expired or unknown: 409; another account's invitation: 403.
 */
export async function acceptInvitation(
  db: Database,
  user: { id: string; username: string },
  token: string,
  actor: AuditActor,
): Promise<{ storeId: string; storeName: string; role: StoreMember['role'] }> {
  const [account] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, user.id))
    .limit(1);
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .select({ ...invitationColumns, storeId: storeInvitations.storeId })
      .from(storeInvitations)
      .where(eq(storeInvitations.tokenHash, hashToken(token)))
      .for('update');
    if (!invitation || statusOf(invitation) !== 'pending')
      throw new AppError('invalid_state', TEAM_MESSAGES.invitationInvalid);
    if (account?.email?.toLowerCase() !== invitation.email)
      throw new AppError('forbidden', TEAM_MESSAGES.wrongAccount);
    const [store] = await tx
      .select({ name: stores.name, ownerId: stores.ownerId })
      .from(stores)
      .where(eq(stores.id, invitation.storeId))
      .limit(1);
    if (!store) throw new AppError('invalid_state', TEAM_MESSAGES.invitationInvalid);
    const [existing] = await tx
      .select({ role: storeMembers.role })
      .from(storeMembers)
      .where(and(eq(storeMembers.storeId, invitation.storeId), eq(storeMembers.userId, user.id)))
      .limit(1);
    if (existing) throw new AppError('already_exists', TEAM_MESSAGES.alreadyMember);
    await tx
      .update(storeInvitations)
      .set({ acceptedAt: sql`now()`, acceptedBy: user.id })
      .where(eq(storeInvitations.id, invitation.id));
    await tx.insert(storeMembers).values({
      storeId: invitation.storeId,
      userId: user.id,
      role: invitation.role,
      refundLimitUsdc: invitation.refundLimitUsdc,
    });
    await recordAudit(tx, actor, {
      action: 'team.invitation_accepted',
      accountId: store.ownerId,
      storeId: invitation.storeId,
      subjectId: invitation.id,
      changes: {
        ...changed('member', null, user.username),
        ...changed('role', null, invitation.role),
      },
    });
    return { storeId: invitation.storeId, storeName: store.name, role: invitation.role };
  });
}
