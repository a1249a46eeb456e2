// A store's team on a real Postgres: the owner invites by email (a single-use link in the mail
// outbox), each role is allowed or refused on a route of each permission (shared/src/team.ts),
// API keys act with their member's role or less, and a removed member's session and keys are
// refused at once. Every team change is in the audit log with its actor.
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  ACCOUNT_MESSAGES,
  type StorePermission,
  shippingFor,
  storeCheckoutTotals,
  TEAM_MESSAGES,
} from '@store/shared';
import { customer } from '@store/stack/api-process';
import { eq } from 'drizzle-orm';
import { storeInvitations } from '../src/db/schema.ts';
import { type ApiClient, type ApiResponse, apiClient, storeForm } from './support/client.ts';
import {
  invitationToken as mailedToken,
  account as newAccount,
  member as teamMember,
} from './support/team.ts';
import { useTestApi } from './support/test-api.ts';

const t = useTestApi({ merchants: ['owner', 'other'] });
const db = () => t.testDb.database.db;
const account = (prefix: string) => newAccount(t, prefix);
const invitationToken = (email: string) => mailedToken(t, email);
const member = (storeId: string, role: 'admin' | 'staff' | 'viewer', limit?: string) =>
  teamMember(t, storeId, role, limit);

let store: { id: string; slug: string };
let order: { id: string };
let clients: Record<string, ApiClient>;

beforeAll(async () => {
  store = (await t.owner.api.post('/api/stores', storeForm())).body;
  const product = (
    await t.owner.api.post('/api/products', { storeId: store.id, title: 'Mug', priceUsdc: '5' })
  ).body;
  const items = [{ ...product, productId: product.id, quantity: 1 }];
  const totals = storeCheckoutTotals(items, shippingFor('free'));
  order = (
    await t.shopper.post('/api/orders', {
      storeId: store.id,
      ...customer,
      items,
      subtotalUsdc: totals.subtotalUsdc,
      shippingUsdc: totals.shippingUsdc,
      totalUsdc: totals.totalUsdc,
    })
  ).body;
  clients = {
    owner: t.owner.api,
    admin: (await member(store.id, 'admin')).api,
    staff: (await member(store.id, 'staff', '20')).api,
    viewer: (await member(store.id, 'viewer')).api,
    'non-member': t.other.api,
    anonymous: t.shopper,
  };
});

/** A route of each permission; what it answers a caller it lets through is not a refusal. */
const ROUTES: Record<StorePermission, (c: ApiClient) => Promise<ApiResponse>> = {
  read: (c) => c.get(`/api/stores/${store.id}/customers`),
  operate: (c) => c.post('/api/products', { storeId: store.id, title: 'Cup', priceUsdc: '3' }),
  // Note: the order has no deposit address yet: a refund it lets through is 409, not a refusal.
  refund: (c) => c.post(`/api/orders/${order.id}/refunds`, {}),
  manage: (c) => c.put(`/api/stores/${store.id}`, { description: 'Mugs and cups' }),
  payout: (c) => c.post(`/api/stores/${store.id}/verification/challenge`, {}),
  team: (c) => c.get(`/api/stores/${store.id}/team`),
  audit: (c) => c.get(`/api/stores/${store.id}/audit`),
};

const ALLOWED: Record<string, StorePermission[]> = {
  owner: ['read', 'operate', 'refund', 'manage', 'payout', 'team', 'audit'],
  admin: ['read', 'operate', 'refund', 'manage', 'audit'],
  staff: ['read', 'operate', 'refund'],
  viewer: ['read'],
  'non-member': [],
  anonymous: [],
};

