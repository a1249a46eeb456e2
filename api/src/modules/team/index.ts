// Routes: GET /api/stores/{id}/team, POST /api/stores/{id}/invitations,
// DELETE /api/stores/{id}/invitations/{invitationId}, PATCH and DELETE
// /api/stores/{id}/members/{userId}, POST /api/invitations/accept
import {
  AcceptedInvitationSchema,
  AcceptInvitationSchema,
  InviteMemberSchema,
  StoreInvitationSchema,
  StoreMemberSchema,
  StoreTeamSchema,
  TEAM_MESSAGES,
  UpdateMemberSchema,
} from '@store/shared';
import { Elysia } from 'elysia';
import * as v from 'valibot';
import type { AppDeps } from '../../context.ts';
import { accessPlugin } from '../../http/access.ts';
import { contract, registerResponseSchema } from '../../http/openapi.ts';
import { mailOriginOf } from '../../http/public-origin.ts';
import { auditActorOf } from '../audit/record.ts';
import {
  acceptInvitation,
  getTeam,
  inviteMember,
  removeMember,
  revokeInvitation,
  updateMember,
} from './service.ts';

const tags = ['team'];
const team = registerResponseSchema('StoreTeam', StoreTeamSchema);
const invitation = registerResponseSchema('StoreInvitation', StoreInvitationSchema);
const member = registerResponseSchema('StoreMember', StoreMemberSchema);
const accepted = registerResponseSchema('AcceptedInvitation', AcceptedInvitationSchema);
const RemovedMemberSchema = v.object({ userId: v.string(), removed: v.literal(true) });

/**
 * A store's team for its owner (the 'team' permission), changed from a signed-in session only
 * (with a fresh second factor once it is on); an invitation accepted by the invited account.
 */
export const teamModule = ({ db, config }: AppDeps) => {
  const change = { secondFactor: TEAM_MESSAGES.sessionRequired } as const;
  return new Elysia({ name: 'team' })
    .use(accessPlugin(db))
    .get('/api/stores/:id/team', ({ params, user }) => getTeam(db, user, params.id), {
      access: 'merchant',
      ...contract({
        tags,
        summary: "The store's members with their roles, and its invitations (owner only)",
        ok: { 200: team },
        errors: ['not_found', 'forbidden'],
      }),
    })
    .post(
      '/api/stores/:id/invitations',
      async ({ params, body, request, server, set, user }) => {
        const actor = auditActorOf({ request, server }, user, config);
        const origin = mailOriginOf(config, request);
        const created = await inviteMember(db, user, params.id, body, origin, actor);
        set.status = 201;
        return created;
      },
      {
        body: InviteMemberSchema,
        access: change,
        ...contract({
          tags,
          summary:
            'Invite someone by email to the store with a role (admin, staff or viewer): a single-use link, valid 7 days, is mailed to them',
          ok: { 201: invitation },
          errors: ['not_found', 'forbidden', 'already_exists'],
        }),
      },
    )
    .delete(
      '/api/stores/:id/invitations/:invitationId',
      async ({ params, request, server, user }) =>
        revokeInvitation(
          db,
          user,
          params.id,
          params.invitationId,
          auditActorOf({ request, server }, user, config),
        ),
      {
        access: change,
        ...contract({
          tags,
          summary: 'Revoke a pending invitation: its link stops working (again: no change)',
          ok: { 200: invitation },
          errors: ['not_found', 'forbidden'],
        }),
      },
    )
    .patch(
      '/api/stores/:id/members/:userId',
      async ({ params, body, request, server, user }) =>
        updateMember(
          db,
          user,
          params.id,
          params.userId,
          body,
          auditActorOf({ request, server }, user, config),
        ),
      {
        body: UpdateMemberSchema,
        access: change,
        ...contract({
          tags,
          summary:
            "Give a member another role (and a staff member's refund limit per refund); the owner's role is fixed",
          ok: { 200: member },
          errors: ['not_found', 'forbidden'],
        }),
      },
    )
    .delete(
      '/api/stores/:id/members/:userId',
      async ({ params, request, server, user }) =>
        removeMember(
          db,
          user,
          params.id,
          params.userId,
          auditActorOf({ request, server }, user, config),
        ),
      {
        access: change,
        ...contract({
          tags,
          summary:
            'Remove a member: their sessions and keys reach the store no more from the next request, and their keys for this store are revoked; the owner cannot be removed',
          ok: { 200: RemovedMemberSchema },
          errors: ['not_found', 'forbidden'],
        }),
      },
    )
    .post(
      '/api/invitations/accept',
      async ({ body, request, server, user }) =>
        acceptInvitation(db, user, body.token, auditActorOf({ request, server }, user, config)),
      {
        body: AcceptInvitationSchema,
        access: 'session',
        ...contract({
          tags,
          summary:
            "Accept an invitation by its link's token, signed in with the account of the invited email: you join the store with its role",
          ok: { 200: accepted },
          errors: ['forbidden', 'invalid_state', 'already_exists'],
        }),
      },
    );
};
