// Route /admin/team: a store's team for its owner (GET /api/stores/{id}/team): the members with
// their roles (a staff member's refund limit), the invitations and their state; "Invite" mails a
// single-use link, each member's role can be changed or the member removed, a pending invitation
// revoked. What each role may do is said once, from shared/src/team.ts. Read from the network.
import {
  INVITABLE_ROLES,
  type InvitableRole,
  type StoreMember,
  type StoreRole,
} from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useState } from 'react';
import * as v from 'valibot';
import {
  changeRole,
  fetchTeam,
  invite,
  removeMember,
  revokeInvitation,
} from '../../admin/team-api.ts';
import { useStoreLoad } from '../../admin/use-store-load.ts';
import { errorText } from '../../lib/api.ts';
import { toast, toastError } from '../../lib/toast.ts';
import '../../admin/table-cards.css';

const SearchSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string()),
    v.transform((id) => (id && /^[\w-]{1,100}$/.test(id) ? id : undefined)),
  ),
});

export const Route = createFileRoute('/admin/team')({
  validateSearch: valibotValidator(SearchSchema),
  component: TeamPage,
});

/** What each role may do, as the Team page says it. */
export const ROLE_TEXTS: Record<StoreRole, string> = {
  owner: 'Everything, including the team and the payout address',
  admin: 'Everything but the team and the payout address',
  staff: 'Orders, fulfilment, products and refunds up to a limit',
  viewer: 'Reads only: orders, customers, payouts, books',
};

function TeamPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const userId = Route.useRouteContext().merchant.id;
  const { stores, storeId, load, reload } = useStoreLoad({
    userId,
    storeId: search.storeId,
    permission: 'team',
    fetch: fetchTeam,
  });

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      toast({ title: done });
      await reload();
    } catch (error) {
      toastError('Not changed', errorText(error));
    }
  };

  return (
    <>
      <div className="admin-heading">
        <h1>Team</h1>
      </div>
      <form className="admin-filters" aria-label="Team store" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="team-store">Store</label>
          <select
            id="team-store"
            value={storeId ?? ''}
            onChange={(event) =>
              void navigate({ search: { storeId: event.target.value || undefined } })
            }
          >
            {stores.length === 0 && <option value="">No store yet</option>}
            {stores.map(({ item }) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      {!storeId ? (
        <section className="card">
          <p className="muted">Create a store first, then invite your team to it.</p>
        </section>
      ) : load.state === 'loading' ? (
        <section className="card">
          <p className="muted">Loading the team…</p>
        </section>
      ) : load.state === 'offline' ? (
        <section className="card">
          <p className="muted" role="status">
            The team needs a connection. Connect to the internet and try again.
          </p>
        </section>
      ) : load.state === 'refused' ? (
        <section className="card">
          <p className="field-error" role="alert">
            {load.text}
          </p>
        </section>
      ) : (
        <>
          <InviteForm
            onInvite={(email, role, limit) =>
              act(
                () =>
                  invite(storeId, {
                    email,
                    role,
                    refundLimitUsdc: role === 'staff' && limit ? limit : null,
                  }),
                `Invitation sent to ${email}`,
              )
            }
          />
          <Members
            members={load.value.members}
            onRole={(member, role, limit) =>
              act(
                () => changeRole(storeId, member.userId, role, role === 'staff' ? limit : null),
                `${member.username} is now ${role}`,
              )
            }
            onRemove={(member) =>
              act(() => removeMember(storeId, member.userId), `${member.username} was removed`)
            }
          />
          <section className="card" aria-labelledby="invitations-heading">
            <h2 id="invitations-heading">Invitations</h2>
            {load.value.invitations.length === 0 ? (
              <p className="muted">No invitations yet.</p>
            ) : (
              <div className="table-wrap table-cards">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">Role</th>
                      <th scope="col">State</th>
                      <th scope="col">Expires</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {load.value.invitations.map((invitation) => (
                      <tr key={invitation.id}>
                        <th scope="row">{invitation.email}</th>
                        <td data-label="Role">{invitation.role}</td>
                        <td data-label="State">{invitation.status}</td>
                        <td data-label="Expires">
                          <time dateTime={invitation.expiresAt}>
                            {new Date(invitation.expiresAt).toLocaleDateString()}
                          </time>
                        </td>
                        <td data-label="Actions">
                          {invitation.status === 'pending' && (
                            <button
                              type="button"
                              className="button button-quiet button-small"
                              onClick={() =>
                                void act(
                                  () => revokeInvitation(storeId, invitation.id),
                                  'Invitation revoked',
                                )
                              }
                            >
                              Revoke
                            </button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}

function InviteForm(props: {
  onInvite: (email: string, role: InvitableRole, limit: string) => Promise<void>;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitableRole>('staff');
  const [limit, setLimit] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <section className="card" aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <form
        className="admin-filters"
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          await props.onInvite(email.trim(), role, limit.trim());
          setBusy(false);
          setEmail('');
        }}
      >
        <div className="field">
          <label htmlFor="invite-email">Email</label>
          <input
            id="invite-email"
            type="email"
            required
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select
            id="invite-role"
            value={role}
            onChange={(event) => setRole(event.target.value as InvitableRole)}
          >
            {INVITABLE_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        {role === 'staff' && (
          <div className="field">
            <label htmlFor="invite-limit">Refund limit (USDC per refund)</label>
            <input
              id="invite-limit"
              inputMode="decimal"
              maxLength={12}
              placeholder="None: no refunds"
              value={limit}
              onChange={(event) => setLimit(event.target.value)}
            />
          </div>
        )}
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Sending…' : 'Send invitation'}
          </button>
        </div>
      </form>
      <p className="muted small">{ROLE_TEXTS[role]}.</p>
    </section>
  );
}

function Members(props: {
  members: StoreMember[];
  onRole: (member: StoreMember, role: InvitableRole, limit: string | null) => Promise<void>;
  onRemove: (member: StoreMember) => Promise<void>;
}) {
  return (
    <section className="card" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <div className="table-wrap table-cards">
        <table>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              <th scope="col">Refund limit</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((member) => (
              <tr key={member.userId}>
                <th scope="row">
                  {member.username}
                  {member.email && <div className="muted small">{member.email}</div>}
                </th>
                <td data-label="Role">
                  {member.role === 'owner' ? (
                    'owner'
                  ) : (
                    <div className="field">
                      <select
                        aria-label={`Role of ${member.username}`}
                        value={member.role}
                        onChange={(event) =>
                          void props.onRole(
                            member,
                            event.target.value as InvitableRole,
                            member.refundLimitUsdc,
                          )
                        }
                      >
                        {INVITABLE_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    </div>
                  )}
                </td>
                <td data-label="Refund limit">
                  {member.role === 'staff'
                    ? member.refundLimitUsdc
                      ? `${member.refundLimitUsdc} USDC`
                      : 'No refunds'
                    : member.role === 'viewer'
                      ? 'No refunds'
                      : 'Any amount'}
                </td>
                <td data-label="Actions">
                  {member.role !== 'owner' && (
                    <button
                      type="button"
                      className="button button-quiet button-small"
                      onClick={() => {
                        if (window.confirm(`Remove ${member.username} from the team?`))
                          void props.onRemove(member);
                      }}
                    >
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