describe('each role on a route of each permission', () => {
  for (const [who, allowed] of Object.entries(ALLOWED)) {
    for (const permission of Object.keys(ROUTES) as StorePermission[]) {
      const may = allowed.includes(permission);
      test(`${who} ${may ? 'may' : 'may not'} ${permission}`, async () => {
        const response = await ROUTES[permission](clients[who] as ApiClient);
        if (may) {
          expect([401, 403, 404]).not.toContain(response.status);
        } else if (who === 'anonymous') {
          expect(response.status).toBe(401);
          expect(response.body.error.message).toBe(ACCOUNT_MESSAGES.signInRequired);
        } else if (who === 'non-member') {
          // Note: the same 404 as a store that does not exist: the store is not revealed.
          expect(response.status).toBe(404);
        } else {
          expect(response.status).toBe(403);
          expect(response.body.error.message).toBe(TEAM_MESSAGES.forbidden);
        }
      });
    }
  }

  test('members see the store in their list with their role; a viewer reads its orders', async () => {
    const listed = await clients.viewer?.get('/api/stores?mine=true');
    expect(listed?.body.map((s: { id: string; role: string }) => [s.id, s.role])).toEqual([
      [store.id, 'viewer'],
    ]);
    const orders = await clients.viewer?.get(`/api/orders?storeId=${store.id}`);
    expect(orders?.status).toBe(200);
    expect(orders?.body.map((o: { id: string }) => o.id)).toEqual([order.id]);
    const mine = await t.owner.api.get('/api/stores?mine=true');
    expect(mine.body.find((s: { id: string }) => s.id === store.id).role).toBe('owner');
  });

  test("the store's answer tells each member their role, and staff their refund limit", async () => {
    const standing = async (who: string) => {
      const one = (await clients[who]?.get(`/api/stores/${store.id}`))?.body;
      const listed = (await clients[who]?.get('/api/stores?mine=true'))?.body.find(
        (s: { id: string }) => s.id === store.id,
      );
      expect([listed.role, listed.refundLimitUsdc]).toEqual([one.role, one.refundLimitUsdc]);
      return [one.role, one.refundLimitUsdc];
    };
    expect(await standing('owner')).toEqual(['owner', null]);
    expect(await standing('admin')).toEqual(['admin', null]);
    expect(await standing('staff')).toEqual(['staff', '20.00']);
    expect(await standing('viewer')).toEqual(['viewer', null]);
    // A staff member's key with the viewer role reads the store as a viewer: no limit.
    const key = (await clients.staff?.post('/api/api-keys', { name: 'Read', role: 'viewer' }))
      ?.body;
    const byKey = await t.shopper.get(`/api/stores/${store.id}`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect([byKey.body.role, byKey.body.refundLimitUsdc]).toEqual(['viewer', null]);
    // The public view has neither.
    const anonymous = (await t.shopper.get(`/api/stores/${store.slug}`)).body;
    expect('role' in anonymous || 'refundLimitUsdc' in anonymous).toBe(false);
  });
});

describe('invitations', () => {
  test('a link works once, for the invited address only; revoked and expired links do not', async () => {
    const invitee = await account('invitee');
    const stranger = await account('stranger');
    await t.owner.api.post(`/api/stores/${store.id}/invitations`, {
      email: invitee.email,
      role: 'viewer',
    });
    const token = await invitationToken(invitee.email);
    const again = await t.owner.api.post(`/api/stores/${store.id}/invitations`, {
      email: invitee.email,
      role: 'staff',
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(TEAM_MESSAGES.alreadyInvited);
    const wrong = await stranger.api.post('/api/invitations/accept', { token });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(TEAM_MESSAGES.wrongAccount);
    expect((await invitee.api.post('/api/invitations/accept', { token })).status).toBe(200);
    const twice = await invitee.api.post('/api/invitations/accept', { token });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(TEAM_MESSAGES.invitationInvalid);
    expect((await t.shopper.post('/api/invitations/accept', { token })).status).toBe(401);

    const late = await account('late');
    const made = await t.owner.api.post(`/api/stores/${store.id}/invitations`, {
      email: late.email,
      role: 'viewer',
    });
    await db()
      .update(storeInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(storeInvitations.id, made.body.id));
    const expired = await late.api.post('/api/invitations/accept', {
      token: await invitationToken(late.email),
    });
    expect(expired.status).toBe(409);

    const revokedFor = await account('revoked');
    const pending = await t.owner.api.post(`/api/stores/${store.id}/invitations`, {
      email: revokedFor.email,
      role: 'admin',
    });
    const revoked = await t.owner.api.delete(
      `/api/stores/${store.id}/invitations/${pending.body.id}`,
    );
    expect(revoked.body.status).toBe('revoked');
    const afterRevoke = await revokedFor.api.post('/api/invitations/accept', {
      token: await invitationToken(revokedFor.email),
    });
    expect(afterRevoke.status).toBe(409);
    const team = (await t.owner.api.get(`/api/stores/${store.id}/team`)).body;
    const statusOf = (email: string) =>
      team.invitations.find((i: { email: string }) => i.email === email)?.status;
    expect([invitee.email, late.email, revokedFor.email].map(statusOf)).toEqual([
      'accepted',
      'expired',
      'revoked',
    ]);
  });

  test('a second merchant and an anonymous client are refused; a form body is 415', async () => {
    const paths = [
      ['GET', `/api/stores/${store.id}/team`],
      ['POST', `/api/stores/${store.id}/invitations`],
      ['PATCH', `/api/stores/${store.id}/members/${t.owner.user.id}`],
      ['DELETE', `/api/stores/${store.id}/members/${t.owner.user.id}`],
    ] as const;
    const body = { email: 'x@example.com', role: 'viewer' };
    for (const [method, path] of paths) {
      const options = method === 'POST' || method === 'PATCH' ? { body } : {};
      expect((await t.other.api.call(method, path, options)).status).toBe(404);
      expect((await t.shopper.call(method, path, options)).status).toBe(401);
    }
    const form = await t.app.handle(
      new Request(`http://localhost/api/stores/${store.id}/invitations`, {
        method: 'POST',
        headers: {
          cookie: t.owner.cookie,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'email=x%40example.com&role=viewer',
      }),
    );
    expect(form.status).toBe(415);
  });

  test('the owner cannot be removed or demoted; an admin cannot change the team', async () => {
    const demote = await t.owner.api.patch(`/api/stores/${store.id}/members/${t.owner.user.id}`, {
      role: 'admin',
    });
    expect(demote.status).toBe(403);
    expect(demote.body.error.message).toBe(TEAM_MESSAGES.ownerFixed);
    const remove = await t.owner.api.delete(`/api/stores/${store.id}/members/${t.owner.user.id}`);
    expect(remove.status).toBe(403);
    const byAdmin = await clients.admin?.post(`/api/stores/${store.id}/invitations`, {
      email: 'y@example.com',
      role: 'admin',
    });
    expect(byAdmin?.status).toBe(403);
  });
});

describe('API keys and removal', () => {
  test('a key with a lesser role is refused what its role does not allow', async () => {
    const key = (await t.owner.api.post('/api/api-keys', { name: 'Books', role: 'viewer' })).body;
    const byKey = apiClient(t.app);
    const headers = { authorization: `Bearer ${key.key}` };
    expect((await byKey.get(`/api/stores/${store.id}/customers`, { headers })).status).toBe(200);
    const edit = await byKey.put(`/api/stores/${store.id}`, { description: 'x' }, { headers });
    expect(edit.status).toBe(403);
    expect(edit.body.error.message).toBe(TEAM_MESSAGES.forbidden);
  });

  test("a member's key is their role or less: above it is refused; one for all stores does no more", async () => {
    const viewer = await member(store.id, 'viewer');
    for (const role of ['owner', 'admin', 'staff'] as const) {
      const above = await viewer.api.post('/api/api-keys', { name: role, role, storeId: store.id });
      expect(above.status, role).toBe(403);
      expect(above.body.error.message).toBe(TEAM_MESSAGES.keyRoleTooHigh);
    }
    const own = await viewer.api.post('/api/api-keys', {
      name: 'Books',
      role: 'viewer',
      storeId: store.id,
    });
    expect(own.status).toBe(201);
    // A key for all of the member's stores: 'owner' means whatever the member's role allows.
    const wide = await viewer.api.post('/api/api-keys', { name: 'Everywhere' });
    expect(wide.status).toBe(201);
    const listed = (await viewer.api.get('/api/api-keys')).body.map(
      (k: { name: string; role: string; storeId: string | null }) => [k.name, k.role, k.storeId],
    );
    expect(listed).toEqual([
      ['Everywhere', 'owner', null],
      ['Books', 'viewer', store.id],
    ]);
    const headers = { authorization: `Bearer ${wide.body.key}` };
    expect((await t.shopper.get(`/api/stores/${store.id}/customers`, { headers })).status).toBe(
      200,
    );
    const edit = await t.shopper.post(
      '/api/products',
      { storeId: store.id, title: 'Pin', priceUsdc: '1' },
      { headers },
    );
    expect(edit.status).toBe(403);
    expect(edit.body.error.message).toBe(TEAM_MESSAGES.forbidden);
  });

  test("a removed member's session and keys are refused at the next request; it is audited", async () => {
    const leaving = await member(store.id, 'staff', '10');
    const scoped = await leaving.api.post('/api/api-keys', {
      name: 'Packing',
      role: 'staff',
      storeId: store.id,
    });
    expect(scoped.status).toBe(201);
    const tooHigh = await leaving.api.post('/api/api-keys', {
      name: 'More',
      role: 'admin',
      storeId: store.id,
    });
    expect(tooHigh.status).toBe(403);
    expect(tooHigh.body.error.message).toBe(TEAM_MESSAGES.keyRoleTooHigh);
    const anyStore = (await leaving.api.post('/api/api-keys', { name: 'Any' })).body;
    const key = (secret: string) => ({ headers: { authorization: `Bearer ${secret}` } });
    const read = `/api/stores/${store.id}/customers`;
    expect((await t.shopper.get(read, key(scoped.body.key))).status).toBe(200);
    expect((await t.shopper.get(read, key(anyStore.key))).status).toBe(200);
    expect((await leaving.api.get(read)).status).toBe(200);

    const removed = await t.owner.api.delete(`/api/stores/${store.id}/members/${leaving.id}`);
    expect(removed.body).toEqual({ userId: leaving.id, removed: true });
    expect((await leaving.api.get(read)).status).toBe(404);
    expect((await t.shopper.get(read, key(scoped.body.key))).status).toBe(401);
    expect((await t.shopper.get(read, key(anyStore.key))).status).toBe(404);
    expect((await leaving.api.get('/api/stores?mine=true')).body).toEqual([]);

    const audit = (await t.owner.api.get(`/api/stores/${store.id}/audit`)).body;
    const actions = audit.map((e: { action: string }) => e.action);
    expect(actions).toContain('team.member_removed');
    expect(actions).toContain('team.member_invited');
    expect(actions).toContain('team.invitation_accepted');
    expect(actions).toContain('team.invitation_revoked');
    const removal = audit.find((e: { action: string }) => e.action === 'team.member_removed');
    expect(removal.actor.userId).toBe(t.owner.user.id);
    expect(removal.subjectId).toBe(leaving.id);
  });

  test('a role change is audited and takes effect at the next request', async () => {
    const changing = await member(store.id, 'viewer');
    const edit = () =>
      changing.api.post('/api/products', { storeId: store.id, title: 'Pin', priceUsdc: '1' });
    expect((await edit()).status).toBe(403);
    const changed = await t.owner.api.patch(`/api/stores/${store.id}/members/${changing.id}`, {
      role: 'staff',
      refundLimitUsdc: '15',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ role: 'staff', refundLimitUsdc: '15.00' });
    expect((await edit()).status).toBe(201);
    const audit = (
      await t.owner.api.get(`/api/stores/${store.id}/audit?action=team.member_role_changed`)
    ).body;
    expect(audit[0].changes.role).toEqual({ before: 'viewer', after: 'staff' });
  });
});
