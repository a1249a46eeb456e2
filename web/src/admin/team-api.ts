// A store's team calls (GET /api/stores/{id}/team, invitations, members) and accepting an
// invitation (POST /api/invitations/accept), answers checked against the shared schemas.
import {
  AcceptedInvitationSchema,
  type InvitableRole,
  type InviteMember,
  StoreInvitationSchema,
  StoreMemberSchema,
  type StoreTeam,
  StoreTeamSchema,
} from '@store/shared';
import * as v from 'valibot';
import { apiRequest } from '../lib/api.ts';

const base = (storeId: string) => `/api/stores/${encodeURIComponent(storeId)}`;

/** The store's members and invitations (owner only). */
export async function fetchTeam(storeId: string): Promise<StoreTeam> {
  return v.parse(StoreTeamSchema, await apiRequest('GET', `${base(storeId)}/team`));
}

/** Invites an email address with a role: the link is mailed to it. */
export async function invite(storeId: string, body: InviteMember) {
  return v.parse(
    StoreInvitationSchema,
    await apiRequest('POST', `${base(storeId)}/invitations`, body),
  );
}

/** Revokes a pending invitation. */
export async function revokeInvitation(storeId: string, id: string) {
  return v.parse(
    StoreInvitationSchema,
    await apiRequest('DELETE', `${base(storeId)}/invitations/${encodeURIComponent(id)}`),
  );
}

/** Gives a member another role (and a staff member a refund limit). */
export async function changeRole(
  storeId: string,
  userId: string,
  role: InvitableRole,
  refundLimitUsdc: string | null,
) {
  return v.parse(
    StoreMemberSchema,
    await apiRequest('PATCH', `${base(storeId)}/members/${encodeURIComponent(userId)}`, {
      role,
      refundLimitUsdc,
    }),
  );
}

/** Removes a member from the store's team. */
export async function removeMember(storeId: string, userId: string): Promise<void> {
  await apiRequest('DELETE', `${base(storeId)}/members/${encodeURIComponent(userId)}`);
}

/** Accepts an invitation by its link's token, signed in as the invited account. */
export async function acceptInvitation(token: string) {
  return v.parse(
    AcceptedInvitationSchema,
    await apiRequest('POST', '/api/invitations/accept', { token }),
  );
}
