// A store's team on the wire: invitations, role changes, and the Team page's lists.
import * as v from 'valibot';
import { AccountEmailSchema } from '../account.ts';
import { TEAM_MESSAGES } from '../messages.ts';
import { STORE_ROLES } from '../team.ts';
import { TimestampSchema } from './common.ts';
import { REFUND_MESSAGES } from './refund.ts';

/** Days an invitation link works. */
export const INVITATION_TTL_DAYS = 7;
/** Longest invitation token (what the link carries). */
export const INVITATION_TOKEN_MAX = 100;

/** The roles an invitation or a role change may give (a store has one owner: its creator). */
export const INVITABLE_ROLES = ['admin', 'staff', 'viewer'] as const;
/** An invitable role. */
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

const roleField = v.picklist(INVITABLE_ROLES, TEAM_MESSAGES.roleRequired);
const refundLimitField = v.optional(
  v.nullable(
    v.pipe(
      v.string(REFUND_MESSAGES.amount),
      v.maxLength(12, REFUND_MESSAGES.amount),
      v.regex(/^\d{1,8}(\.\d{1,2})?$/, 'Refund limit is an amount in USDC with at most 2 decimals'),
    ),
  ),
);

/** Body of POST /api/stores/{id}/invitations: who, with which role (and a staff refund limit). */
export const InviteMemberSchema = v.object({
  email: AccountEmailSchema,
  role: roleField,
  refundLimitUsdc: refundLimitField,
});
/** A validated invitation body. */
export type InviteMember = v.InferOutput<typeof InviteMemberSchema>;

/** Body of PATCH /api/stores/{id}/members/{userId}: the new role (and staff refund limit). */
export const UpdateMemberSchema = v.object({
  role: roleField,
  refundLimitUsdc: refundLimitField,
});
/** A validated role change. */
export type UpdateMember = v.InferOutput<typeof UpdateMemberSchema>;

/** Body of POST /api/invitations/accept: the token of the link. */
export const AcceptInvitationSchema = v.object({
  token: v.pipe(
    v.string(TEAM_MESSAGES.invitationInvalid),
    v.trim(),
    v.nonEmpty(TEAM_MESSAGES.invitationInvalid),
    v.maxLength(INVITATION_TOKEN_MAX, TEAM_MESSAGES.invitationInvalid),
  ),
});

/** A member of a store's team as the owner's Team page lists it. */
export const StoreMemberSchema = v.object({
  userId: v.string(),
  username: v.string(),
  email: v.nullable(v.string()),
  role: v.picklist(STORE_ROLES),
  refundLimitUsdc: v.nullable(v.string()),
  createdAt: TimestampSchema,
});
/** A listed member. */
export type StoreMember = v.InferOutput<typeof StoreMemberSchema>;

/** An invitation as listed: pending, accepted, revoked or expired (never its token). */
export const StoreInvitationSchema = v.object({
  id: v.string(),
  email: v.string(),
  role: v.picklist(STORE_ROLES),
  refundLimitUsdc: v.nullable(v.string()),
  status: v.picklist(['pending', 'accepted', 'revoked', 'expired']),
  expiresAt: TimestampSchema,
  createdAt: TimestampSchema,
});
/** A listed invitation. */
export type StoreInvitation = v.InferOutput<typeof StoreInvitationSchema>;

/** GET /api/stores/{id}/team: the members and the invitations, newest first. */
export const StoreTeamSchema = v.object({
  members: v.array(StoreMemberSchema),
  invitations: v.array(StoreInvitationSchema),
});
/** A store's team. */
export type StoreTeam = v.InferOutput<typeof StoreTeamSchema>;

/** Response of POST /api/invitations/accept: the store joined and the role in it. */
export const AcceptedInvitationSchema = v.object({
  storeId: v.string(),
  storeName: v.string(),
  role: v.picklist(STORE_ROLES),
});
